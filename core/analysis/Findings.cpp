#include "core/analysis/Findings.h"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace mvp {

namespace {

std::string num(double v, int digits = 2) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string list(const std::vector<int>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? (i + 1 == v.size() ? " and " : ", ") : "") + std::to_string(v[i]);
    return s;
}

// How much a finding matters is how much of the run it concerns: under 5 %
// it is Info whatever its own measure says (it cannot cost much), from 25 %
// at least a Warning. Where the share is unknown, its own grade stands.
Severity gradedByShare(Severity own, std::optional<double> share) {
    if (!share) return own;
    if (*share < 0.05) return Severity::Info;
    if (*share >= 0.25) return std::max(own, Severity::Warning);
    return own;
}

// The share of the run a decoder layer's MoE block took (its spans, or its
// router's and experts' where the block has none); unknown without them.
std::optional<double> moeLayerShare(const RunAnalysis& a, int layer) {
    if (a.phases.wallNs <= 0) return std::nullopt;
    int64_t ns = 0;
    bool any = false;
    for (const auto& g : a.gateExpert)
        if (g.layer == layer) {
            ns += g.layerNs > 0 ? g.layerNs : g.gateNs + g.expertNs;
            any = true;
        }
    return any ? std::optional(double(ns) / double(a.phases.wallNs)) : std::nullopt;
}

// Whether a module sits inside one with `role` (its parents, not itself).
bool inside(const ModuleCostTree& tree, const ModuleCost& m, ModuleRole role) {
    for (auto parent = m.module.parent; parent;) {
        const auto i = tree.indexOf(*parent);
        if (!i) return false;
        const ModuleRow& p = tree.nodes[*i].module;
        if (p.role == role) return true;
        parent = p.parent;
    }
    return false;
}

// The share of the run a decoder layer's attention took: its attention
// modules' spans, outermost only (a nested one is inside its parent's
// time), none of the vision encoder's; unknown without them.
std::optional<double> attentionLayerShare(const RunAnalysis& a, int layer) {
    if (a.phases.wallNs <= 0) return std::nullopt;
    int64_t ns = 0;
    bool any = false;
    for (const auto& m : a.modules.nodes) {
        if (m.module.role != ModuleRole::Attention || m.module.layer != layer || m.calls == 0 ||
            inside(a.modules, m, ModuleRole::Attention) || inside(a.modules, m, ModuleRole::Vision))
            continue;
        ns += m.totalNs;
        any = true;
    }
    return any ? std::optional(double(ns) / double(a.phases.wallNs)) : std::nullopt;
}

// The layer's share (of its MoE block, or its attention: `part`), said in a
// finding's detail and evidence.
void addLayerShare(Finding& f, std::optional<double> share, const std::string& part = "MoE block") {
    if (!share) return;
    f.detail += " The layer's " + part + " takes " + num(100 * *share, 1) + " % of the run.";
    f.evidence.push_back({"run_share", *share, Provenance::Measured});
}

// An expert Δ > 1.8 above its layer's mean, with where its traffic could go.
void overloadFindings(const LayerMoeReport& l, std::optional<double> share,
                      std::vector<Finding>& out) {
    const std::string L = std::to_string(l.layer);
    for (const auto& e : l.experts) {
        if (e.state != ExpertState::Overloaded) continue;
        Finding f;
        f.id = "moe.overloaded.L" + L + ".E" + std::to_string(e.id);
        f.severity = gradedByShare(Severity::Warning, share);
        f.title = "Layer " + L + ": expert " + std::to_string(e.id) +
                  " overloaded (Δ = " + num(e.z) + ", " + std::to_string(e.tokens) + " of " +
                  std::to_string(l.total.tokens) + " routing slots)";
        f.detail = "Its load is " + num(e.z) + " standard deviations above the layer mean of " +
                   num(l.total.mean, 1) + " over " + std::to_string(l.tokenCount) +
                   " tokens; it sets the layer's latency under expert parallelism.";
        f.suggestion = e.receivers.empty()
                           ? "Cap it at ~" + std::to_string(e.targetTokens) +
                                 " slots (move ~30 %), e.g. with a capacity factor or an "
                                 "auxiliary balance loss; no expert has Δ < −1.0 to receive "
                                 "the traffic, so consider replicating it."
                           : "Move ~30 % of its traffic (target " + std::to_string(e.targetTokens) +
                                 " slots) to experts " + list(e.receivers) +
                                 ", which are underloaded (Δ < −1.0).";
        f.evidence = {{"z", e.z, Provenance::Measured},
                      {"tokens", double(e.tokens), Provenance::Measured},
                      {"layer_slots", double(l.total.tokens), Provenance::Measured},
                      {"target_tokens", double(e.targetTokens), Provenance::Predicted}};
        addLayerShare(f, share);
        f.target = {FindingView::Moe, l.layer, e.id, {}, {}, {}};
        out.push_back(f);
    }
}

