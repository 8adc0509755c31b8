#include "capture/run/ScriptRoles.h"

#include "core/session/ModuleRoles.h"

#include <ATen/record_function.h>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace mvp {

ScriptRoleObserver::ScriptRoleObserver(const UserModelManifest& manifest, int topK, int visualFirst,
                                       int patches)
    : patterns_(manifest.roles), topK_(topK), visualFirst_(visualFirst), patches_(patches) {}

void ScriptRoleObserver::assign(ModuleRow& row) {
    row.role = patterns_.roleOf(row.path);
    assignIndices(row);
    modules_[row.id] = row;
}

void ScriptRoleObserver::beginPass(Phase phase, int step, int firstNew, int sequence) {
    phase_ = phase;
    step_ = step;
    firstNew_ = firstNew;
    sequence_ = sequence;
    open_.clear();
}

const ModuleRow* ScriptRoleObserver::innermost(const std::vector<int64_t>& open,
                                               ModuleRole role) const {
    for (auto it = open.rbegin(); it != open.rend(); ++it)
        if (const auto m = modules_.find(*it); m != modules_.end() && m->second.role == role)
            return &m->second;
    return nullptr;
}

int ScriptRoleObserver::layerOf(const ModuleRow& m) {
    if (m.layer) return *m.layer;
    // No number in its path: the order in which modules of its role first ran.
    const auto key = std::pair{m.role, m.id};
    if (const auto it = ordinal_.find(key); it != ordinal_.end()) return it->second;
    int n = 0;
    for (const auto& [k, v] : ordinal_)
        n += k.first == m.role;
    return ordinal_[key] = n;
}

void ScriptRoleObserver::opEnded(const std::vector<int64_t>& open, std::string_view op,
                                 const std::vector<c10::IValue>& outputs) {
    if (outputs.empty() || !outputs[0].isTensor()) return;
    const torch::Tensor out = outputs[0].toTensor();
    if (const ModuleRow* router = innermost(open, ModuleRole::Router)) {
        RouterState& state = open_[router->id];
        if (op == "aten::topk" && outputs.size() >= 2 && outputs[1].isTensor())
            state.chosen = outputs[1].toTensor();
        else if (!state.chosen.defined() && out.dim() == 2 && out.is_floating_point())
            state.scores = out; // scores end where the top-k begins
        return;
    }
    if (const ModuleRow* attn = innermost(open, ModuleRole::Attention))
        if ((op == "aten::softmax" || op == "aten::_softmax") && out.dim() >= 2 &&
            out.is_floating_point() && out.size(-1) == sequence_ && out.numel() > 0)
            attention(*attn, out);
}

void ScriptRoleObserver::moduleClosed(int64_t module) {
    const auto it = open_.find(module);
    if (it == open_.end()) return;
    const auto m = modules_.find(module);
    if (m != modules_.end()) routerClosed(m->second, it->second);
    open_.erase(it);
}

void ScriptRoleObserver::routerClosed(const ModuleRow& router, RouterState& state) {
    if (!state.scores.defined()) {
        routingProblem_ = "router " + router.path + " returned no [tokens, experts] scores";
        return;
    }
    auto scores = state.scores.to(torch::kFloat);
    const int64_t t = scores.size(0), experts = scores.size(1);
    if (t != sequence_) {
        routingProblem_ = "router " + router.path + " scored " + std::to_string(t) +
                          " tokens, the sequence has " + std::to_string(sequence_);
        return;
    }
    // Probabilities already (non-negative rows summing to 1), else logits.
    const bool probs =
        scores.min().item<float>() >= 0 && (scores.sum(1) - 1).abs().max().item<float>() < 1e-3f;
    const auto p = probs ? scores : torch::softmax(scores, -1);
    const int64_t k = topK_ > 0 ? topK_ : (state.chosen.defined() ? state.chosen.size(-1) : 0);
    if (k < 1 || k > experts) {
        routingProblem_ =
            "router " + router.path + ": how many experts a token takes is unknown (set \"top_k\")";
        return;
    }
    auto chosen = state.chosen.defined() && state.chosen.dim() == 2 && state.chosen.size(0) == t &&
                          state.chosen.size(1) == k
                      ? state.chosen.to(torch::kLong)
                      : std::get<1>(p.topk(k, -1));
    auto weights = p.gather(1, chosen);
    weights = weights / weights.sum(1, true).clamp_min(1e-30);
    const int layer = layerOf(router);
    // Read from host memory (a model on a GPU hands device tensors): an item()
    // per element would make a tensor each.
    const auto c = chosen.to(torch::kCPU).contiguous();
    const auto w = weights.to(torch::kCPU).contiguous();
    const int64_t* picked = c.data_ptr<int64_t>();
    const float* share = w.data_ptr<float>();
    for (int64_t pos = std::max<int64_t>(firstNew_, 0); pos < t; ++pos) {
        const bool visual = pos >= visualFirst_ && pos < visualFirst_ + patches_;
        for (int64_t r = 0; r < k; ++r)
            routing_.push_back(RoutingRow{layer, phase_, step_, int(pos),
                                          visual ? Modality::Visual : Modality::Text, int(r),
                                          int(picked[pos * k + r]), double(share[pos * k + r])});
    }
    sawRouting_ = true;
}

