// A real ref:tiny capture, checked against the invariants the session promises.
#include "TestSupport.h"
#include "capture/probe/HostClock.h"
#include "capture/probe/Recorder.h"
#include "capture/run/Capture.h"
#include "core/analysis/ModuleCosts.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <sqlite3.h>

using namespace mvp;

namespace {
constexpr int kSteps = 4;
const std::string kPrompt = "What is in the picture?";

std::vector<std::vector<int64_t>> parseShapes(const std::string& text) {
    // "[[2,3],[3,4]]" → {{2,3},{3,4}}
    std::vector<std::vector<int64_t>> out;
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(text));
    for (const auto& s : doc.array()) {
        std::vector<int64_t> shape;
        for (const auto& d : s.toArray())
            shape.push_back(d.toInteger());
        out.push_back(shape);
    }
    return out;
}

// An independent 2·M·N·K for the matmul family, written for this test.
int64_t expectedMatmulFlops(const std::string& name, const std::vector<std::vector<int64_t>>& s) {
    auto prod = [](const std::vector<int64_t>& v, size_t from, size_t to) {
        int64_t p = 1;
        for (size_t i = from; i < to; ++i)
            p *= v[i];
        return p;
    };
    if (name == "aten::addmm") return 2 * s[1][0] * s[1][1] * s[2][1];
    if (name == "aten::linear") return 2 * prod(s[0], 0, s[0].size() - 1) * s[1][0] * s[1][1];
    const auto& a = s[0];
    const auto& b = s[1];
    const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
    // Batch: the larger of the two operands' leading products (broadcast by repetition).
    const int64_t batch = std::max(prod(a, 0, a.size() - 2), prod(b, 0, b.size() - 2));
    return 2 * batch * m * n * k;
}
} // namespace

class TestCapture : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path;
    std::unique_ptr<SessionReader> reader;
    RunInfo run;
    CaptureResult result;

    CaptureOptions options(const QString& out) const {
        CaptureOptions o;
        o.imagePath = test::sampleImage().toStdString();
        o.outPath = out.toStdString();
        o.prompt = kPrompt;
        o.steps = kSteps;
        o.attnLayers = {0, 1};
        return o;
    }

