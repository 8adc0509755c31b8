// Energy and GPU figures in the analysis, the report and what-if
// comparisons: RAPL and NVML energy per inference and per phase, the module
// tree's GPU time from CUDA events where a run has no GPU activity, and the
// roofline from the GPU's hardware counters (--hw-counters) — each worked by
// hand on synthetic runs.
#include "TestSupport.h"
#include "core/analysis/Analysis.h"
#include "core/compare/Comparison.h"
#include "core/report/ComparisonText.h"
#include "core/report/Report.h"

#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace mvp;

class TestAnalysisGpu : public QObject {
    Q_OBJECT
private slots:
    // A CUDA capture without a trace (--no-gpu-trace, CUPTI held elsewhere):
    // the module tree's device time is its spans' CUDA-event intervals, each
    // already holding its children's, so a parent is not their sum; with GPU
    // activity, the activity wins. Report text and JSON say which.
    void moduleDeviceTimeFromSpanEvents() {
        RunData d;
        d.run.id = 1;
        d.phases = {{Phase::Prefill, 0, 0, 10'000'000}};
        d.modules = {ModuleRow{1, "llm", "Llm", std::nullopt, 0},
                     ModuleRow{2, "llm.layer.0", "Layer", 1, 0}};
        SpanRow outer{1, 1, std::nullopt, Phase::Prefill, 0, 0, 4'000'000};
        outer.deviceNs = 3'000'000;
        SpanRow inner{2, 2, 1, Phase::Prefill, 0, 1'000'000, 2'000'000};
        inner.deviceNs = 1'200'000;
        SpanRow again{3, 2, 1, Phase::Prefill, 0, 2'000'000, 3'000'000};
        again.deviceNs = 800'000;
        d.spans = {outer, inner, again};
        const RunAnalysis a = analyseRun(d);
        QCOMPARE(a.modules.deviceTime, DeviceTimeSource::Events);
        QCOMPARE(a.modules.nodes[*a.modules.indexOf(1)].deviceNs,
                 std::optional<int64_t>(3'000'000));
        QCOMPARE(a.modules.nodes[*a.modules.indexOf(2)].deviceNs,
                 std::optional<int64_t>(2'000'000));
        SessionReport report;
        report.runs = {a};
        QVERIFY(formatText(report).find("between CUDA events") != std::string::npos);
        QCOMPARE(nlohmann::json::parse(formatJson(report))["runs"][0]["module_device_time"]
                     .get<std::string>(),
                 std::string("cuda_events"));
        // Without any span device time: no GPU column at all.
        for (auto& s : d.spans)
            s.deviceNs.reset();
        const RunAnalysis none = analyseRun(d);
        QCOMPARE(none.modules.deviceTime, DeviceTimeSource::None);
        QVERIFY(!none.modules.nodes[0].deviceNs);
    }

