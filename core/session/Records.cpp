#include "core/session/Records.h"

#include <cstdio>

namespace mvp {

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

std::string OpRecord::shapesText() const {
    std::string s;
    appendShapes(s);
    return s;
}

void OpRecord::appendShapes(std::string& s) const {
    if (!overflow.empty()) {
        s += overflow;
        return;
    }
    s += '[';
    int at = 0;
    char digits[24];
    for (int t = 0; t < tensors; ++t) {
        s += t ? ",[" : "[";
        for (int d = 0; d < rank[t]; ++d) {
            if (d) s += ',';
            const int n = std::snprintf(digits, sizeof digits, "%lld", static_cast<long long>(dims[at++]));
            s.append(digits, size_t(n));
        }
        s += ']';
    }
    s += ']';
}

OpRow OpRecord::toRow() const {
    OpRow r;
    r.id = id;
    if (span) r.span = span;
    if (parentOp) r.parentOp = parentOp;
    r.name = name ? *name : std::string();
    r.phase = phase ? *phase : std::string();
    r.step = step;
    r.startNs = startNs;
    r.endNs = endNs;
    r.shapes = shapesText();
    r.dtype = dtype ? dtype : "";
    r.flops = flops;
    r.bytes = bytes;
    r.flopsKnown = flopsKnown;
    return r;
}

size_t Batch::rowCount() const {
    return modules.size() + phases.size() + spans.size() + ops.size() + opRecords.size() +
           tokens.size() +
           routing.size() + patchMetrics.size() + attnMaps.size() + (image ? 1 : 0) +
           (patchGrid ? 1 : 0) + (device ? 1 : 0) + stepOutputs.size() + (visionFeatures ? 1 : 0) +
           runMetrics.size() + leafFlops.size() + repetitions.size();
}

} // namespace mvp