// Uneven expert load, graded by CV, naming the busiest expert against its
// fair share (1/E of the slots). With few experts a Z-score cannot pass the
// overload threshold — at most (E − 1)/√E, 1.5 for four — so the share says
// what the Z-score cannot.
void imbalanceFinding(const LayerMoeReport& l, std::optional<double> share,
                      std::vector<Finding>& out) {
    const BalanceStats& t = l.total;
    if (t.cv <= 0.5 || t.experts < 2 || t.tokens == 0) return;
    const std::string L = std::to_string(l.layer);
    const auto top = std::max_element(t.load.begin(), t.load.end());
    const int busiest = int(top - t.load.begin());
    const double topShare = double(*top) / double(t.tokens), fair = 1.0 / t.experts;
    const int64_t least = *std::min_element(t.load.begin(), t.load.end());
    Finding f;
    f.id = "moe.imbalance.L" + L;
    f.severity = gradedByShare(t.cv > 1.0 ? Severity::Warning : Severity::Info, share);
    f.title = "Layer " + L + ": " + (t.cv > 1.0 ? "severe " : "") +
              "expert imbalance (CV = " + num(t.cv) + "): expert " + std::to_string(busiest) +
              " takes " + num(100 * topShare, 0) + " % of the routing slots (fair share " +
              num(100 * fair, 0) + " %)";
    f.detail = "Expert " + std::to_string(busiest) + " took " + std::to_string(*top) + " of " +
               std::to_string(t.tokens) + " slots, the least used " + std::to_string(least) +
               "; balancedness " + num(t.balancedness) + ", Jain " + num(t.jain) + ", MaxVio " +
               num(t.maxvio) + "; " + num(100 * l.hotTop1Share, 0) +
               " % of tokens pick a hot expert first.";
    f.suggestion = "Under expert parallelism the busiest expert sets the layer's latency: "
                   "rebalance the router (auxiliary loss or capacity factor) or replicate expert " +
                   std::to_string(busiest) + " (EPLB) before scaling out.";
    f.evidence = {{"cv", t.cv, Provenance::Measured},
                  {"top_share", topShare, Provenance::Measured},
                  {"fair_share", fair, Provenance::Derived},
                  {"top_tokens", double(*top), Provenance::Measured},
                  {"least_tokens", double(least), Provenance::Measured},
                  {"balancedness", t.balancedness, Provenance::Measured},
                  {"jain", t.jain, Provenance::Measured},
                  {"maxvio", t.maxvio, Provenance::Measured}};
    addLayerShare(f, share);
    f.target = {FindingView::Moe, l.layer, busiest, {}, {}, {}};
    out.push_back(f);
}