void ScriptRoleObserver::attention(const ModuleRow& module, const torch::Tensor& out) {
    if (patches_ <= 0 || visualFirst_ + patches_ > out.size(-1)) return;
    if (identity_.size() != size_t(patches_)) {
        identity_.resize(size_t(patches_));
        std::iota(identity_.begin(), identity_.end(), 0);
    }
    const int layer = layerOf(module);
    auto& all = received_[layer];
    auto& byPhase = (phase_ == Phase::Decode ? receivedDecode_ : receivedPrefill_)[layer];
    const HeadMean mean = meanOverHeads(out);
    if (addReceivedAttention(mean, visualFirst_, identity_, firstNew_, patches_, all, byPhase)) {
        sawAttention_ = true;
        answer_.add(layer, phase_, mean, visualFirst_, identity_, firstNew_, patches_);
    }
}

namespace {
// Adds each plane of `data` (`heads` planes of `plane` values) into `sum`.
template <typename T> void sumPlanes(const T* data, int64_t heads, int64_t plane, double* sum) {
    for (int64_t h = 0; h < heads; ++h)
        for (int64_t i = 0; i < plane; ++i)
            sum[i] += double(data[h * plane + i]);
}
} // namespace

// Plain loops, not ATen ops: the observer runs at every attention softmax,
// and on small probabilities ten dispatched ops cost far more than the sums.
HeadMean meanOverHeads(const torch::Tensor& probs) {
    HeadMean m;
    if (probs.dim() < 2) return m;
    m.keys = probs.size(-1);
    m.queries = probs.size(-2);
    const int64_t plane = m.queries * m.keys;
    const int64_t heads = plane > 0 ? probs.numel() / plane : 0;
    if (heads == 0) return m;
    // Read in place when it can be (a contiguous float or double CPU tensor);
    // a GPU's probabilities, or half precision, are copied once — with
    // RecordFunction off, so that the copy is not recorded as the model's op.
    torch::Tensor host = probs;
    const bool readable = probs.is_cpu() && probs.is_contiguous() &&
                          (probs.scalar_type() == torch::kFloat ||
                           probs.scalar_type() == torch::kDouble);
    if (!readable) {
        const at::RecordFunctionGuard unrecorded(false);
        host = probs.to(torch::kCPU);
        if (host.scalar_type() != torch::kFloat && host.scalar_type() != torch::kDouble)
            host = host.to(torch::kFloat);
        host = host.contiguous();
    }
    m.values.assign(size_t(plane), 0.0);
    if (host.scalar_type() == torch::kFloat)
        sumPlanes(host.data_ptr<float>(), heads, plane, m.values.data());
    else
        sumPlanes(host.data_ptr<double>(), heads, plane, m.values.data());
    m.finite = true;
    for (double& v : m.values) {
        v /= double(heads);
        m.finite = m.finite && std::isfinite(v);
    }
    return m;
}

void AnswerAttention::add(int layer, Phase phase, const HeadMean& mean, int visualFirst,
                          const std::vector<int>& patchOf, int64_t firstNew, int patches) {
    if (phase != Phase::Prefill && phase != Phase::Decode) return;
    const int64_t tk = mean.keys, tq = mean.queries;
    // The answer's queries: the prefill's last position; a decode pass's new ones.
    const int64_t firstQuery =
        phase == Phase::Prefill ? tq - 1 : std::clamp<int64_t>(firstNew - (tk - tq), 0, tq);
    std::vector<double> sum(size_t(patches), 0.0);
    for (size_t i = 0; i < patchOf.size(); ++i) {
        if (patchOf[i] < 0 || patchOf[i] >= patches) continue;
        for (int64_t q = firstQuery; q < tq; ++q)
            sum[size_t(patchOf[i])] += mean.at(q, visualFirst + int64_t(i));
    }
    if (phase == Phase::Prefill)
        prefill_[layer] = std::move(sum);
    else
        decode_[layer].push_back(std::move(sum));
}

