// Device timing of a GPU capture's spans (cuda/EventTimer.h, Recorder::
// setDeviceTimer) against a fake libcuda whose device clock the test moves:
// each span's device_ns is the device time between its two events, read with
// one host wait per phase step in the events mode; the exact mode waits for
// the GPU at every span and recorded op probe; a driver that cannot be loaded
// or fails to record says why and leaves the spans without a device time.
// libtorch first: Qt's `slots` macro breaks its headers.
// clang-format off
#include "TestSupport.h"
#include <torch/torch.h>
// clang-format on

#include "capture/cuda/EventTimer.h"
#include "capture/probe/Recorder.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <QTemporaryDir>
#include <QTest>
#include <cstdlib>
#include <dlfcn.h>

using namespace mvp;
using cuda::DeviceTiming;
using cuda::EventTimer;

namespace {

// The fake driver's side for the test (the timer opens the same library, so
// both see one device).
struct FakeDevice {
    void* lib = dlopen(test::envPath("MVP_FAKE_CUDA").c_str(), RTLD_NOW | RTLD_LOCAL);
    void advance(long long ns) const { call<void (*)(long long)>("fake_cuda_advance")(ns); }
    int eventWaits() const { return call<int (*)()>("fake_cuda_event_waits")(); }
    int deviceWaits() const { return call<int (*)()>("fake_cuda_device_waits")(); }
    int liveEvents() const { return call<int (*)()>("fake_cuda_live_events")(); }
    template <typename F> F call(const char* name) const {
        return reinterpret_cast<F>(dlsym(lib, name));
    }
};

struct Recorded {
    std::vector<SpanRow> spans;
    std::vector<RunMetricRow> metrics;
    int64_t ops = 0;
};

// Phase vision: span A (5 µs of device work) holding span B (3 µs), then
// 1 µs more in A; phase decode: span C (2 µs). `work` runs inside B.
Recorded record(const QString& path, EventTimer* timer, const FakeDevice& gpu,
                const std::function<void()>& work = {}) {
    auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::Overwrite);
    if (!w) return {};
    auto run = (*w)->beginRun(RunInfo{});
    if (!run) return {};
    int64_t ops = 0;
    {
        Recorder rec(**w, *run, true);
        rec.setDeviceTimer(timer);
        rec.beginPhase(Phase::Vision);
        rec.startOps();
        rec.enterModule("a", "A", ModuleRole::None);
        gpu.advance(5000);
        rec.enterModule("a.b", "B", ModuleRole::None);
        if (work) work();
        gpu.advance(3000);
        rec.exit();
        gpu.advance(1000);
        rec.exit();
        gpu.advance(40000); // between the spans: in neither
        rec.beginPhase(Phase::Decode, 0);
        rec.enterModule("c", "C", ModuleRole::None);
        gpu.advance(2000);
        rec.exit();
        rec.stopOps();
        rec.endPhase();
        ops = rec.opsRecorded();
        Batch metrics;
        metrics.runMetrics = rec.runMetrics();
        rec.submit(std::move(metrics));
    }
    (void)(*w)->endRun(*run, RunResult{});
    (void)(*w)->close();
    auto reader = SessionReader::open(path.toStdString());
    if (!reader) return {};
    auto spans = (*reader)->spans(*run);
    auto metrics = (*reader)->runMetrics(*run);
    if (!spans || !metrics) return {};
    return {*spans, *metrics, ops};
}

std::optional<int64_t> deviceNsOf(const Recorded& r, int64_t module) {
    for (const auto& s : r.spans)
        if (s.module == module) return s.deviceNs;
    return std::nullopt;
}

const RunMetricRow* metric(const Recorded& r, const std::string& name) {
    for (const auto& m : r.metrics)
        if (m.name == name) return &m;
    return nullptr;
}

} // namespace

class TestDeviceTiming : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    FakeDevice gpu;

