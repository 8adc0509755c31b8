#include "core/compare/AbTimings.h"

#include <algorithm>
#include <map>

namespace mvp {

namespace {
struct Samples {
    std::vector<double> baseline, whatIf;
    bool control = false;
};

AbPhase summarise(std::optional<Phase> phase, const Samples& s) {
    AbPhase p;
    p.phase = phase;
    p.control = s.control;
    p.baseline = medianInterval(s.baseline);
    p.whatIf = medianInterval(s.whatIf);
    p.speedup = pairedRatioInterval(s.baseline, s.whatIf);
    return p;
}
} // namespace

std::optional<AbTimings> abTimings(const std::vector<RepetitionRow>& rows) {
    // rep → arm → phase → ns
    std::map<int, std::map<Arm, std::map<Phase, int64_t>>> byRep;
    std::map<Phase, bool> control;
    for (const auto& r : rows) {
        byRep[r.rep][r.arm][r.phase] += r.ns;
        control[r.phase] = control[r.phase] || r.control;
    }
    std::map<Phase, Samples> phases; // in pipeline order
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
    for (auto& [phase, s] : phases) {
        s.control = control[phase];
        t.phases.push_back(summarise(phase, s));
    }
    t.total = summarise(std::nullopt, total);
    for (const auto& p : t.phases)
        if (p.control && !p.withinNoise()) t.unsteady.push_back(*p.phase);
    return t;
}

} // namespace mvp
