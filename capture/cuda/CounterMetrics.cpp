// The roofline's metric list, the work counted from its values and the run
// metrics a replay's ranges become: plain C++, so that a build without the
// CUDA toolkit knows them too.
#include "capture/cuda/CounterMetrics.h"

#include "capture/cuda/CounterConfig.h"

namespace mvp::cuda {
namespace {
const std::string kSass = "sm__sass_thread_inst_executed_op_";
} // namespace

const std::vector<std::string>& rooflineMetrics() {
    static const std::vector<std::string> metrics = [] {
        std::vector<std::string> m = {"dram__bytes_read.sum", "dram__bytes_write.sum",
                                      "gpu__time_duration.sum"};
        for (const char* precision : {"f", "h", "d"})
            for (const char* op : {"fma", "add", "mul"})
                m.push_back(kSass + precision + op + "_pred_on.sum");
        for (const char* tensor : {"bf16_dst_fp32", "fp16", "tf32_dst_fp32"})
            m.push_back(std::string("sm__ops_path_tensor_src_") + tensor + ".sum");
        return m;
    }();
    return metrics;
}

CountedWork countedWork(const std::map<std::string, double>& values) {
    auto value = [&](const std::string& name) -> std::optional<double> {
        const auto it = values.find(name);
        return it == values.end() ? std::nullopt : std::optional<double>(it->second);
    };
    CountedWork out;
    std::optional<double> flops = 0.0;
    auto add = [&](const std::string& name, double weight) {
        const auto v = value(name);
        flops = flops && v ? std::optional<double>(*flops + weight * *v) : std::nullopt;
    };
    for (const char* precision : {"f", "h", "d"}) {
        add(kSass + precision + "fma_pred_on.sum", 2);
        add(kSass + precision + "add_pred_on.sum", 1);
        add(kSass + precision + "mul_pred_on.sum", 1);
    }
    for (const char* tensor : {"bf16_dst_fp32", "fp16", "tf32_dst_fp32"})
        add(std::string("sm__ops_path_tensor_src_") + tensor + ".sum", 1);
    out.flops = flops;
    const auto read = value("dram__bytes_read.sum"), written = value("dram__bytes_write.sum");
    if (read && written) out.dramBytes = *read + *written;
    if (const auto ns = value("gpu__time_duration.sum")) out.seconds = *ns * 1e-9;
    return out;
}

} // namespace mvp::cuda

namespace mvp::cuda {
namespace {
RunMetricRow measured(std::string name, double value, const char* unit, std::string note) {
    return RunMetricRow{std::move(name), value, unit, "measured", std::move(note)};
}
} // namespace

RunMetricRow countersUnavailable(const std::string& why) {
    return RunMetricRow{"hw.counters", 0, "", "measured", "n/a: " + why};
}

std::vector<RunMetricRow> counterRunMetrics(const std::vector<CounterRange>& ranges,
                                            const CounterReplays& how) {
    std::map<std::string, std::map<std::string, double>> byModule;
    for (const auto& r : ranges) {
        if (r.path.empty() || r.path.back().empty()) continue;
        for (const auto& [metric, value] : r.values)
            byModule[r.path.back()][metric] += value;
    }
    std::vector<RunMetricRow> out{measured(
        "hw.counters", double(how.passesRun), "count",
        "replays of the run under CUPTI's range profiler on " + how.chip + " (" +
            std::to_string(how.configPasses) + " per nesting level, levels 1-" +
            std::to_string(how.levels) + " of the module tree), " + std::to_string(ranges.size()) +
            " ranges, " + std::to_string(how.dropped) + " dropped")};
    const std::string sum = "CUPTI range profiler, summed over the module's calls";
    for (const auto& [path, values] : byModule) {
        const CountedWork w = countedWork(values);
        const std::string at = "hw." + path + ".";
        if (w.flops)
            out.push_back(measured(at + "flops", *w.flops, "flop",
                                   sum + ": 2 per fma, 1 per add or mul thread instruction, 1 "
                                         "per tensor-core op"));
        if (w.dramBytes)
            out.push_back(measured(at + "dram_bytes", *w.dramBytes, "bytes",
                                   sum + ": DRAM bytes read + written"));
        if (w.seconds)
            out.push_back(measured(at + "gpu_ns", *w.seconds * 1e9, "ns",
                                   sum + ": kernel time (gpu__time_duration)"));
    }
    return out;
}

} // namespace mvp::cuda
