#include "core/analysis/AbTimings.h"

#include <algorithm>
#include <map>

namespace mvp {

namespace {
// The reference pipeline's order; other phases (a Python script's own) follow by name.
int pipelineRank(const std::string& phase) {
    static const char* kOrder[] = {"preprocess", "vision", "projector", "prefill", "decode"};
    for (int i = 0; i < 5; ++i)
        if (phase == kOrder[i]) return i;
    return 5;
}

struct Samples {
    std::vector<double> baseline, whatIf;
    bool control = false;
};

AbPhase summarise(const std::string& name, const Samples& s) {
    AbPhase p;
    p.phase = name;
    p.control = s.control;
    p.baseline = medianInterval(s.baseline);
    p.whatIf = medianInterval(s.whatIf);
    p.speedup = pairedRatioInterval(s.baseline, s.whatIf);
    return p;
}
} // namespace

std::optional<AbTimings> abTimings(const std::vector<RepetitionRow>& rows) {
    // rep → arm → phase → ns
    std::map<int, std::map<Arm, std::map<std::string, int64_t>>> byRep;
    std::map<std::string, bool> control;
    for (const auto& r : rows) {
        byRep[r.rep][r.arm][r.phase] += r.ns;
        control[r.phase] = control[r.phase] || r.control;
    }
    std::map<std::string, Samples> phases;
    Samples total;
    int reps = 0;
    for (const auto& [rep, arms] : byRep) {
        const auto a = arms.find(Arm::Baseline), b = arms.find(Arm::WhatIf);
        if (a == arms.end() || b == arms.end()) continue; // a pair cut short
        ++reps;
        int64_t sumA = 0, sumB = 0;
        for (const auto& [phase, ns] : a->second) {
            const auto other = b->second.find(phase);
            sumA += ns;
            if (other == b->second.end()) continue;
            auto& s = phases[phase];
            s.baseline.push_back(double(ns));
            s.whatIf.push_back(double(other->second));
        }
        for (const auto& [phase, ns] : b->second)
            sumB += ns;
        total.baseline.push_back(double(sumA));
        total.whatIf.push_back(double(sumB));
    }
    if (reps == 0) return std::nullopt;
    AbTimings t;
    t.reps = reps;
    for (auto& [name, s] : phases) {
        s.control = control[name];
        t.phases.push_back(summarise(name, s));
    }
    std::stable_sort(t.phases.begin(), t.phases.end(), [](const AbPhase& x, const AbPhase& y) {
        return pipelineRank(x.phase) < pipelineRank(y.phase);
    });
    t.total = summarise("total", total);
    for (const auto& p : t.phases)
        if (p.control && !p.withinNoise()) t.unsteady.push_back(p.phase);
    return t;
}

} // namespace mvp
