#include "capture/cuda/InjectedRun.h"

#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

namespace mvp::cuda {
namespace {

namespace fs = std::filesystem;

RunInfo runInfoFor(const InjectedProcess& process, int64_t originNs, int devices) {
    RunInfo info;
    info.label = "cuda-inject";
    const std::string exe = process.command.empty()
                                ? std::string("(unknown program)")
                                : fs::path(process.command[0]).filename().string();
    info.model = "process:" + exe;
    nlohmann::json config{{"format", "cuda-injection"},
                          {"command", process.command},
                          {"pid", process.pid},
                          {"gpus", devices}};
    info.configJson = config.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    info.device = "cuda";
    info.probes = true;
    info.writerPid = process.pid;
    info.writerHost = hostName();
    if (originNs > 0) info.startedUtc = isoUtc(originNs);
    return info;
}

std::vector<RunMetricRow> metricsFor(const TracedActivities& t, int64_t gpuWork) {
    return {
        {"cupti.dropped", double(t.dropped), "count", "measured",
         "activity records CUPTI could not store (its buffers were full): the trace misses them"},
        {"cupti.buffers", double(t.buffers), "count", "measured", "activity buffers read"},
        {"gpu.work", double(gpuWork), "count", "measured", "kernels, copies and fills recorded"},
        {"energy.available", 0, "", "measured",
         "n/a: the CUDA injection records GPU activity only"},
    };
}

Result<int64_t> write(const std::string& path, TracedActivities& traced,
                      const InjectedProcess& process) {
    auto& rows = traced.parsed.rows;
    int64_t origin = 0, end = 0, gpuWork = 0;
    std::set<int> devices;
    for (size_t i = 0; i < rows.size(); ++i) {
        origin = i ? std::min(origin, rows[i].startNs) : rows[i].startNs;
        end = i ? std::max(end, rows[i].endNs) : rows[i].endNs;
        if (onDevice(rows[i].kind)) {
            ++gpuWork;
            devices.insert(rows[i].device);
        }
    }
    auto writer = SessionWriter::open(path, SessionWriter::Mode::Overwrite);
    if (!writer) return writer.error();
    auto run = (*writer)->beginRun(runInfoFor(process, origin, int(devices.size())));
    if (!run) return run.error();
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    Batch batch;
    batch.run = *run;
    for (size_t i = 0; i < rows.size(); ++i) {
        rows[i].id = int64_t(i + 1);
        rows[i].startNs -= origin;
        rows[i].endNs -= origin;
    }
    batch.activities = std::move(rows);
    batch.runMetrics = metricsFor(traced, gpuWork);
    (*writer)->submit(std::move(batch));
    RunResult result;
    result.wallNs = end - origin;
    if (auto s = (*writer)->endRun(*run, result); !s) return s.error();
    if (auto s = (*writer)->close(); !s) return s.error();
    return *run;
}

} // namespace

std::string injectedSessionPath(const std::string& pattern, int64_t pid) {
    const std::string id = std::to_string(pid);
    if (const auto at = pattern.find("%p"); at != std::string::npos)
        return pattern.substr(0, at) + id + pattern.substr(at + 2);
    const std::string ext = ".mvprof";
    if (pattern.size() > ext.size() &&
        pattern.compare(pattern.size() - ext.size(), ext.size(), ext) == 0)
        return pattern.substr(0, pattern.size() - ext.size()) + "." + id + ext;
    return pattern + "." + id;
}

Result<int64_t> writeInjectedRun(const std::string& path, TracedActivities traced,
                                 const InjectedProcess& process) {
    if (auto s = SessionWriter::checkTarget(path, SessionWriter::Mode::CreateNew); !s)
        return s.error();
    const std::string partial = path + ".partial";
    removeSessionFiles(partial);
    auto run = write(partial, traced, process);
    std::error_code ec;
    if (run) fs::rename(partial, path, ec);
    if (!run || ec) {
        removeSessionFiles(partial);
        if (run) return makeError(ErrorCode::Io, "cannot rename " + partial + ": " + ec.message());
    }
    return run;
}

} // namespace mvp::cuda