private slots:
    void initTestCase() {
        path = dir.filePath(QStringLiteral("tiny.mvprof"));
        auto r = capture(options(path));
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        result = *r;
        auto rd = SessionReader::open(path.toStdString());
        QVERIFY2(rd.ok(), rd.ok() ? "" : rd.error().message.c_str());
        reader = std::move(rd.value());
        auto runs = reader->runs();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(1));
        run = runs->front();
        QCOMPARE(run.status, RunStatus::Complete);
    }

    void phasesTileTheRun() {
        auto phases = reader->phases(run.id);
        QVERIFY(phases.ok());
        const PhaseSummary s = summarisePhases(*phases);
        QCOMPARE(s.overlaps, 0);
        QVERIFY2(s.coverage >= 0.98, qPrintable(QString::number(s.coverage)));
        QCOMPARE(s.wallNs, run.wallNs);
        std::vector<std::string> names;
        for (const auto& p : s.phases)
            names.push_back(phaseName(p.phase));
        QCOMPARE(names, (std::vector<std::string>{"preprocess", "vision", "projector", "prefill",
                                                  "decode"}));
        QCOMPARE(s.phases.back().count, kSteps);
    }

    void childSpansLieInsideTheirParents() {
        auto spans = reader->spans(run.id);
        QVERIFY(spans.ok());
        QVERIFY(spans->size() > 20);
        std::map<int64_t, const SpanRow*> byId;
        for (const auto& s : *spans)
            byId[s.id] = &s;
        int checked = 0;
        for (const auto& s : *spans) {
            QVERIFY(s.startNs <= s.endNs);
            if (!s.parent) continue;
            const SpanRow* p = byId.at(*s.parent);
            QVERIFY2(p->startNs <= s.startNs && s.endNs <= p->endNs,
                     qPrintable(QString::number(s.id)));
            QVERIFY(p->phase == s.phase);
            ++checked;
        }
        QVERIFY(checked > 10);
        // Ops lie inside their span too.
        auto ops = reader->ops(run.id);
        QVERIFY(ops.ok());
        for (const auto& o : *ops)
            if (o.span) {
                const SpanRow* s = byId.at(*o.span);
                QVERIFY(s->startNs <= o.startNs && o.endNs <= s->endNs);
            }
    }

    void routingRowsAreTokensTimesLayersTimesK() {
        auto routing = reader->routing(run.id);
        QVERIFY(routing.ok());
        const QJsonObject cfg =
            QJsonDocument::fromJson(QByteArray::fromStdString(run.configJson)).object();
        const int moeLayers = int(
            cfg[QStringLiteral("llm")].toObject()[QStringLiteral("moe_layers")].toArray().size());
        const int k = cfg[QStringLiteral("llm")].toObject()[QStringLiteral("top_k")].toInt();
        const int patches = 256;
        QVERIFY(moeLayers > 0 && k > 0);
        std::map<std::pair<std::string, int>, int> perStep;
        for (const auto& r : *routing) {
            perStep[{phaseName(r.phase), r.step}] += 1;
            const bool visual = r.token >= 1 && r.token <= patches;
            QVERIFY(r.modality == (visual ? Modality::Visual : Modality::Text));
            QVERIFY(r.weight > 0 && r.weight <= 1);
        }
        const int prefillTokens = 1 + patches + int(kPrompt.size());
        const auto key = [](const char* phase, int step) {
            return std::pair<std::string, int>(phase, step);
        };
        QCOMPARE(perStep[key("prefill", 0)], prefillTokens * moeLayers * k);
        for (int s = 1; s <= kSteps; ++s)
            QCOMPARE(perStep[key("decode", s)], moeLayers * k);
        QCOMPARE(int(perStep.size()), 1 + kSteps);
    }

    void matmulFlopsAreExact() {
        auto ops = reader->ops(run.id);
        QVERIFY(ops.ok());
        int checked = 0;
        for (const auto& o : *ops) {
            static const std::set<std::string> family{"aten::mm", "aten::matmul", "aten::bmm",
                                                      "aten::addmm", "aten::linear"};
            if (!family.count(o.name)) continue;
            QCOMPARE(o.flops, expectedMatmulFlops(o.name, parseShapes(o.shapes)));
            ++checked;
        }
        QVERIFY2(checked > 20, qPrintable(QString::number(checked)));
    }

    void spanFlopsSumTheirOps() {
        auto ops = reader->ops(run.id);
        auto spans = reader->spans(run.id);
        QVERIFY(ops.ok() && spans.ok());
        std::map<int64_t, int64_t> direct;
        for (const auto& o : *ops)
            if (o.span) direct[*o.span] += o.flops;
        std::map<int64_t, int64_t> children;
        for (const auto& s : *spans)
            if (s.parent) children[*s.parent] += s.flops;
        for (const auto& s : *spans)
            QCOMPARE(s.flops, direct[s.id] + children[s.id]);
    }

    void attentionReceivedEqualsMassOnVisualPositions() {
        auto grid = reader->patchGrid(run.id);
        QVERIFY(grid.ok() && grid->has_value());
        const int patches = (*grid)->gridH * (*grid)->gridW, first = (*grid)->firstPosition;
        QCOMPARE(patches, 256);
        auto metrics = reader->patchMetrics(run.id, "attention");
        QVERIFY(metrics.ok());
        for (int layer : {0, 1}) {
            double received = 0;
            for (const auto& m : *metrics)
                if (m.layer == layer) received += m.value;
            auto maps = reader->attnMaps(run.id, layer);
            QVERIFY(maps.ok());
            QCOMPARE(int(maps->size()), 4); // heads
            double mass = 0;
            for (const auto& m : *maps) {
                QCOMPARE(m.rows, m.cols);
                for (int q = 0; q < m.rows; ++q) {
                    if (q >= first && q < first + patches) continue; // visual queries
                    double rowSum = 0, visual = 0;
                    for (int k = 0; k < m.cols; ++k) {
                        const double a = m.data[size_t(q) * m.cols + k];
                        rowSum += a;
                        if (k >= first && k < first + patches) visual += a;
                    }
                    QVERIFY(std::abs(rowSum - 1.0) < 1e-4); // softmax rows
                    mass += visual / double(maps->size());
                }
            }
            QVERIFY(mass > 0);
            QVERIFY2(std::abs(received - mass) < 1e-5 * std::max(1.0, mass),
                     qPrintable(
                         QStringLiteral("layer %1: %2 vs %3").arg(layer).arg(received).arg(mass)));
        }
    }

    void attentionSplitsByPhase() {
        auto all = reader->patchMetrics(run.id, "attention");
        auto pre = reader->patchMetrics(run.id, "attention.prefill");
        auto dec = reader->patchMetrics(run.id, "attention.decode");
        QVERIFY(all.ok() && pre.ok() && dec.ok());
        QCOMPARE(all->size(), pre->size());
        QCOMPARE(all->size(), dec->size());
        double decodeMass = 0;
        for (size_t i = 0; i < all->size(); ++i) {
            QCOMPARE((*all)[i].patch, (*pre)[i].patch);
            QVERIFY(std::abs((*all)[i].value - (*pre)[i].value - (*dec)[i].value) < 1e-12);
            decodeMass += (*dec)[i].value;
        }
        QVERIFY(decodeMass > 0); // the decode steps looked at the image too
    }

    void runFactsAreRecorded() {
        QVERIFY(run.peakRssBytes > 0);
        QVERIFY(!run.blas.empty());
        QVERIFY(run.threads >= 1);
        QCOMPARE(run.prompt, kPrompt);
        auto image = reader->image(run.id);
        QVERIFY(image.ok() && image->has_value());
        QCOMPARE((*image)->width, 512);
        QCOMPARE((*image)->origWidth, 512);
        auto tokens = reader->tokens(run.id);
        QVERIFY(tokens.ok());
        QCOMPARE(int(tokens->size()), 1 + 256 + int(kPrompt.size()) + kSteps);
        QCOMPARE(int(result.outputTokens.size()), kSteps + 1);
    }

    // The capture's clock (the time-stamp counter where it is invariant)
    // against steady_clock: monotonic, and over 60 ms of sleep the two agree
    // to 0.1 % (the calibration is good to ~10 ppm; the slack is the reads').
    void theClockAgreesWithSteadyClock() {
        const HostClock& clock = HostClock::instance();
        int64_t last = clock.nowNs();
        for (int i = 0; i < 100000; ++i) {
            const int64_t now = clock.nowNs();
            QVERIFY2(now >= last, qPrintable(QStringLiteral("%1 then %2").arg(last).arg(now)));
            last = now;
        }
        const int64_t c0 = clock.nowNs(), s0 = HostClock::steadyNs();
        QThread::msleep(60);
        const int64_t c1 = clock.nowNs(), s1 = HostClock::steadyNs();
        const double byClock = double(c1 - c0), bySteady = double(s1 - s0);
        QVERIFY2(std::abs(byClock - bySteady) < 1e-3 * bySteady + 20'000,
                 qPrintable(QStringLiteral("clock %1 ns, steady_clock %2 ns")
                                .arg(byClock, 0, 'f', 0)
                                .arg(bySteady, 0, 'f', 0)));
        if (clock.countsTicks()) QVERIFY(clock.ticksPerSecond() > 5e7);
        // The run says which clock timed it and how far it drifted from steady_clock.
        auto metrics = reader->runMetrics(run.id);
        QVERIFY(metrics.ok());
        const auto it = std::find_if(metrics->begin(), metrics->end(), [](const RunMetricRow& m) {
            return m.name == "capture.clock_disagreement_ns";
        });
        QVERIFY(it != metrics->end());
        QCOMPARE(it->kind, std::string("measured"));
        QVERIFY2(std::abs(it->value) < 1e-3 * double(run.wallNs) + 100'000,
                 qPrintable(QString::number(it->value)));
        QVERIFY2(it->note.find(clock.countsTicks() ? "time-stamp counter (" : "steady_clock") !=
                     std::string::npos,
                 it->note.c_str());
    }

    // The profiler's own work (here: 30 ms of it, nested) is taken off the
    // run's clock: the span and phase around it last far less.
    void probeWorkIsTakenOffTheClock() {
        const QString out = dir.filePath(QStringLiteral("probe-work.mvprof"));
        auto w = SessionWriter::open(out.toStdString(), SessionWriter::Mode::Overwrite);
        QVERIFY(w.ok());
        RunInfo info;
        info.label = "probe work";
        auto id = (*w)->beginRun(info);
        QVERIFY(id.ok());
        {
            Recorder rec(**w, *id, true);
            rec.beginPhase(Phase::Prefill);
            rec.enter(1);
            {
                ProbeWork work(&rec);
                ProbeWork nested(&rec);
                QThread::msleep(30);
            }
            rec.exit();
            rec.endPhase();
            QVERIFY(rec.probeWorkNs() >= 30'000'000);
        }
        QVERIFY((*w)->close().ok());
        auto r = SessionReader::open(out.toStdString());
        QVERIFY(r.ok());
        auto spans = (*r)->spans(*id);
        auto phases = (*r)->phases(*id);
        QVERIFY(spans.ok() && spans->size() == 1 && phases.ok() && phases->size() == 1);
        QVERIFY2(spans->front().endNs - spans->front().startNs < 10'000'000,
                 qPrintable(QString::number(spans->front().endNs - spans->front().startNs)));
        QVERIFY(phases->front().endNs - phases->front().startNs < 10'000'000);
        // A real capture's hooks (routing, attention) report theirs.
        auto metrics = reader->runMetrics(run.id);
        QVERIFY(metrics.ok());
        const auto it = std::find_if(metrics->begin(), metrics->end(), [](const RunMetricRow& m) {
            return m.name == "capture.probe_work_ns";
        });
        QVERIFY(it != metrics->end());
        QVERIFY(it->value > 0);
        QCOMPARE(it->kind, std::string("measured"));
    }

    void weightAndKvBytesAreRecorded() {
        auto metrics = reader->runMetrics(run.id);
        QVERIFY(metrics.ok());
        std::map<std::string, RunMetricRow> m;
        for (const auto& r : *metrics)
            m[r.name] = r;
        QVERIFY(m.count("weights.bytes") && m.count("kv.bytes"));
        QCOMPARE(m["weights.bytes"].kind, std::string("measured"));
        // float32: 4 bytes per parameter; K and V per position, layer, KV head and head dim.
        QCOMPARE(int64_t(m["weights.bytes"].value),
                 int64_t(4) * presetConfig("ref:tiny")->parameterCount());
        const int positions = 1 + 256 + int(kPrompt.size()) + kSteps;
        QCOMPARE(int64_t(m["kv.bytes"].value),
                 int64_t(positions) * 2 /*layers*/ * 2 /*K, V*/ * 2 /*KV heads*/ * 16 * 4);
    }

    void bfloat16HalvesTheBytes() {
        const QString bf = dir.filePath(QStringLiteral("bf16.mvprof"));
        CaptureOptions o = options(bf);
        o.dtype = "bfloat16";
        auto r = capture(o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        auto other = SessionReader::open(bf.toStdString());
        QVERIFY(other.ok());
        auto info = (*other)->run(1);
        QVERIFY(info.ok());
        QCOMPARE(info->dtype, std::string("bfloat16"));
        auto a = reader->runMetrics(run.id);
        auto b = (*other)->runMetrics(1);
        QVERIFY(a.ok() && b.ok());
        auto value = [](const std::vector<RunMetricRow>& rows, const char* name) {
            for (const auto& r : rows)
                if (r.name == name) return r.value;
            return -1.0;
        };
        QCOMPARE(value(*b, "weights.bytes") * 2, value(*a, "weights.bytes"));
        QCOMPARE(value(*b, "kv.bytes") * 2, value(*a, "kv.bytes"));
        // The recorded ops ran in bfloat16, and the routing still has every token.
        auto totals = (*other)->opTotals(1);
        QVERIFY(totals.ok() && !totals->empty());
        // Each op's dtype is its first tensor's: the decoder's
        // matmuls read bfloat16 here, float32 in the float capture.
        auto matmulDtypes = [](const std::vector<OpRow>& ops) {
            std::set<std::string> seen;
            for (const auto& op : ops)
                if (op.name == "aten::matmul" && op.phase == Phase::Prefill) seen.insert(op.dtype);
            return seen;
        };
        auto bfOps = (*other)->ops(1);
        auto fOps = reader->ops(run.id);
        QVERIFY(bfOps.ok() && fOps.ok());
        QCOMPARE(matmulDtypes(*bfOps), std::set<std::string>{"BFloat16"});
        QCOMPARE(matmulDtypes(*fOps), std::set<std::string>{"Float"});
        auto routing = (*other)->routing(1);
        QVERIFY(routing.ok());
        QCOMPARE(routing->size(), reader->routing(run.id)->size());
        CaptureOptions half = options(dir.filePath(QStringLiteral("half.mvprof")));
        half.dtype = "float16";
        auto refused = capture(half);
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.find("bfloat16") != std::string::npos);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("half.mvprof"))));
    }

    void sameSeedSameRun() {
        const QString again = dir.filePath(QStringLiteral("again.mvprof"));
        auto r = capture(options(again));
        QVERIFY(r.ok());
        QCOMPARE(r->outputTokens, result.outputTokens);
        auto other = SessionReader::open(again.toStdString());
        QVERIFY(other.ok());
        auto a = reader->routing(run.id);
        auto b = (*other)->routing(1);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(a->size(), b->size());
        for (size_t i = 0; i < a->size(); ++i) {
            QCOMPARE((*a)[i].expert, (*b)[i].expert);
            QCOMPARE((*a)[i].weight, (*b)[i].weight);
        }
    }

    void configCountsTheModelsParameters() {
        auto prepared = prepareCapture(options(QString()));
        QVERIFY(prepared.ok());
        const int64_t predicted = prepared->config.parameterCount();
        auto capturer = Capturer::create(std::move(prepared.value()));
        QVERIFY(capturer.ok());
        QCOMPARE((*capturer)->parameterCount(), predicted);
    }

    void noProbesRecordsPhasesOnly() {
        auto o = options(dir.filePath(QStringLiteral("bare.mvprof")));
        o.probes = false;
        auto r = capture(o);
        QVERIFY(r.ok());
        QCOMPARE(r->outputTokens, result.outputTokens); // probes never change the numerics
        auto rd = SessionReader::open(o.outPath);
        QVERIFY(rd.ok());
        QCOMPARE((*rd)->phases(1)->size(), size_t(4 + kSteps));
        QVERIFY((*rd)->spans(1)->empty());
        QVERIFY((*rd)->ops(1)->empty());
        QVERIFY((*rd)->routing(1)->empty());
        QVERIFY(!(*rd)->run(1)->probes);
    }

    // The report's balance figures against this test's own SQL over the raw rows,
    // and the skewed experts — exactly those — named hot.
    void reportAgreesWithRawRouting() {
        auto o = options(dir.filePath(QStringLiteral("skew6.mvprof")));
        o.overrides.routingSkew = 6.0;
        o.attnLayers.clear();
        QVERIFY(capture(o).ok());
        const auto r = test::runCli({QStringLiteral("report"), QString::fromStdString(o.outPath),
                                     QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject run = QJsonDocument::fromJson(r.out)
                                    .object()[QStringLiteral("runs")]
                                    .toArray()
                                    .at(0)
                                    .toObject();
        auto reader = SessionReader::open(o.outPath);
        QVERIFY(reader.ok());
        const QJsonObject cfg =
            QJsonDocument::fromJson(QByteArray::fromStdString((*reader)->run(1)->configJson))
                .object();
        const int experts =
            cfg[QStringLiteral("llm")].toObject()[QStringLiteral("experts")].toInt();
        const QJsonArray ranking = cfg[QStringLiteral("expert_ranking")].toArray();

        std::map<int, std::vector<double>> counts; // layer → per-expert slots
        std::map<int, double> visual;
        for (const auto& r : test::storedRouting(QString::fromStdString(o.outPath), 1)) {
            auto& c = counts[r.layer];
            c.resize(size_t(experts), 0.0);
            if (r.expert >= 0 && r.expert < experts) c[size_t(r.expert)] += 1;
            visual[r.layer] += r.visual ? 1 : 0;
        }

        const QJsonArray layers =
            run[QStringLiteral("moe")].toObject()[QStringLiteral("layers")].toArray();
        QCOMPARE(size_t(layers.size()), counts.size());
        int moeIndex = 0;
        for (const auto& lv : layers) {
            const QJsonObject l = lv.toObject();
            auto c = counts.at(l[QStringLiteral("layer")].toInt());
            c.resize(size_t(experts), 0.0);
            const double n = double(c.size()), sum = std::accumulate(c.begin(), c.end(), 0.0),
                         mean = sum / n;
            double var = 0, sq = 0, h = 0, dead = 0;
            for (double x : c) {
                var += (x - mean) * (x - mean) / n;
                sq += x * x;
                if (x > 0) h -= x / sum * std::log2(x / sum);
                dead += x == 0;
            }
            const double max = *std::max_element(c.begin(), c.end());
            auto is = [&](const char* key, double expected) {
                const double got = l[QString::fromLatin1(key)].toDouble();
                QVERIFY2(std::abs(got - expected) < 1e-9, qPrintable(QStringLiteral("%1: %2 vs %3")
                                                                         .arg(QLatin1String(key))
                                                                         .arg(got)
                                                                         .arg(expected)));
            };
            is("tokens", sum);
            is("cv", std::sqrt(var) / mean);
            is("balancedness", mean / max);
            is("jain", sum * sum / (n * sq));
            is("maxvio", max / mean - 1);
            is("dead_fraction", dead / n);
            is("entropy_norm", std::exp2(h) / n);
            QCOMPARE(l[QStringLiteral("by_modality")]
                         .toObject()[QStringLiteral("visual")]
                         .toObject()[QStringLiteral("tokens")]
                         .toDouble(),
                     visual.at(l[QStringLiteral("layer")].toInt()));
            // The hot experts are exactly the two the skew favours (top-2 routing).
            std::set<int> hot;
            for (const auto& ev : l[QStringLiteral("experts")].toArray()) {
                const auto state = ev.toObject()[QStringLiteral("state")].toString();
                if (state == QStringLiteral("hot") || state == QStringLiteral("overloaded"))
                    hot.insert(ev.toObject()[QStringLiteral("id")].toInt());
            }
            const QJsonArray rank = ranking[moeIndex++].toArray();
            QCOMPARE(hot, (std::set<int>{rank[0].toInt(), rank[1].toInt()}));
        }
    }

    void routingSkewMakesTheFavouredExpertHot() {
        auto o = options(dir.filePath(QStringLiteral("skew.mvprof")));
        o.overrides.routingSkew = 4.0;
        o.attnLayers.clear();
        auto r = capture(o);
        QVERIFY(r.ok());
        auto rd = SessionReader::open(o.outPath);
        QVERIFY(rd.ok());
        const QJsonObject cfg =
            QJsonDocument::fromJson(QByteArray::fromStdString((*rd)->run(1)->configJson)).object();
        const QJsonArray ranking = cfg[QStringLiteral("expert_ranking")].toArray();
        const QJsonArray moe =
            cfg[QStringLiteral("llm")].toObject()[QStringLiteral("moe_layers")].toArray();
        std::map<int, std::map<int, int>> counts;
        auto routing = (*rd)->routing(1);
        QVERIFY(routing.ok());
        for (const auto& row : *routing)
            counts[row.layer][row.expert] += 1;
        for (int i = 0; i < moe.size(); ++i) {
            const int favoured = ranking[i].toArray()[0].toInt();
            const auto& c = counts[moe[i].toInt()];
            const auto hottest = std::max_element(
                c.begin(), c.end(), [](auto& a, auto& b) { return a.second < b.second; });
            QCOMPARE(hottest->first, favoured);
        }
    }
};

QTEST_GUILESS_MAIN(TestCapture)
#include "test_capture.moc"