std::vector<PatchMetricRow> AnswerAttention::rows(int answerSteps) const {
    std::vector<PatchMetricRow> out;
    for (const auto& [layer, prefill] : prefill_) {
        std::vector<double> sum = prefill;
        if (const auto d = decode_.find(layer); d != decode_.end())
            for (size_t s = 0; s < d->second.size() && int(s) < answerSteps; ++s)
                for (size_t p = 0; p < sum.size(); ++p)
                    sum[p] += d->second[s][p];
        for (size_t p = 0; p < sum.size(); ++p)
            out.push_back({layer, "answer_attention", int(p), sum[p]});
    }
    return out;
}

bool addReceivedAttention(const HeadMean& mean, int visualFirst, const std::vector<int>& patchOf,
                          int64_t firstNew, int patches, std::vector<double>& all,
                          std::vector<double>& byPhase) {
    const int64_t tk = mean.keys, tq = mean.queries;
    const auto count = int64_t(patchOf.size());
    if (tq > tk || tq < 1 || count < 1 || visualFirst + count > tk || !mean.finite) return false;
    // Sized only now: a layer none of whose attention could be read has no grid.
    all.resize(std::max(all.size(), size_t(patches)), 0.0);
    byPhase.resize(std::max(byPhase.size(), size_t(patches)), 0.0);
    for (int64_t q = 0; q < tq; ++q) {
        const int64_t pos = tk - tq + q; // a KV cache's queries are the last positions
        const bool visual = pos >= visualFirst && pos < visualFirst + count;
        if (pos < firstNew || visual) continue; // text queries new in this pass
        for (int64_t i = 0; i < count; ++i) {
            const auto patch = size_t(patchOf[size_t(i)]);
            if (patch >= all.size() || patch >= byPhase.size()) continue;
            const double v = mean.at(q, visualFirst + i);
            all[patch] += v;
            byPhase[patch] += v;
        }
    }
    return true;
}

std::vector<RoutingRow> ScriptRoleObserver::takeRouting() {
    return std::exchange(routing_, {});
}

std::vector<PatchMetricRow> ScriptRoleObserver::attentionMetrics(int answerSteps) const {
    auto rows = receivedAttentionRows(received_, receivedPrefill_, receivedDecode_);
    for (auto& r : answer_.rows(answerSteps))
        rows.push_back(std::move(r));
    return rows;
}

std::vector<PatchMetricRow>
receivedAttentionRows(const std::map<int, std::vector<double>>& all,
                      const std::map<int, std::vector<double>>& prefill,
                      const std::map<int, std::vector<double>>& decode) {
    std::vector<PatchMetricRow> out;
    auto add = [&](const char* metric, const std::map<int, std::vector<double>>& grids) {
        for (const auto& [layer, values] : grids)
            for (size_t p = 0; p < values.size(); ++p)
                out.push_back({layer, metric, int(p), values[p]});
    };
    add("attention", all);
    add("attention.prefill", prefill);
    add("attention.decode", decode);
    return out;
}

namespace {
size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}
} // namespace

Status checkRolePatterns(const UserModelManifest& manifest, const std::vector<std::string>& paths) {
    std::string problems;
    for (const auto& r : manifest.roles) {
        const std::regex re(r.pattern);
        if (std::any_of(paths.begin(), paths.end(),
                        [&](const std::string& p) { return std::regex_search(p, re); }))
            continue;
        // The pattern's letters, to rank the paths by how close they come.
        std::string plain;
        for (char c : r.pattern)
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_') plain += c;
        // Compared with each path's end, where a role's name usually sits.
        std::vector<std::pair<size_t, std::string>> ranked;
        for (const auto& p : paths) {
            const std::string tail =
                p.size() > plain.size() ? p.substr(p.size() - plain.size()) : p;
            ranked.emplace_back(editDistance(plain, tail), p);
        }
        std::sort(ranked.begin(), ranked.end());
        std::string closest;
        for (size_t i = 0; i < std::min<size_t>(3, ranked.size()); ++i)
            closest += (i ? ", " : "") + ranked[i].second;
        problems += (problems.empty() ? "" : "; ") + std::string("\"roles.") + r.key +
                    "\" pattern \"" + r.pattern + "\" matches no module (closest: " +
                    (closest.empty() ? "the model has no submodules" : closest) + ")";
    }
    if (problems.empty()) return Ok{};
    return makeError(ErrorCode::BadInput, manifest.path + ": " + problems);
}

} // namespace mvp