void idleFinding(const LayerMoeReport& l, std::vector<Finding>& out) {
    const std::string L = std::to_string(l.layer);
    std::vector<int> idle;
    for (const auto& e : l.experts)
        if (e.state == ExpertState::Dead || e.state == ExpertState::Cold) idle.push_back(e.id);
    if (!idle.empty()) {
        Finding f;
        f.id = "moe.cold.L" + L;
        f.severity = Severity::Info;
        f.title = "Layer " + L +
                  (idle.size() == 1 ? ": expert " + list(idle) + " is"
                                    : ": experts " + list(idle) + " are") +
                  " cold or unused";
        f.detail = "Fewer than 3 activations in two consecutive 128-token windows, or none at all.";
        f.suggestion = "Candidates for freezing (offload their weights); their tokens would go "
                       "to the next-best expert.";
        f.evidence = {{"cold_experts", double(idle.size()), Provenance::Measured}};
        f.target = {FindingView::Moe, l.layer, {}, {}, {}, {}};
        out.push_back(f);
    }
}

// Routing cost against the experts it feeds, over the whole run.
void gateFinding(const RunAnalysis& a, std::vector<Finding>& out) {
    int64_t gate = 0, experts = 0;
    for (const auto& g : a.gateExpert) {
        gate += g.gateNs;
        experts += g.expertNs;
    }
    if (experts > 0 && double(gate) / double(experts) > 0.25) {
        Finding f;
        f.id = "moe.gate_overhead";
        f.severity = Severity::Info;
        f.title =
            "Routing costs " + num(100.0 * double(gate) / double(experts), 0) + " % of expert time";
        f.detail = "Gate " + num(double(gate) / 1e6) + " ms vs experts " +
                   num(double(experts) / 1e6) + " ms (measured).";
        f.suggestion =
            "Fuse the router's linear, softmax and top-k, or batch more tokens per routing call.";
        f.evidence = {{"gate_ms", double(gate) / 1e6, Provenance::Measured},
                      {"expert_ms", double(experts) / 1e6, Provenance::Measured}};
        f.target.view = FindingView::Timeline;
        out.push_back(f);
    }
}

void moeFindings(const RunAnalysis& a, std::vector<Finding>& out) {
    for (const auto& l : a.moe) {
        const auto share = moeLayerShare(a, l.layer);
        overloadFindings(l, share, out);
        imbalanceFinding(l, share, out);
        idleFinding(l, out);
    }
    gateFinding(a, out);
}

void rooflineFindings(const RunAnalysis& a, std::vector<Finding>& out) {
    if (!a.host) return;
    for (const auto& p : a.moduleRoofline) {
        if (p.bound != Bound::Memory || p.name.find('.') != std::string::npos)
            continue; // top-level modules only
        if (a.modules.wallNs > 0 && double(p.ns) / double(a.modules.wallNs) < 0.1)
            continue; // not worth it
        Finding f;
        f.id = "roofline.memory_bound." + p.name;
        f.severity = Severity::Info;
        f.title = "Module " + p.name + " is memory-bound (AI " + num(p.intensity, 1) +
                  " FLOP/B vs ridge " + num(a.host->ridge(), 1) + ")";
        f.detail = "It reaches " + num(p.achievedFlops / 1e9, 1) + " GFLOP/s of an attainable " +
                   num(p.attainableFlops / 1e9, 1) + " GFLOP/s on " + a.host->name + "; mismatch " +
                   num(p.mismatch) + ".";
        f.suggestion = "Cut bytes moved: fuse elementwise ops, quantise weights, or batch more "
                       "tokens per weight read.";
        f.evidence = {
            {"intensity", p.intensity, p.counted ? Provenance::Measured : Provenance::Estimated},
            {"ridge", a.host->ridge(), Provenance::Measured},
            {"achieved_flops", p.achievedFlops, Provenance::Measured},
            {"attainable_flops", p.attainableFlops, Provenance::Predicted}};
        f.target = {FindingView::Roofline, {}, {}, p.name, {}, {}};
        out.push_back(f);
    }
}