private slots:
    void init() { qunsetenv("FAKE_CUDA_MODE"); }

    void modeNamesRoundTrip() {
        for (auto t : {DeviceTiming::Off, DeviceTiming::Events, DeviceTiming::Exact})
            QVERIFY(cuda::parseDeviceTiming(cuda::deviceTimingName(t)) == std::optional(t));
        QVERIFY(!cuda::parseDeviceTiming("sync"));
    }

    void timerReadsEveryMarkAfterOneWait() {
        QVERIFY(gpu.lib);
        auto timer = EventTimer::open(DeviceTiming::Events, test::envPath("MVP_FAKE_CUDA").c_str());
        QVERIFY2(timer, timer ? "" : timer.error().message.c_str());
        const int waitsBefore = gpu.eventWaits();
        std::vector<int64_t> expected;
        int64_t clock = 0;
        for (int64_t step : {0, 700, 125000, 3, 2'000'000}) {
            gpu.advance(step);
            clock += step;
            expected.push_back(clock);
            (void)(*timer)->mark();
        }
        const auto times = (*timer)->resolve();
        QVERIFY2(times, times ? "" : times.error().message.c_str());
        QCOMPARE(gpu.eventWaits() - waitsBefore, 1);
        QCOMPARE((*timer)->waits(), int64_t(1));
        QCOMPARE(times->size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) // float milliseconds: within 2 ns
            QVERIFY2(std::abs((*times)[i] - (expected[i] - expected[0])) <= 2,
                     qPrintable(QString::number((*times)[i])));
        // The next batch reuses the events: none made, times from its own first mark.
        const int live = gpu.liveEvents();
        (void)(*timer)->mark();
        gpu.advance(900);
        (void)(*timer)->mark();
        const auto again = (*timer)->resolve();
        QVERIFY(again);
        QCOMPARE(gpu.liveEvents(), live);
        QCOMPARE(again->at(0), int64_t(0));
        QCOMPARE(again->at(1), int64_t(900));
        QVERIFY((*timer)->resolve()->empty()); // nothing marked: no wait
        QCOMPARE((*timer)->waits(), int64_t(2));
    }

    void spansGetTheirDeviceTimeOneWaitPerStep() {
        auto timer = EventTimer::open(DeviceTiming::Events, test::envPath("MVP_FAKE_CUDA").c_str());
        QVERIFY(timer);
        const int eventWaits = gpu.eventWaits(), deviceWaits = gpu.deviceWaits();
        const auto r = record(dir.filePath(QStringLiteral("events.mvprof")), timer->get(), gpu);
        QCOMPARE(r.spans.size(), size_t(3));
        QCOMPARE(deviceNsOf(r, 1), std::optional<int64_t>(9000)); // a: 5 + 3 + 1 µs
        QCOMPARE(deviceNsOf(r, 2), std::optional<int64_t>(3000)); // a.b
        QCOMPARE(deviceNsOf(r, 3), std::optional<int64_t>(2000)); // c, the decode step's
        // One wait per phase step that had spans, none per probe.
        QCOMPARE(gpu.eventWaits() - eventWaits, 2);
        QCOMPARE(gpu.deviceWaits() - deviceWaits, 0);
        const RunMetricRow* timing = metric(r, "gpu.device_timing");
        QVERIFY(timing);
        QCOMPARE(timing->value, 1.0);
        QVERIFY(QString::fromStdString(timing->note).startsWith(QStringLiteral("events")));
        QCOMPARE(metric(r, "gpu.device_timed_spans")->value, 3.0);
        QCOMPARE(metric(r, "gpu.device_timing_waits")->value, 2.0);
    }

    void exactModeWaitsAtEverySpanAndOp() {
        auto timer = EventTimer::open(DeviceTiming::Exact, test::envPath("MVP_FAKE_CUDA").c_str());
        QVERIFY(timer);
        const int deviceWaits = gpu.deviceWaits();
        const auto x = torch::ones({4, 8});
        const auto r = record(dir.filePath(QStringLiteral("exact.mvprof")), timer->get(), gpu, [&] {
            (void)torch::relu(x.matmul(torch::ones({8, 8})));
        });
        QVERIFY(r.ops >= 2); // the matmul and the relu (ones too)
        // Before and after each of 3 spans and each recorded op.
        QCOMPARE(gpu.deviceWaits() - deviceWaits, int(2 * 3 + 2 * r.ops));
        QCOMPARE(deviceNsOf(r, 2), std::optional<int64_t>(3000));
        QCOMPARE(metric(r, "gpu.device_timing")->value, 2.0);
        QVERIFY(QString::fromStdString(metric(r, "gpu.device_timing")->note)
                    .startsWith(QStringLiteral("exact")));
    }

    void withoutATimerSpansHaveNoDeviceTime() {
        const auto r = record(dir.filePath(QStringLiteral("none.mvprof")), nullptr, gpu);
        QCOMPARE(r.spans.size(), size_t(3));
        for (const auto& s : r.spans)
            QVERIFY(!s.deviceNs);
        QVERIFY(!metric(r, "gpu.device_timing"));
    }

    void failedRecordsLeaveSpansUntimedAndSayWhy() {
        qputenv("FAKE_CUDA_MODE", "record-fails");
        auto timer = EventTimer::open(DeviceTiming::Events, test::envPath("MVP_FAKE_CUDA").c_str());
        QVERIFY(timer);
        const auto r = record(dir.filePath(QStringLiteral("fails.mvprof")), timer->get(), gpu);
        QCOMPARE(r.spans.size(), size_t(3)); // nothing lost
        for (const auto& s : r.spans)
            QVERIFY(!s.deviceNs);
        const QString note = QString::fromStdString(metric(r, "gpu.device_timing")->note);
        QVERIFY2(note.contains(QStringLiteral("cuEventRecord returned CUDA error 719")),
                 qPrintable(note));
        QCOMPARE(metric(r, "gpu.device_timed_spans")->value, 0.0);
    }

    // No event could be made (the GPU's memory full): every mark of the
    // batch goes without one, resolve says why, and the next batch makes
    // its events again.
    void eventsThatCannotBeMadeAreReported() {
        qputenv("FAKE_CUDA_MODE", "create-fails");
        auto timer = EventTimer::open(DeviceTiming::Events, test::envPath("MVP_FAKE_CUDA").c_str());
        QVERIFY(timer);
        for (int i = 0; i < 3; ++i)
            (void)(*timer)->mark();
        const auto failed = (*timer)->resolve();
        QVERIFY(!failed);
        QVERIFY2(QString::fromStdString(failed.error().message)
                     .contains(QStringLiteral("cuEventCreate returned CUDA error 2")),
                 failed.error().message.c_str());
        qunsetenv("FAKE_CUDA_MODE");
        (void)(*timer)->mark();
        gpu.advance(500);
        (void)(*timer)->mark();
        const auto times = (*timer)->resolve();
        QVERIFY2(times, times ? "" : times.error().message.c_str());
        QCOMPARE(times->at(1), int64_t(500));
    }

    void noDriverOrNoEventApiSaysWhy() {
        auto missing = EventTimer::open(DeviceTiming::Events, "/nonexistent/libcuda.so.1");
        QVERIFY(!missing);
        QVERIFY(QString::fromStdString(missing.error().message)
                    .contains(QStringLiteral("/nonexistent/libcuda.so.1 cannot be loaded")));
        // A library that is no CUDA driver (zlib has none of its symbols).
        auto foreign = EventTimer::open(DeviceTiming::Events, "libz.so.1");
        QVERIFY(!foreign);
        QVERIFY2(QString::fromStdString(foreign.error().message)
                     .contains(QStringLiteral("lacks the CUDA event API")),
                 foreign.error().message.c_str());
        QVERIFY(!EventTimer::open(DeviceTiming::Off, test::envPath("MVP_FAKE_CUDA").c_str()));
    }
};

QTEST_GUILESS_MAIN(TestDeviceTiming)
#include "test_device_timing.moc"