    // --hw-counters: a module with the GPU counters' FLOPs, DRAM bytes and
    // kernel time (hw.<path>.*) is plotted from them, by hand: AI 4 FLOP/B,
    // 4 GFLOP/s in 1 ms; a module without all three keeps its estimates; the
    // report's JSON names which is which.
    void rooflinePlotsCountedWork() {
        RunData d;
        d.run.id = 1;
        d.phases = {{Phase::Prefill, 0, 0, 10'000'000}};
        d.modules = {ModuleRow{1, "llm", "Llm", std::nullopt, 0},
                     ModuleRow{2, "vision", "Vit", std::nullopt, 0}};
        SpanRow llm{1, 1, std::nullopt, Phase::Prefill, 0, 0, 4'000'000};
        llm.flops = 8'000'000;
        llm.bytes = 1'000'000;
        SpanRow vision{2, 2, std::nullopt, Phase::Prefill, 0, 4'000'000, 6'000'000};
        vision.flops = 3'000'000;
        vision.bytes = 1'000'000;
        d.spans = {llm, vision};
        d.device = DeviceRow{"GPU: test", 100e9, 10e9, "measured", int64_t(1) << 30, 0};
        d.runMetrics = {{"hw.llm.flops", 4e6, "flop", "measured", "CUPTI"},
                        {"hw.llm.dram_bytes", 1e6, "bytes", "measured", "CUPTI"},
                        {"hw.llm.gpu_ns", 1e6, "ns", "measured", "CUPTI"},
                        {"hw.vision.flops", 9e6, "flop", "measured", "CUPTI"}}; // no bytes, no time
        const RunAnalysis a = analyseRun(d);
        QCOMPARE(a.moduleRoofline.size(), size_t(2));
        const RooflinePoint& counted =
            a.moduleRoofline[0].name == "llm" ? a.moduleRoofline[0] : a.moduleRoofline[1];
        const RooflinePoint& estimated =
            &counted == &a.moduleRoofline[0] ? a.moduleRoofline[1] : a.moduleRoofline[0];
        QVERIFY(counted.counted);
        QCOMPARE(counted.flops, int64_t(4'000'000));
        QVERIFY(qFuzzyCompare(counted.intensity, 4.0));
        QVERIFY(qFuzzyCompare(counted.achievedFlops, 4e9));
        QCOMPARE(counted.ns, int64_t(1'000'000));
        QVERIFY(!estimated.counted);
        QCOMPARE(estimated.name, std::string("vision"));
        QCOMPARE(estimated.flops, int64_t(3'000'000)); // the span's estimate, not hw's 9e6
        SessionReport report;
        report.runs = {a};
        const auto j = nlohmann::json::parse(formatJson(report))["runs"][0]["roofline"]["modules"];
        for (const auto& p : j) {
            const bool isLlm = p["name"] == "llm";
            QCOMPARE(p.contains("flops_measured"), isLlm);
            QCOMPARE(p.contains("dram_bytes_measured"), isLlm);
            QCOMPARE(p.contains("flops_estimated"), !isLlm);
        }
    }

    void energyInComparisonAndReport() {
        RunData a, b;
        a.run.id = 1;
        b.run.id = 2;
        b.run.transform = "w8";
        for (RunData* d : {&a, &b})
            d->phases = {{Phase::Vision, 0, 0, 10}, {Phase::Prefill, 0, 10, 50}};
        a.runMetrics = {{"energy.package_j", 3.0, "J", "measured", "RAPL"},
                        {"energy.vision.package_j", 1.0, "J", "measured", "RAPL"}};
        b.runMetrics = {{"energy.package_j", 1.5, "J", "measured", "RAPL"}};
        const Comparison c = compareRuns(a, b);
        QCOMPARE(c.baseEnergyJ, std::optional<double>(3.0));
        QCOMPARE(c.runEnergyJ, std::optional<double>(1.5));
        QVERIFY(c.details.empty()); // energy is not something the transform did
        QVERIFY(formatComparisonText(c).find("3 J vs 1.5 J") != std::string::npos);
        QCOMPARE(nlohmann::json::parse(
                     formatComparisonJson(c))["energy_j_per_inference_measured"]["counter"]
                     .get<std::string>(),
                 std::string("cpu_package"));
        const auto report = analyseRun(a);
        QCOMPARE(report.energyJ, std::optional<double>(3.0));
        QCOMPARE(report.energyByPhase.at(Phase::Vision), 1.0);
        // Without counters the comparison says why, from the run's own note.
        b.runMetrics = {{"energy.available", 0, "", "measured", "n/a (no counters here)"}};
        QCOMPARE(compareRuns(a, b).energy, std::string("n/a (no counters here)"));
        QVERIFY(!compareRuns(a, b).runEnergyJ);
    }

