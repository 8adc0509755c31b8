// A GPU tracer's records on a recorded run's clock and attributed to its
// ops and module spans (capture/probe/GpuTimeline.h), checked against values
// worked by hand: the linear map between two clocks, the probe work taken
// off as the Recorder takes it off, the profiler's own GPU work (external
// id 0) kept out of the model's, records from before the run left out, and
// the attributed share. A real Recorder's probe-work intervals line a host
// reading up with the op that follows it; without the exclusion the two are
// a probe's length apart. Without a GPU, a capture's trace says why it has
// none.
// libtorch first: Qt's `slots` macro breaks its headers.
// clang-format off
#include <torch/torch.h>
// clang-format on

#include "capture/cuda/CudaDriver.h"
#include "capture/probe/GpuTimeline.h"
#include "capture/probe/GpuTrace.h"
#include "capture/probe/Recorder.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <thread>

using namespace mvp;

namespace {

DeviceActivityRow work(ActivityKind kind, int64_t correlation, int64_t start, int64_t end) {
    DeviceActivityRow r;
    r.kind = kind;
    r.name = onDevice(kind) ? "kernel" : "cudaLaunchKernel";
    r.device = onDevice(kind) ? 0 : -1;
    r.correlation = correlation;
    r.startNs = start;
    r.endNs = end;
    return r;
}

const RunMetricRow* metric(const std::vector<RunMetricRow>& rows, const std::string& name) {
    for (const auto& m : rows)
        if (m.name == name) return &m;
    return nullptr;
}

// The identity between the two clocks: tracer timestamps are HostClock's.
RunClockMap sameClock(int64_t origin, std::vector<HostInterval> work) {
    return RunClockMap({0, 0}, {0, 0}, origin, std::move(work));
}

} // namespace

class TestGpuTimeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void offsetAndRateBetweenClocks() {
        // The tracer's clock reads 1e9 + t while the host's reads 5000 + t·1.0005.
        const RunClockMap clock({1'000'000'000, 5'000}, {1'001'000'000, 1'005'500}, 5'100, {});
        QCOMPARE(clock.runNs(1'000'000'000), int64_t(-100));
        QCOMPARE(clock.runNs(1'000'200'000), int64_t(200'000)); // 5000 + 200100 − 5100
        QCOMPARE(clock.runNs(1'001'000'000), int64_t(1'000'400));
        // Pairs under a microsecond apart: the offset alone.
        const RunClockMap close({1'000'000'000, 5'000}, {1'000'000'500, 5'900}, 5'000, {});
        QCOMPARE(close.runNs(1'000'200'000), int64_t(200'000));
    }

    void probeWorkIsTakenOff() {
        const auto clock = sameClock(1'000, {{10'000, 13'000}, {20'000, 21'000}});
        QCOMPARE(clock.runNs(5'000), int64_t(4'000));
        QCOMPARE(clock.runNs(10'000), int64_t(9'000));  // the work's first moment
        QCOMPARE(clock.runNs(11'500), int64_t(9'000));  // inside: the clock stood still
        QCOMPARE(clock.runNs(13'000), int64_t(9'000));  // its end is where the run goes on
        QCOMPARE(clock.runNs(15'000), int64_t(11'000)); // 15000 − 1000 − 3000
        QCOMPARE(clock.runNs(20'500), int64_t(16'000)); // inside the second
        QCOMPARE(clock.runNs(30'000), int64_t(25'000)); // 30000 − 1000 − 4000
    }

    void placesAndAttributes() {
        cuda::TracedActivities traced;
        auto& p = traced.parsed;
        // Listed out of order, as CUPTI's buffers arrive.
        p.rows.push_back(work(ActivityKind::Kernel, 3, 9'000, 10'000)); // op 8, no span
        p.rows.push_back(work(ActivityKind::Runtime, 1, 1'500, 1'800));
        p.rows.push_back(work(ActivityKind::Kernel, 1, 2'000, 5'000)); // op 7 in span 3
        p.rows.push_back(work(ActivityKind::Kernel, 2, 6'000, 6'500)); // the profiler's
        p.rows.push_back(work(ActivityKind::Memcpy, 4, 100, 400));     // before the run
        p.links = {{ExternalKind::Op, 7, 1}, {ExternalKind::Span, 3, 1},
                   {ExternalKind::Op, 0, 2}, {ExternalKind::Span, 0, 2},
                   {ExternalKind::Op, 8, 3}, {ExternalKind::Op, 9, 4}};
        traced.dropped = 5;
        traced.buffers = 2;
        const auto placed = placeActivities(std::move(traced), sameClock(1'000, {}));

        QCOMPARE(placed.outsideRun, int64_t(1));
        QCOMPARE(placed.rows.size(), size_t(4));
        for (size_t i = 0; i < placed.rows.size(); ++i)
            QCOMPARE(placed.rows[i].id, int64_t(i + 1)); // numbered by start
        const auto& api = placed.rows[0];
        QCOMPARE(api.kind, ActivityKind::Runtime);
        QCOMPARE(api.startNs, int64_t(500));
        QCOMPARE(api.op, std::optional<int64_t>(7));
        const auto& k1 = placed.rows[1];
        QCOMPARE(k1.startNs, int64_t(1'000));
        QCOMPARE(k1.endNs, int64_t(4'000));
        QCOMPARE(k1.op, std::optional<int64_t>(7));
        QCOMPARE(k1.span, std::optional<int64_t>(3));
        const auto& own = placed.rows[2];
        QVERIFY(!own.op && !own.span);
        const auto& k3 = placed.rows[3];
        QCOMPARE(k3.op, std::optional<int64_t>(8));
        QVERIFY(!k3.span);

        QCOMPARE(placed.profilerWork, int64_t(1));
        QCOMPARE(placed.profilerWorkNs, int64_t(500));
        QCOMPARE(placed.stats.gpuWork, int64_t(3));
        QCOMPARE(placed.stats.gpuNs, int64_t(4'500));

        const auto m = traceMetrics(placed);
        QCOMPARE(metric(m, "gpu.work")->value, 3.0);
        QCOMPARE(metric(m, "gpu.profiler_work_ns")->value, 500.0);
        QCOMPARE(metric(m, "cupti.dropped")->value, 5.0);
        QCOMPARE(metric(m, "cupti.buffers")->value, 2.0);
        // 3000 ns with a span over the model's 3000 + 1000.
        const auto* share = metric(m, "gpu.attributed_share");
        QVERIFY(share);
        QCOMPARE(share->value, 0.75);
        // run_metric stores measured or predicted: the note says it is derived.
        QCOMPARE(QString::fromStdString(share->kind), QStringLiteral("measured"));
        QVERIFY(share->note.rfind("derived: ", 0) == 0);
    }

    void noModelWorkNoShare() {
        const auto placed = placeActivities({}, sameClock(0, {}));
        QVERIFY(!metric(traceMetrics(placed), "gpu.attributed_share"));
    }

    // A real Recorder: a host reading taken just before an op, after 3 ms of
    // probe work, maps to that op's stored start.
    void recorderProbeWorkLinesUpWithOps() {
        QTemporaryDir dir;
        const auto path = dir.filePath(QStringLiteral("probe.mvprof")).toStdString();
        auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
        QVERIFY(w);
        RunInfo info;
        info.label = "probe work";
        auto run = (*w)->beginRun(info);
        QVERIFY(run);
        int64_t readBeforeOp = 0;
        std::vector<HostInterval> probeWork;
        int64_t origin = 0;
        {
            Recorder rec(**w, *run, true, false);
            {
                ProbeWork before(&rec); // before the origin: not the run's
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            rec.beginPhase(Phase::Vision);
            rec.startOps();
            auto x = torch::ones({8, 8}).matmul(torch::ones({8, 8}));
            {
                ProbeWork probe(&rec);
                std::this_thread::sleep_for(std::chrono::milliseconds(3));
            }
            readBeforeOp = HostClock::instance().nowNs();
            x = torch::tanh(x);
            rec.stopOps();
            rec.endPhase();
            probeWork = rec.probeWork();
            origin = rec.originHostNs();
        }
        QVERIFY((*w)->endRun(*run, RunResult{}));
        QVERIFY((*w)->close());

        QCOMPARE(probeWork.size(), size_t(1));
        QVERIFY(probeWork[0].endNs - probeWork[0].startNs >= 3'000'000);
        QVERIFY(probeWork[0].startNs >= origin);
        auto reader = SessionReader::open(path);
        QVERIFY(reader);
        auto ops = (*reader)->ops(*run);
        QVERIFY(ops);
        const auto tanh = std::find_if(ops->begin(), ops->end(),
                                       [](const OpRow& op) { return op.name == "aten::tanh"; });
        QVERIFY(tanh != ops->end());
        const int64_t mapped = sameClock(origin, probeWork).runNs(readBeforeOp);
        const int64_t lead = tanh->startNs - mapped;
        QVERIFY2(lead >= 0 && lead < 1'000'000, qPrintable(QString::number(lead)));
    }

    void withoutGpuATraceSaysWhy() {
        if (cuda::probeCudaDriver().available()) QSKIP("a GPU is here: the tracer can start");
        auto trace = GpuTrace::start();
        QVERIFY(!trace);
        QVERIFY(!trace.error().message.empty());

        QTemporaryDir dir;
        const auto path = dir.filePath(QStringLiteral("none.mvprof")).toStdString();
        auto w = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
        QVERIFY(w);
        auto run = (*w)->beginRun(RunInfo{});
        QVERIFY(run);
        Recorder rec(**w, *run, false, false);
        auto runTrace = RunGpuTrace::begin();
        runTrace.attach(rec);
        const Batch rows = runTrace.finish(rec);
        QVERIFY(rows.activities.empty());
        const auto* available = metric(rows.runMetrics, "gpu.trace_available");
        QVERIFY(available);
        QCOMPARE(available->value, 0.0);
        QVERIFY2(available->note.rfind("n/a: ", 0) == 0 && available->note.size() > 10,
                 available->note.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGpuTimeline)
#include "test_gpu_timeline.moc"
