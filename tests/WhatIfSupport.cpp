#include "WhatIfSupport.h"

#include "TestSupport.h"
#include "core/session/SessionReader.h"

#include <cmath>

namespace mvp::test {

QStringList args(std::initializer_list<const char*> list) {
    QStringList out;
    for (const char* s : list)
        out << QString::fromUtf8(s);
    return out;
}

double metric(const RunData& run, const char* name) {
    const auto* m = findMetric(run, name);
    return m ? m->value : std::nan("");
}

RunData loadRun(const QString& path, int64_t run) {
    auto reader = SessionReader::open(path.toStdString());
    if (!reader) return {};
    auto d = loadRunData(**reader, run);
    return d ? *d : RunData{};
}

QString skewedBaseline(const QString& out, const QStringList& extra) {
    const auto r = runCli(args({"capture", "--steps", "4", "--prompt", "Where is the helmet?",
                                "--routing-skew", "4"}) +
                          QStringList{QStringLiteral("--image"), sampleImage(),
                                      QStringLiteral("--out"), out} +
                          extra);
    if (r.exitCode != 0) qWarning("%s", r.err.constData());
    return r.exitCode == 0 ? out : QString();
}

double prefillFlops(const RunData& run) {
    double f = 0;
    for (const auto& t : run.opTotals)
        if (t.phase == Phase::Prefill) f += double(t.flops);
    return f;
}

QString refusalProblem(const QString& session, const QStringList& request, const QString& says) {
    const auto runs = [&]() -> int64_t {
        auto reader = SessionReader::open(session.toStdString());
        return reader && (*reader)->runs() ? int64_t((*reader)->runs()->size()) : -1;
    };
    const int64_t before = runs();
    const auto r = runCli(QStringList{QStringLiteral("whatif")} + request +
                          QStringList{QStringLiteral("--reps"), QStringLiteral("0"), session});
    if (r.exitCode != 2) return QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err));
    if (!QString::fromUtf8(r.err).contains(says)) return QString::fromUtf8(r.err);
    if (runs() != before) return QStringLiteral("the session's runs changed");
    return {};
}

} // namespace mvp::test
