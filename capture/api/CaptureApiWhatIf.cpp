// The C ABI's what-if support: which experts a freeze takes offline (from a
// baseline's routing in the session) and the latency a quantised what-if
// would have with a low-bit kernel (from both runs' profiles).
#include "capture/api/ApiSession.h"
#include "capture/models/transforms/TensorQuant.h"
#include "capture/whatif/ColdExperts.h"
#include "capture/whatif/TokenDrop.h"
#include "capture/whatif/VisionZip.h"
#include "core/analysis/Analysis.h"
#include "core/session/SessionReader.h"

#include <algorithm>

using mvp::api::fail;
using mvp::api::guarded;

namespace mvp::api {

namespace {
// What the session holds so far: the writer's queue flushed, then read.
Result<std::unique_ptr<SessionReader>> readSoFar(mvprof_session& s) {
    if (auto f = s.writer->flush(); !f) return f.error();
    return SessionReader::open(s.writer->path());
}
} // namespace

Status checkBaseline(mvprof_session& s, int64_t run) {
    auto reader = readSoFar(s);
    if (!reader) return reader.error();
    auto info = (*reader)->run(run);
    if (!info)
        return makeError(ErrorCode::BadInput, "run " + std::to_string(run) + " is not in " +
                                                  s.writer->path() +
                                                  ": a what-if is stored beside its baseline");
    if (info->status != RunStatus::Complete)
        return makeError(ErrorCode::BadInput, "run " + std::to_string(run) + " is " +
                                                  toString(info->status) +
                                                  ": a what-if needs a complete baseline");
    return Ok{};
}

Result<std::vector<RoutingRow>> readRouting(mvprof_session& s, int64_t run) {
    auto reader = readSoFar(s);
    if (!reader) return reader.error();
    if (auto r = (*reader)->run(run); !r) return r.error();
    return (*reader)->routing(run);
}

Status storeLatencyPrediction(mvprof_session& s, int64_t run) {
    auto reader = readSoFar(s);
    if (!reader) return reader.error();
    auto base = loadRunData(**reader, *s.baselineRun);
    if (!base) return base.error();
    auto whatIf = loadRunData(**reader, run);
    if (!whatIf) return whatIf.error();
    reader->reset(); // read done before the writer writes again
    const auto p = predictQuantisedLatency(*base, *whatIf, s.quantised);
    if (!p) return Ok{}; // no ceilings or no quantised module in the profile: nothing to predict
    Batch batch;
    batch.run = run;
    batch.runMetrics.push_back(
        RunMetricRow{"latency.predicted_ns", double(p->wallNs), "ns", "predicted", p->note});
    s.writer->submit(std::move(batch));
    return s.writer->flush();
}

} // namespace mvp::api