    // A CUDA run's GPU energy, beside the CPU's, in the analysis and the
    // report's text and JSON; a CPU run has none and says nothing of it.
    void gpuEnergyInReport() {
        RunData d;
        d.run.id = 1;
        d.phases = {{Phase::Vision, 0, 0, 10}, {Phase::Prefill, 0, 10, 50}};
        d.runMetrics = {{"energy.available", 0, "", "measured", "n/a (no counters here)"},
                        {"energy.gpu_j", 4.5, "J", "measured", "NVML"},
                        {"energy.prefill.gpu_j", 3.0, "J", "measured", "NVML"}};
        const auto a = analyseRun(d);
        QCOMPARE(a.gpuEnergyJ, std::optional<double>(4.5));
        QCOMPARE(a.gpuEnergyByPhase.at(Phase::Prefill), 3.0);
        QVERIFY(!a.gpuEnergyByPhase.count(Phase::Vision));
        SessionReport report;
        report.runs = {a};
        const auto j = nlohmann::json::parse(formatJson(report))["runs"][0];
        QCOMPARE(j["gpu_energy_j_per_inference_measured"].get<double>(), 4.5);
        QCOMPARE(j["phases"][1]["gpu_energy_j_measured"].get<double>(), 3.0);
        QVERIFY(j["phases"][0]["gpu_energy_j_measured"].is_null());
        QVERIFY(formatText(report).find("GPU energy 4.5 J per inference") != std::string::npos);

        // A what-if of a GPU run compares the GPU's energy, not the CPU's.
        RunData w = d;
        w.run.id = 2;
        w.run.transform = "w4";
        w.runMetrics = {{"energy.package_j", 9.0, "J", "measured", "RAPL"},
                        {"energy.gpu_j", 1.5, "J", "measured", "NVML"}};
        d.runMetrics.push_back({"energy.package_j", 8.0, "J", "measured", "RAPL"});
        const Comparison c = compareRuns(d, w);
        QCOMPARE(c.baseEnergyJ, std::optional<double>(4.5));
        QCOMPARE(c.runEnergyJ, std::optional<double>(1.5));
        QVERIFY(c.energy.find("NVML GPU counter") != std::string::npos);
        const auto cj = nlohmann::json::parse(formatComparisonJson(c));
        QCOMPARE(cj["energy_j_per_inference_measured"]["counter"].get<std::string>(),
                 std::string("gpu"));

        d.runMetrics = {{"energy.gpu_available", 0, "", "measured", "n/a (no NVML here)"}};
        const auto none = analyseRun(d);
        QVERIFY(!none.gpuEnergyJ);
        QCOMPARE(none.gpuEnergyNote, std::string("n/a (no NVML here)"));
        d.runMetrics.clear();
        report.runs = {analyseRun(d)};
        QVERIFY(formatText(report).find("GPU energy") == std::string::npos);
        QVERIFY(nlohmann::json::parse(
                    formatJson(report))["runs"][0]["gpu_energy_j_per_inference_measured"]
                    .is_null());
    }