void patchFindings(const RunAnalysis& a, std::vector<Finding>& out) {
    const auto it = a.heatmaps.find("attention");
    if (it == a.heatmaps.end() || it->second.values.empty()) return;
    double total = 0;
    for (double v : it->second.values)
        total += v;
    if (total <= 0) return;
    int low = 0;
    for (double v : it->second.values)
        low += v / total < 0.001;
    const double share = double(low) / double(it->second.values.size());
    if (share < 0.2) return;
    Finding f;
    f.id = "patches.low_attention";
    f.severity = Severity::Info;
    f.title = num(100 * share, 0) +
              " % of visual patches receive < 0.1 % attention each: pruning candidates";
    f.detail = std::to_string(low) + " of " + std::to_string(it->second.values.size()) +
               " patches, attention from the text tokens summed over layers.";
    f.suggestion = "Try the visual-token pruning what-if with keep ≈ " +
                   num(std::max(0.1, 1.0 - share), 1) + ".";
    f.evidence = {{"low_share", share, Provenance::Measured},
                  {"patches", double(it->second.values.size()), Provenance::Measured}};
    f.target = {FindingView::Heatmap, {}, {}, {}, "attention", {}};
    out.push_back(f);
}

void headFindings(const RunAnalysis& a, std::vector<Finding>& out) {
    for (const auto& h : a.heads) {
        if (!h.valid || h.redundancy >= 0.2) continue;
        Finding f;
        f.id = "heads.redundant.L" + std::to_string(h.layer);
        const auto share = attentionLayerShare(a, h.layer);
        // Sharing heads saves at most the layer's attention time.
        f.severity = gradedByShare(Severity::Info, share);
        f.title = "Layer " + std::to_string(h.layer) +
                  ": attention heads largely duplicate each other (redundancy " +
                  num(h.redundancy) + ")";
        f.detail = "Mean pairwise cosine " + num(1 - h.redundancy) + " over " +
                   std::to_string(h.heads) + " heads.";
        f.suggestion = "Candidates for head pruning or grouped-query sharing.";
        f.evidence = {{"redundancy", h.redundancy, Provenance::Measured}};
        addLayerShare(f, share, "attention");
        f.target = {FindingView::Heads, h.layer, {}, {}, {}, {}};
        out.push_back(f);
    }
}

// Work around the model — preprocessing, host-to-device copies, the
// projector — taking more than a tenth of the run: it is not the model's
// cost, and usually cheap to move off the critical path. Graded by the share.
void outsizedPhaseFindings(const RunAnalysis& a, std::vector<Finding>& out) {
    for (const auto& p : a.phases.phases) {
        if (p.share <= 0.1 ||
            (p.phase != Phase::Preprocess && p.phase != Phase::H2d && p.phase != Phase::Projector))
            continue;
        Finding f;
        f.id = "phase.outsized." + phaseName(p.phase);
        f.severity = p.share > 0.25 ? Severity::Warning : Severity::Info;
        f.title =
            "The " + phaseName(p.phase) + " phase takes " + num(100 * p.share, 0) + " % of the run";
        f.detail = num(double(p.totalNs) / 1e6) + " ms of " + num(double(a.phases.wallNs) / 1e6) +
                   " ms (measured), outside the model's layers.";
        f.suggestion =
            p.phase == Phase::Preprocess
                ? "Decode and resize images in a worker or on the GPU, and cache decoded images "
                  "that repeat."
            : p.phase == Phase::H2d ? "Pin the host memory and copy asynchronously, or keep the "
                                      "inputs on the device."
                                    : "Look at the projector in the module tree.";
        f.evidence = {{"share", p.share, Provenance::Measured},
                      {"ms", double(p.totalNs) / 1e6, Provenance::Measured}};
        f.target = {FindingView::Timeline, {}, {}, {}, {}, p.phase};
        out.push_back(f);
    }
}