extern "C" {

int mvprof_plan_cold_experts(mvprof_session* s, long long baseline_run, int window,
                             int min_activations, int* layers, int* experts, int capacity,
                             int* count) {
    return guarded(s, false, [&]() -> int {
        if (s->run) return fail(MVPROF_BAD_INPUT, "plan a freeze between runs, not inside one");
        if (window < 1 || min_activations < 1 || capacity < 0 || !count ||
            (capacity > 0 && (!layers || !experts)))
            return fail(MVPROF_BAD_INPUT, "a freeze plan needs window >= 1, min_activations >= 1 "
                                          "and room for its answer");
        const auto routing = mvp::api::readRouting(*s, baseline_run);
        if (!routing) return fail(routing.error());
        int expertCount = 0, topK = 0;
        for (const auto& r : *routing) {
            expertCount = std::max(expertCount, r.expert + 1);
            topK = std::max(topK, r.rank + 1);
        }
        if (routing->empty())
            return fail(MVPROF_BAD_INPUT,
                        "run " + std::to_string(baseline_run) +
                            " recorded no routing: there are no experts to freeze");
        const auto plan =
            mvp::planColdExperts(*routing, expertCount, topK, window, min_activations);
        if (plan.completeWindows < 2)
            return fail(MVPROF_BAD_INPUT,
                        "the baseline has " + std::to_string(plan.positions) +
                            " tokens per layer: cold-expert freezing needs two complete windows "
                            "of " +
                            std::to_string(window) + " (use a smaller window)");
        int n = 0;
        for (const auto& [layer, frozen] : plan.frozen)
            for (int e : frozen) {
                if (n < capacity) {
                    layers[n] = layer;
                    experts[n] = e;
                }
                ++n;
            }
        *count = n;
        return MVPROF_OK;
    });
}

int mvprof_visual_token_count(mvprof_session* s, long long baseline_run, int* count) {
    return guarded(s, false, [&]() -> int {
        if (s->run) return fail(MVPROF_BAD_INPUT, "count a baseline's tokens between runs");
        if (!count) return fail(MVPROF_BAD_INPUT, "mvprof_visual_token_count needs an out pointer");
        auto reader = mvp::api::readSoFar(*s);
        if (!reader) return fail(reader.error());
        if (auto r = (*reader)->run(baseline_run); !r) return fail(r.error());
        auto tokens = (*reader)->tokens(baseline_run);
        if (!tokens) return fail(tokens.error());
        *count = int(std::count_if(tokens->begin(), tokens->end(), [](const mvp::TokenRow& t) {
            return t.modality == mvp::Modality::Visual;
        }));
        return MVPROF_OK;
    });
}

int mvprof_quantise_weights(float* data, long long rows, long long cols, int bits, int group,
                            long long* stored_bytes) {
    if (!data || rows < 1 || cols < 1 || (bits != 4 && bits != 8) || group < 2 || group % 2 ||
        !stored_bytes)
        return fail(MVPROF_BAD_INPUT, "quantising weights needs data, rows and cols >= 1, 4 or 8 "
                                      "bits and an even group >= 2");
    try {
        torch::NoGradGuard noGrad;
        auto w = torch::from_blob(data, {rows, cols}, torch::kFloat);
        const auto codes = mvp::quantiseGroups(w, bits, group);
        w.copy_(mvp::dequantiseGroups(codes));
        *stored_bytes = codes.bytes();
        return MVPROF_OK;
    } catch (const std::exception& e) {
        return fail(MVPROF_INTERNAL, std::string("internal error: ") + e.what());
    }
}

int mvprof_plan_token_drop(int method, int layers, long long visual, int k, double parameter,
                           int* stage_layers, long long* stage_keep, int capacity, int* count,
                           double* layer_averaged) {
    if ((method != 0 && method != 1) || visual < 1 || capacity < 0 || !count || !layer_averaged ||
        (capacity > 0 && (!stage_layers || !stage_keep)))
        return fail(MVPROF_BAD_INPUT, "a token-drop plan needs method 0 (FastV) or 1 "
                                      "(PyramidDrop), visual tokens >= 1 and room for its answer");
    const auto plan = method == 0 ? mvp::planFastV(layers, visual, k, parameter)
                                  : mvp::planPyramidDrop(layers, visual, parameter);
    if (!plan) return fail(plan.error());
    const auto& stages = plan->stages;
    for (size_t i = 0; i < stages.size() && i < size_t(capacity); ++i) {
        stage_layers[i] = stages[i].layer;
        stage_keep[i] = stages[i].keep;
    }
    *count = int(stages.size());
    *layer_averaged = mvp::layerAveragedVisualTokens(*plan, layers);
    return MVPROF_OK;
}

int mvprof_top_scores(const double* scores, long long n, long long keep, long long* kept) {
    if (n < 0 || keep < 0 || keep > n || (n > 0 && !scores) || (keep > 0 && !kept))
        return fail(MVPROF_BAD_INPUT, "top scores need 0 <= keep <= n and the arrays");
    const std::vector<double> v(scores, scores + n);
    const auto rows = mvp::keptRows(v, 0, n, keep);
    std::copy(rows.begin(), rows.end(), kept);
    return MVPROF_OK;
}

int mvprof_plan_visionzip(const double* scores, long long n, const double* keys, int dim,
                          long long budget, long long* sent, long long* into, long long* dominant) {
    if (!scores || !keys || n < 1 || dim < 1 || !sent || !into || !dominant)
        return fail(MVPROF_BAD_INPUT, "a VisionZip plan needs n >= 1 scores, their keys and "
                                      "room for its answer");
    const auto split = mvp::visionZipSplit(n, budget);
    if (!split) return fail(split.error());
    std::vector<std::vector<double>> k(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i)
        k[size_t(i)].assign(keys + i * dim, keys + (i + 1) * dim);
    const auto s = mvp::visionZipSelect(std::vector<double>(scores, scores + n), k, *split);
    if (!s) return fail(s.error());
    const auto order = s->sent();
    std::copy(order.begin(), order.end(), sent);
    std::fill(into, into + n, -1LL);
    const auto first = int64_t(s->dominant.size()); // the targets' place in `sent`
    for (size_t i = 0; i < s->merged.size(); ++i)
        into[s->merged[i]] = first + s->into[i];
    *dominant = first;
    return MVPROF_OK;
}

} // extern "C"
