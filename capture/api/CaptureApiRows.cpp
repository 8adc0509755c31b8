// The C ABI's row calls: what the host knows and the probe cannot see
// (routing, tokens, features, step outputs, metrics). Rows wait in the
// session's batch until the run ends.
#include "capture/api/ApiSession.h"
#include "core/analysis/Kv.h"

#include <algorithm>
#include <array>
#include <cmath>

using mvp::api::fail;
using mvp::api::guarded;
using mvp::api::text;

namespace {
// The session stores run metrics as measured or predicted (docs/format.md).
constexpr std::array kKinds{"measured", "predicted"};
} // namespace

extern "C" {

int mvprof_set_patch_grid(mvprof_session* s, int grid_h, int grid_w, int patch, int input_size,
                          int first_position) {
    return guarded(s, true, [&]() -> int {
        if (grid_h < 1 || grid_w < 1 || grid_h > 1024 || grid_w > 1024 || first_position < 0)
            return fail(MVPROF_BAD_INPUT, "the patch grid must be 1..1024 on each side");
        s->rows.patchGrid = mvp::PatchGridRow{grid_h, grid_w, patch, input_size, first_position};
        return MVPROF_OK;
    });
}

int mvprof_add_visual_tokens(mvprof_session* s, int first_position, int count, const int* patches) {
    return guarded(s, true, [&]() -> int {
        if (first_position < 0 || count < 1 || count > 1 << 20)
            return fail(MVPROF_BAD_INPUT, "visual tokens need a first position >= 0 and a count "
                                          "of 1 .. 2^20");
        std::vector<int> patchOf(static_cast<size_t>(count));
        for (int i = 0; i < count; ++i)
            if ((patchOf[size_t(i)] = patches ? patches[i] : i) < 0)
                return fail(MVPROF_BAD_INPUT, "a visual token's patch is negative");
        std::erase_if(s->rows.tokens,
                      [](const mvp::TokenRow& t) { return t.modality == mvp::Modality::Visual; });
        for (int i = 0; i < count; ++i)
            s->rows.tokens.push_back(mvp::TokenRow{first_position + i, mvp::Phase::Prefill, 0,
                                                   mvp::Modality::Visual, -1, patchOf[size_t(i)]});
        s->visualFirst = first_position;
        s->visualCount = count;
        if (s->attention) {
            const auto& g = s->rows.patchGrid;
            const int grid =
                g ? g->gridH * g->gridW : *std::max_element(patchOf.begin(), patchOf.end()) + 1;
            s->attention->setVisual(first_position, std::move(patchOf), grid);
            s->recorder->observerChanged();
        }
        return MVPROF_OK;
    });
}

int mvprof_set_vision_features(mvprof_session* s, int rows, int cols, const float* data) {
    return guarded(s, true, [&]() -> int {
        if (rows < 1 || cols < 1 || !data || int64_t(rows) * cols > int64_t(1) << 28)
            return fail(MVPROF_BAD_INPUT, "vision features need rows, cols >= 1 and data");
        s->rows.visionFeatures = mvp::VisionFeatureRow{
            rows, cols, std::vector<float>(data, data + int64_t(rows) * cols)};
        return MVPROF_OK;
    });
}

int mvprof_add_routing(mvprof_session* s, int layer, int token, int rank, int expert, double weight,
                       const char* modality) {
    return guarded(s, true, [&]() -> int {
        if (token < 0 || rank < 0 || expert < 0)
            return fail(MVPROF_BAD_INPUT, "routing rows need non-negative token, rank and expert");
        const auto m = text(modality).empty() ? std::optional(mvp::Modality::Text)
                                              : mvp::modalityFromString(text(modality));
        if (!m) return fail(MVPROF_BAD_INPUT, "a routing row's modality is visual or text");
        const mvp::Recorder& r = *s->recorder;
        if (layer < 0) layer = r.innermostLayer().value_or(0);
        s->rows.routing.push_back(
            mvp::RoutingRow{layer, r.phase(), r.step(), token, *m, rank, expert, weight});
        return MVPROF_OK;
    });
}

int mvprof_add_routing_rows(mvprof_session* s, int layer, int first_token, int n, int k,
                            const long long* experts, const float* weights) {
    return guarded(s, true, [&]() -> int {
        if (first_token < 0 || n < 0 || k < 1 || (n > 0 && (!experts || !weights)))
            return fail(MVPROF_BAD_INPUT, "routing rows need a first token >= 0, k >= 1 and "
                                          "n × k experts and weights");
        const mvp::Recorder& r = *s->recorder;
        if (layer < 0) layer = r.innermostLayer().value_or(0);
        for (int i = 0; i < n; ++i) {
            const int token = first_token + i;
            const bool visual = token >= s->visualFirst && token < s->visualFirst + s->visualCount;
            for (int j = 0; j < k; ++j) {
                const long long e = experts[int64_t(i) * k + j];
                if (e < 0 || e > 1 << 20)
                    return fail(MVPROF_BAD_INPUT, "an expert index is negative or absurd");
                s->rows.routing.push_back(
                    mvp::RoutingRow{layer, r.phase(), r.step(), token,
                                    visual ? mvp::Modality::Visual : mvp::Modality::Text, j, int(e),
                                    double(weights[int64_t(i) * k + j])});
            }
        }
        return MVPROF_OK;
    });
}

int mvprof_add_repetition(mvprof_session* s, int arm, int rep, const char* phase, long long ns,
                          int control) {
    return guarded(s, true, [&]() -> int {
        const auto p = mvp::phaseFromString(text(phase));
        if ((arm != 0 && arm != 1) || rep < 0 || ns < 0 || !p || *p == mvp::Phase::None)
            return fail(MVPROF_BAD_INPUT, "a repetition needs arm 0 (baseline) or 1 (what-if), "
                                          "rep >= 0, a phase name and ns >= 0");
        s->rows.repetitions.push_back(mvp::RepetitionRow{
            arm ? mvp::Arm::WhatIf : mvp::Arm::Baseline, rep, *p, int64_t(ns), control != 0});
        return MVPROF_OK;
    });
}

int mvprof_add_token(mvprof_session* s, int position, const char* modality, int token_id,
                     int patch) {
    return guarded(s, true, [&]() -> int {
        const auto m = mvp::modalityFromString(text(modality));
        if (!m) return fail(MVPROF_BAD_INPUT, "a token's modality is visual or text");
        const mvp::Recorder& r = *s->recorder;
        s->rows.tokens.push_back(mvp::TokenRow{position, r.phase(), r.step(), *m, token_id, patch});
        return MVPROF_OK;
    });
}

int mvprof_add_step_output(mvprof_session* s, int token, const float* logits, int n) {
    return guarded(s, true, [&]() -> int {
        if (!logits || n < 1 || token < 0 || token >= n)
            return fail(MVPROF_BAD_INPUT,
                        "a step output needs n >= 1 logits and a token in 0 .. n-1");
        if (!std::all_of(logits, logits + n, [](float v) { return !std::isnan(v); }))
            return fail(MVPROF_BAD_INPUT, "the step's logits hold NaN: the model's output is "
                                          "broken, nothing was stored");
        const int step = s->recorder->phase() == mvp::Phase::Decode ? s->recorder->step() : 0;
        s->rows.stepOutputs.push_back(
            mvp::StepOutputRow{step, token, std::vector<float>(logits, logits + n)});
        return MVPROF_OK;
    });
}

int mvprof_add_metric(mvprof_session* s, const char* name, double value, const char* unit,
                      const char* kind, const char* note) {
    return guarded(s, false, [&]() -> int {
        if (!s->recorder && !s->eval)
            return fail(MVPROF_BAD_INPUT, "no run is open: call mvprof_begin_run first");
        const std::string k = text(kind).empty() ? std::string("measured") : text(kind);
        if (std::find(kKinds.begin(), kKinds.end(), k) == kKinds.end())
            return fail(MVPROF_BAD_INPUT,
                        "metric kind '" + k + "': a run metric is measured or predicted");
        if (text(name).empty() || !std::isfinite(value))
            return fail(MVPROF_BAD_INPUT, "a metric needs a name and a finite value");
        mvp::RunMetricRow metric{text(name), value, text(unit), k, text(note)};
        if (s->eval) // an eval's metrics describe its what-if's configuration
            s->eval->runs.addWhatIfMetric(std::move(metric));
        else
            s->rows.runMetrics.push_back(std::move(metric));
        return MVPROF_OK;
    });
}

int mvprof_add_patch_metrics(mvprof_session* s, int layer, const char* name, int n,
                             const int* patches, const double* values) {
    return guarded(s, true, [&]() -> int {
        if (text(name).empty() || layer < 0 || n < 0 || (n > 0 && (!patches || !values)))
            return fail(MVPROF_BAD_INPUT, "patch metrics need a name, a layer >= 0 and n rows");
        for (int i = 0; i < n; ++i) {
            if (patches[i] < 0 || !std::isfinite(values[i]))
                return fail(MVPROF_BAD_INPUT,
                            "a patch metric needs a patch >= 0 and a finite value");
            s->rows.patchMetrics.push_back({layer, text(name), patches[i], values[i]});
        }
        return MVPROF_OK;
    });
}

int mvprof_add_quantised_module(mvprof_session* s, const char* path, long long fp32_bytes,
                                long long quant_bytes) {
    return guarded(s, true, [&]() -> int {
        if (text(path).empty() || fp32_bytes < 0 || quant_bytes < 0)
            return fail(MVPROF_BAD_INPUT, "a quantised module needs a path and byte counts >= 0");
        s->quantised.push_back(mvp::QuantisedModule{text(path), fp32_bytes, quant_bytes, {}});
        return MVPROF_OK;
    });
}

} // extern "C"

