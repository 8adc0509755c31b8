// The roofline's metric list and the work counted from its values: plain
// C++, so that a build without the CUDA toolkit knows them too.
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
