#include "core/session/Records.h"

#include <cstdio>
#include <ctime>

namespace mvp {

// The capture writes one record per op: its size is its cost (Records.h).
static_assert(sizeof(OpRecord) <= 192);

std::string isoUtc(int64_t unixNs) {
    const std::time_t secs = std::time_t(unixNs / 1000000000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

const char* toString(RunStatus s) {
    switch (s) {
    case RunStatus::Live:
        return "live";
    case RunStatus::Complete:
        return "complete";
    case RunStatus::Incomplete:
        return "incomplete";
    case RunStatus::Failed:
        return "failed";
    }
    return "failed";
}

std::optional<RunStatus> runStatusFromString(const std::string& s) {
    for (auto v : {RunStatus::Live, RunStatus::Complete, RunStatus::Incomplete, RunStatus::Failed})
        if (s == toString(v)) return v;
    return std::nullopt;
}

const char* toString(Arm a) {
    return a == Arm::Baseline ? "baseline" : "whatif";
}

std::optional<Arm> armFromString(const std::string& s) {
    for (auto v : {Arm::Baseline, Arm::WhatIf})
        if (s == toString(v)) return v;
    return std::nullopt;
}

const char* toString(ActivityKind k) {
    switch (k) {
    case ActivityKind::Kernel:
        return "kernel";
    case ActivityKind::Memcpy:
        return "memcpy";
    case ActivityKind::Memset:
        return "memset";
    case ActivityKind::Runtime:
        return "runtime";
    case ActivityKind::Driver:
        return "driver";
    }
    return "kernel";
}

std::optional<ActivityKind> activityKindFromString(const std::string& s) {
    for (auto v : {ActivityKind::Kernel, ActivityKind::Memcpy, ActivityKind::Memset,
                   ActivityKind::Runtime, ActivityKind::Driver})
        if (s == toString(v)) return v;
    return std::nullopt;
}

void OpRecord::appendShapes(std::string& s) const {
    if (!overflow.empty()) {
        s += overflow;
        return;
    }
    int total = 0;
    for (int t = 0; t < tensors && t < kMaxTensors; ++t)
        total += rank[t];
    if (tensors > kMaxTensors || total > kMaxDims) {
        s += "[]"; // claims more than it holds: no shapes to trust
        return;
    }
    s += '[';
    int at = 0;
    char digits[24];
    for (int t = 0; t < tensors; ++t) {
        s += t ? ",[" : "[";
        for (int d = 0; d < rank[t]; ++d) {
            if (d) s += ',';
            const int n =
                std::snprintf(digits, sizeof digits, "%lld", static_cast<long long>(dims[at++]));
            s.append(digits, size_t(n));
        }
        s += ']';
    }
    s += ']';
}

size_t Batch::rowCount() const {
    return modules.size() + phases.size() + spans.size() + ops.size() + opRecords.size() +
           tokens.size() + routing.size() + patchMetrics.size() + attnMaps.size() +
           (image ? 1 : 0) + (patchGrid ? 1 : 0) + (device ? 1 : 0) + stepOutputs.size() +
           (visionFeatures ? 1 : 0) + runMetrics.size() + leafFlops.size() + repetitions.size() +
           activities.size() + (evalSet ? 1 : 0) + evalItems.size();
}

int64_t EvalItemRow::totalNs() const {
    int64_t ns = 0;
    for (const auto& t : times)
        ns += t.ns;
    return ns;
}

} // namespace mvp