namespace {
// The host's flat arrays as an observation; an Error for sizes that do not add up.
mvp::Result<mvp::VisualTokenObservation> observation(const mvprof_visual_observation* o) {
    using mvp::ErrorCode;
    if (!o || o->layers < 0 || o->layers > (1 << 12) || o->dim <= 0 || o->grid_patches <= 0)
        return mvp::makeError(ErrorCode::BadInput,
                              "a visual-token observation needs layers >= 0, dim > 0 and "
                              "grid_patches > 0");
    mvp::VisualTokenObservation out;
    out.dim = o->dim;
    out.gridPatches = o->grid_patches;
    size_t row = 0, query = 0;
    for (int l = 0; l < o->layers; ++l) {
        const int rows = o->rows ? o->rows[l] : -1, queries = o->queries ? o->queries[l] : -1;
        if (rows < 0 || queries < 0 || (rows > 0 && (!o->patches || !o->values)) ||
            (queries > 0 && !o->attention))
            return mvp::makeError(ErrorCode::BadInput,
                                  "layer " + std::to_string(l) +
                                      " of a visual-token observation has no row or query counts, "
                                      "or counts without their arrays");
        auto& layer = out.layers.emplace_back();
        for (int i = 0; i < rows; ++i, ++row) {
            const int patch = o->patches[row];
            if (patch < 0 || patch >= o->grid_patches)
                return mvp::makeError(ErrorCode::BadInput, "patch " + std::to_string(patch) +
                                                               " of layer " + std::to_string(l) +
                                                               " is outside 0.." +
                                                               std::to_string(o->grid_patches - 1));
            layer.patches.push_back(patch);
            layer.values.insert(layer.values.end(), o->values + row * size_t(o->dim),
                                o->values + (row + 1) * size_t(o->dim));
        }
        for (int q = 0; q < queries; ++q, ++query)
            layer.attention.emplace_back(o->attention + query * size_t(o->grid_patches),
                                         o->attention + (query + 1) * size_t(o->grid_patches));
    }
    return out;
}
} // namespace

int mvprof_add_resampling_loss(mvprof_session* s, const mvprof_visual_observation* baseline,
                               const mvprof_visual_observation* whatif) {
    return guarded(s, true, [&]() -> int {
        auto base = observation(baseline);
        if (!base) return fail(base.error());
        auto other = observation(whatif);
        if (!other) return fail(other.error());
        if (base->dim != other->dim || base->gridPatches != other->gridPatches)
            return fail(MVPROF_BAD_INPUT, "the two observations differ in vector size or patches");
        for (auto& m : mvp::resamplingMetrics(mvp::resamplingLoss(*base, *other))) {
            m.note += "; observed by the host: v is what each attention module reads there";
            s->rows.runMetrics.push_back(std::move(m));
        }
        return MVPROF_OK;
    });
}