    // A CUDA run's memory from libtorch's allocator: the report shows what
    // tensors held; a what-if compares each configuration's need — its
    // weights plus what its tensors grew by, not the raw peak, which in a
    // what-if's process holds its baseline's model too; the batch advisor
    // calibrates on the GPU's bytes and divides the GPU's room. By hand.
    void gpuMemoryFromTheAllocator() {
        constexpr double MiB = 1 << 20;
        auto gpuRun = [&](int64_t id, double weights, double start, double peak) {
            RunData d;
            d.run.id = id;
            d.run.peakRssBytes = 3000 * MiB; // the host's: neither weights nor KV on a GPU
            d.phases = {{Phase::Vision, 0, 0, 10}, {Phase::Prefill, 0, 10, 50}};
            d.grid = PatchGridRow{16, 16, 14, 224, 1};
            d.device = DeviceRow{"GPU: test (cuda:0)", 1e14, 3e12, "test", int64_t(80) << 30, 0};
            d.runMetrics = {
                {"weights.bytes", weights, "bytes", "measured", "tensors"},
                {"memory.rss_start_bytes", 2000 * MiB, "bytes", "measured", "rss"},
                {"gpu.memory_start_bytes", start, "bytes", "measured", "allocator"},
                {"gpu.peak_allocated_bytes", peak, "bytes", "measured", "allocator"},
                {"gpu.peak_reserved_bytes", peak + 64 * MiB, "bytes", "measured", "allocator"}};
            return d;
        };
        // Baseline: 1000 MiB of float16 weights, 1010 MiB held at the start, 1310 at the peak.
        const RunData base = gpuRun(1, 1000 * MiB, 1010 * MiB, 1310 * MiB);
        // W4 in the what-if's process: the baseline's model (1000) and its own
        // packed weights (280) held at the start; its tensors grew by 120.
        RunData w4 = gpuRun(2, 280 * MiB, 1290 * MiB, 1410 * MiB);
        w4.run.transform = "w4";
        const Comparison c = compareRuns(base, w4);
        QCOMPARE(c.basePeakGpuBytes, std::optional<double>(1300 * MiB)); // 1000 + 300
        QCOMPARE(c.runPeakGpuBytes, std::optional<double>(400 * MiB));   // 280 + 120
        for (const auto& m : c.details) // shown in the table, not as what the transform did
            QVERIFY2(m.name.rfind("gpu.", 0) != 0, m.name.c_str());
        QVERIFY(formatComparisonText(c).find("peak GPU memory: baseline 1300.00 MiB, what-if "
                                             "400.00 MiB (derived") != std::string::npos);
        const auto cj = nlohmann::json::parse(formatComparisonJson(c))["peak_gpu_bytes_derived"];
        QCOMPARE(cj["baseline"].get<double>(), 1300 * MiB);
        QCOMPARE(cj["whatif"].get<double>(), 400 * MiB);

        // The report: the allocator's own figures, measured.
        const RunAnalysis a = analyseRun(base);
        QCOMPARE(a.gpuPeakBytes, std::optional<double>(1310 * MiB));
        QCOMPARE(a.gpuStartBytes, std::optional<double>(1010 * MiB));
        SessionReport report;
        report.runs = {a};
        QVERIFY(formatText(report).find("GPU memory 1310.0 MiB peak held by tensors, 1010.0 MiB "
                                        "as the run began") != std::string::npos);
        const auto rj = nlohmann::json::parse(formatJson(report))["runs"][0];
        QCOMPARE(rj["gpu_peak_allocated_bytes_measured"].get<double>(), 1310 * MiB);
        // The advisor: k from the 300 MiB the tensors grew by (not the host's
        // 1000 MiB of RSS growth), M = 80 GiB less the 1010 MiB held at the start.
        QVERIFY2(a.batch.valid, a.batch.why.c_str());
        QVERIFY(a.batch.onGpu);
        const double k = 300 * MiB / (224.0 * 224 * 12); // no text tokens, no routing
        QVERIFY(std::abs(a.batch.scale - k) < 1e-9 * k);
        QCOMPARE(a.batch.freeBytes, (int64_t(80) << 30) - int64_t(1010 * MiB));
        QVERIFY(rj["batch_advice"].contains("free_gpu_bytes_derived"));
        QVERIFY(!rj["batch_advice"].contains("free_bytes_measured"));

        // Without the allocator's figures: the run's reason, no number.
        RunData old = base;
        old.runMetrics = {{"weights.bytes", 1000 * MiB, "bytes", "measured", "tensors"},
                          {"gpu.memory_available", 0, "", "measured", "n/a: no statistics here"}};
        const Comparison none = compareRuns(old, w4);
        QVERIFY(!none.basePeakGpuBytes && !none.runPeakGpuBytes);
        QCOMPARE(none.gpuMemory, std::string("n/a: no statistics here"));
        QCOMPARE(nlohmann::json::parse(formatComparisonJson(none))["peak_gpu_bytes_derived"]
                     .get<std::string>(),
                 none.gpuMemory);
        QCOMPARE(analyseRun(old).gpuMemoryNote, std::string("n/a: no statistics here"));
        // A run that predates the figures, beside one that has them.
        old.runMetrics.pop_back();
        QVERIFY(compareRuns(old, w4).gpuMemory.find("did not read") != std::string::npos);
        // CPU runs: nothing said of a GPU.
        RunData cpu = old;
        cpu.device = DeviceRow{"cpu", 1e11, 1e10, "test", int64_t(64) << 30, int64_t(8) << 30};
        QVERIFY(compareRuns(cpu, cpu).gpuMemory.empty());
        QVERIFY(!nlohmann::json::parse(formatComparisonJson(compareRuns(cpu, cpu)))
                     .contains("peak_gpu_bytes_derived"));
        QVERIFY(!analyseRun(cpu).batch.onGpu);
    }
};

QTEST_GUILESS_MAIN(TestAnalysisGpu)
#include "test_analysis_gpu.moc"