// The module whose own time (children excluded) is largest, if it is a
// fifth of the run or more: where to look first.
void biggestModuleFinding(const RunAnalysis& a, std::vector<Finding>& out) {
    const auto& nodes = a.modules.nodes;
    const auto top = std::max_element(nodes.begin(), nodes.end(), [](const auto& x, const auto& y) {
        return x.selfNs < y.selfNs;
    });
    if (top == nodes.end() || a.modules.wallNs <= 0) return;
    const double share = double(top->selfNs) / double(a.modules.wallNs);
    if (share < 0.2) return;
    Finding f;
    f.id = "modules.biggest_self";
    f.severity = gradedByShare(Severity::Info, share);
    f.title = "Module " + top->module.path + " takes " + num(100 * share, 0) +
              " % of the run in its own code";
    f.detail = num(double(top->selfNs) / 1e6) +
               " ms of self time (measured, its children "
               "excluded) over " +
               std::to_string(top->calls) + " calls.";
    f.suggestion = "Open it in the module tree and the op table: its own ops, not its "
                   "children's, are the cost.";
    f.evidence = {{"self_share", share, Provenance::Measured},
                  {"self_ms", double(top->selfNs) / 1e6, Provenance::Measured}};
    f.target = {FindingView::Modules, {}, {}, top->module.path, {}, {}};
    out.push_back(f);
}

void runFindings(const RunData& d, const RunAnalysis& a, std::vector<Finding>& out) {
    if (isReferenceBlas(d.run.blas)) {
        Finding f;
        f.id = "host.reference_blas";
        f.severity = Severity::Critical;
        f.title = "libtorch is calling the reference BLAS";
        f.detail = "Matrix products run ~30× slower than with OpenBLAS; every time in this run is "
                   "inflated.";
        f.suggestion = "Install libopenblas0-pthread (or point the libblas.so.3 alternative at an "
                       "optimised BLAS) and capture again.";
        f.target.view = FindingView::Session;
        out.push_back(f);
    }
    if (d.run.status == RunStatus::Incomplete || d.run.status == RunStatus::Failed) {
        Finding f;
        f.id = "run.incomplete";
        f.severity = Severity::Warning;
        f.title = std::string("The run is ") + toString(d.run.status);
        f.detail = d.run.error.empty() ? "Its capture stopped before the end." : d.run.error;
        f.suggestion = "Figures cover what was recorded; capture again for a complete run.";
        f.target.view = FindingView::Session;
        out.push_back(f);
    }
    outsizedPhaseFindings(a, out);
    for (const auto& p : a.phases.phases)
        if (p.share > 0.5) {
            Finding f;
            f.id = "phase.dominant." + phaseName(p.phase);
            f.severity = Severity::Info;
            f.title = "The " + phaseName(p.phase) + " phase takes " + num(100 * p.share, 0) +
                      " % of the run";
            f.detail = num(double(p.totalNs) / 1e6) + " ms of " +
                       num(double(a.phases.wallNs) / 1e6) + " ms (measured).";
            f.suggestion =
                p.phase == Phase::Decode
                    ? "Decode is bandwidth-bound: try weight quantisation and KV compression."
                : p.phase == Phase::Prefill || p.phase == Phase::Vision
                    ? "Fewer visual tokens shrink this phase: try visual-token pruning."
                    : "Look at the module tree for this phase's hot spots.";
            f.evidence = {{"share", p.share, Provenance::Measured},
                          {"ms", double(p.totalNs) / 1e6, Provenance::Measured}};
            f.target = {FindingView::Timeline, {}, {}, {}, {}, p.phase};
            out.push_back(f);
        }
}

} // namespace

std::vector<Finding> findingsFor(const RunData& d, const RunAnalysis& a) {
    std::vector<Finding> out;
    runFindings(d, a, out);
    biggestModuleFinding(a, out);
    moeFindings(a, out);
    rooflineFindings(a, out);
    patchFindings(a, out);
    headFindings(a, out);
    std::stable_sort(out.begin(), out.end(), [](const Finding& x, const Finding& y) {
        if (x.severity != y.severity) return int(x.severity) > int(y.severity);
        return x.id < y.id;
    });
    return out;
}

} // namespace mvp
