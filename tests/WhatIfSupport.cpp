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

} // namespace mvp::test
