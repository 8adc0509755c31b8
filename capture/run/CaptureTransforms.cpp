// What-if model rewrites (docs/diagnostics.md §9) on a built Capturer: the passes
// that need the baseline's inputs — autograd sensitivity, AWQ calibration —
// run here, before the what-if run itself, and are not part of its timing.
#include "capture/models/VlmLayers.h"
#include "capture/models/transforms/KvMethods.h"
#include "capture/models/transforms/ModelTransforms.h"
#include "capture/models/transforms/ScriptedQuant.h"
#include "capture/run/CapturerImpl.h"
#include "capture/whatif/VisionZip.h"

#include <cmath>

namespace mvp {

namespace {
// The baseline's inputs and tokens, teacher-forced in one forward pass:
// [BOS, visual…, prompt…, tokens[0..n−2]] → logits at every position.
struct TeacherForcing {
    VlmModel& model;
    const PreparedCapture& prep;
    const std::vector<int>& tokens;

    torch::Tensor logLikelihood() {
        model.reset();
        auto visual = model.project(model.encodeImage(modelPixels(prep), {}), {});
        std::vector<int> ids{tokens::kBos};
        ids.insert(ids.end(), prep.promptIds.begin(), prep.promptIds.end());
        ids.insert(ids.end(), tokens.begin(), tokens.end() - 1);
        auto logits = model.forward(ids, visual, 1, {}, /*allPositions=*/true);
        model.reset();
        // Position N + P (the prompt's last) predicts tokens[0], and so on.
        const int64_t first = visual.size(0) + int64_t(prep.promptIds.size());
        const auto n = int64_t(tokens.size());
        std::vector<int64_t> target(tokens.begin(), tokens.end());
        auto logp = torch::log_softmax(logits.narrow(0, first, n), -1);
        const auto index = torch::tensor(target, torch::kLong).to(logp.device()).view({n, 1});
        return logp.gather(1, index).sum();
    }
};

RunMetricRow metric(std::string name, double value, std::string unit, std::string note,
                    std::string kind = "measured") {
    return RunMetricRow{std::move(name), value, std::move(unit), std::move(kind), std::move(note)};
}
} // namespace

// A user model: weight quantisation of its LLM's linears is all a what-if
// can do without rewriting its code.
Result<ModelTransformOutcome> Capturer::transformScripted(const ModelTransforms& t) {
    if (t.tokenDrop)
        return makeError(ErrorCode::BadInput,
                         std::string(toString(t.tokenDrop->method)) +
                             " drops visual tokens between decoder layers, which a TorchScript "
                             "model's forward does not expose: it runs on the built-in model");
    if (!t.tomeSchedule.empty())
        return makeError(ErrorCode::BadInput,
                         "ToMe merges tokens inside each vision block, which a TorchScript "
                         "model's forward does not expose: it runs on the built-in model");
    if (t.downsampleGrid > 0)
        return makeError(ErrorCode::BadInput,
                         "the downsample baseline resizes the image and interpolates the vision "
                         "encoder's position table, which a TorchScript model keeps to itself: it "
                         "runs on the built-in model");
    if (t.visionZip)
        return makeError(ErrorCode::BadInput,
                         "VisionZip merges visual tokens inside the vision encoder, whose "
                         "attention a TorchScript model's forward does not expose: it runs on "
                         "the built-in model");
    if (t.kvMethod)
        return makeError(ErrorCode::BadInput,
                         std::string(toString(t.kvMethod->kind)) +
                             " evicts or re-stores the decoder's KV cache, which a TorchScript "
                             "model's forward keeps to itself: it runs on the built-in model");
    if (t.kv || t.freezeCold || t.pruneChannels > 0 || !t.skipBeta.empty() || t.keepExperts)
        return makeError(ErrorCode::BadInput,
                         std::string(t.kv                  ? "--kv"
                                     : t.freezeCold        ? "--freeze-cold"
                                     : t.pruneChannels > 0 ? "--prune-channels"
                                     : t.keepExperts       ? "--keep-experts"
                                                           : "--skip-experts") +
                             " rewrites the built-in model's layers: on a user model only --quant "
                             "(its LLM's linear weights) runs");
    if (t.quantBits != 4 && t.quantBits != 8)
        return makeError(ErrorCode::BadInput, "quantisation is w4 or w8");
    if (t.quantGroup <= 0 || t.quantGroup % 2)
        return makeError(ErrorCode::BadInput,
                         "the quantisation group must be a positive even number");
    d->transformed = true;
    Result<QuantSummary> s = makeError(ErrorCode::Internal, "not run");
    try {
        s = quantiseScriptedLlm(*d->scripted, *d->prep.userModel, t.quantBits, t.quantGroup);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal,
                         std::string("quantising the user model failed: ") + e.what());
    }
    if (!s) return s.error();
    ModelTransformOutcome out;
    out.metrics = {
        metric("quant.layers", s->layers, "count",
               "Linear modules inside the \"llm\" role, routers excepted"),
        metric("quant.fp32_bytes", double(s->fp32Bytes), "bytes", "their float32 weights"),
        metric("quant.bytes", double(s->quantBytes), "bytes",
               "their quantised size: packed codes, float16 scales and minimums (the run holds "
               "the dequantised values in float32)"),
        metric("quant.bytes_ratio",
               s->fp32Bytes ? double(s->quantBytes) / double(s->fp32Bytes) : 0.0, "ratio",
               "quantised ÷ float32 bytes of the quantised layers"),
    };
    out.quantised = s->modules;
    return out;
}

namespace {
// The transforms' parameters against the model they would rewrite.
Status checkTransforms(const ModelTransforms& t, const VlmConfig& cfg) {
    if ((t.pruneChannels > 0 || t.quantBits || t.keepExperts) && t.baselineTokens.empty())
        return makeError(ErrorCode::BadInput, "channel pruning, quantisation and expert pruning "
                                              "need the baseline's generated tokens");
    if (t.pruneChannels < 0 || t.pruneChannels >= 1)
        return makeError(ErrorCode::BadInput, "the channel-pruning fraction must be in [0, 1)");
    if (t.quantBits != 0 && t.quantBits != 4 && t.quantBits != 8)
        return makeError(ErrorCode::BadInput, "quantisation is w4 or w8");
    if (t.quantBits && (t.quantGroup <= 0 || t.quantGroup % 2))
        return makeError(ErrorCode::BadInput,
                         "the quantisation group must be a positive even number");
    if (t.kv && cfg.llm.headDim() % 2)
        return makeError(ErrorCode::BadInput, "INT4 KV needs an even head size");
    if (t.kvMethod && (t.kv || t.tokenDrop))
        return makeError(ErrorCode::BadInput, std::string(toString(t.kvMethod->kind)) +
                                                  " manages the KV cache itself: "
                                                  "it cannot be combined with " +
                                                  (t.kv ? "--kv" : "FastV or PyramidDrop"));
    if (t.tokenDrop && (t.downsampleGrid > 0 || !t.tomeSchedule.empty()))
        return makeError(ErrorCode::BadInput,
                         std::string(toString(t.tokenDrop->method)) +
                             " ranks every image token inside the decoder: it cannot follow "
                             "the downsample baseline or ToMe, which send fewer");
    if (t.visionZip && t.tokenDrop)
        return makeError(ErrorCode::BadInput,
                         std::string(toString(t.tokenDrop->method)) +
                             " ranks every image token inside the decoder: it cannot follow "
                             "VisionZip, which sends fewer");
    if (t.tokenDrop) {
        if (t.kv)
            return makeError(ErrorCode::BadInput,
                             std::string(toString(t.tokenDrop->method)) +
                                 " drops visual tokens inside the decoder: it cannot be combined "
                                 "with --kv, which merges every layer's visual tokens");
        for (const auto& s : t.tokenDrop->stages)
            if (s.layer < 0 || s.layer >= cfg.llm.layers || s.keep < 0 ||
                s.keep > t.tokenDrop->visual)
                return makeError(ErrorCode::BadInput,
                                 "a token-drop stage names layer " + std::to_string(s.layer) +
                                     " and " + std::to_string(s.keep) + " tokens of " +
                                     std::to_string(t.tokenDrop->visual) + ": not in this model");
    }
    for (const auto& [layer, beta] : t.skipBeta)
        if (!cfg.llm.isMoe(layer) || !(beta >= 0))
            return makeError(ErrorCode::BadInput,
                             "decoder layer " + std::to_string(layer) + " has no experts to skip");
    if (t.keepExperts && (t.keepExperts < cfg.llm.topK || t.keepExperts >= cfg.llm.experts))
        return makeError(ErrorCode::BadInput,
                         "expert pruning keeps from " + std::to_string(cfg.llm.topK) +
                             " (the router's top-k) to " + std::to_string(cfg.llm.experts - 1) +
                             " of the " + std::to_string(cfg.llm.experts) + " experts, not " +
                             std::to_string(t.keepExperts));
    if (t.keepExperts && t.freezeCold)
        return makeError(ErrorCode::BadInput,
                         "expert pruning and cold-expert freezing both take experts offline: "
                         "choose one");
    for (const auto& [layer, experts] : t.frozenExperts) {
        if (!cfg.llm.isMoe(layer))
            return makeError(ErrorCode::BadInput, "decoder layer " + std::to_string(layer) +
                                                      " has no experts to freeze");
        if (int(experts.size()) > cfg.llm.experts - cfg.llm.topK)
            return makeError(ErrorCode::BadInput,
                             "freezing that many experts leaves fewer than top-k active");
    }
    return Ok{};
}

void addPruneMetrics(std::vector<RunMetricRow>& metrics, const ChannelSummary& s) {
    metrics.push_back(
        metric("channels.removed", double(s.removed), "count",
               "vision MLP hidden channels removed, least sensitive first (|W·∂L/∂W|)"));
    metrics.push_back(
        metric("channels.kept", double(s.kept), "count", "vision MLP hidden channels kept"));
    metrics.push_back(metric("channels.sensitivity_margin", s.sensitivityMargin, "",
                             "per block, least sensitive kept minus most sensitive "
                             "removed (smallest over blocks)"));
}

void addExpertPruning(std::vector<RunMetricRow>& metrics, const ExpertPruningSummary& s) {
    for (const auto& [layer, kept] : s.kept) {
        std::string names;
        for (const int e : kept)
            names += (names.empty() ? "" : " ") + std::to_string(e);
        metrics.push_back(metric("experts.kept.layer_" + std::to_string(layer), double(kept.size()),
                                 "count", "experts kept: " + names));
        metrics.push_back(metric("experts.error.layer_" + std::to_string(layer),
                                 s.relativeError.at(layer), "ratio",
                                 "‖y_kept − y‖ / ‖y‖ of the layer's output on the baseline's "
                                 "inputs, the least over every subset of that size"));
    }
    metrics.push_back(metric("experts.released_bytes", double(s.releasedBytes), "bytes",
                             "weight storage of the pruned experts, released"));
}

void addSkipMetrics(std::vector<RunMetricRow>& metrics, const std::map<int, double>& beta) {
    for (const auto& [layer, b] : beta)
        metrics.push_back(metric("skip.beta.layer_" + std::to_string(layer), b, "ratio",
                                 "median w₂/w₁ of the baseline's tokens: a lower-ranked expert "
                                 "below β·w₁ is skipped"));
}

// W8 off the CPU: libtorch's int8 matmul on the layers it checked out on.
RunMetricRow int8MatmulMetric(const QuantSummary& s) {
    const std::string dequantised =
        "the weights are dequantised per call, the latency gain predicted";
    const std::string how =
        s.int8Matmul == "aten::_int_mm"
            ? " (activations quantised per row on the fly, per-channel "
              "symmetric int8 weights, AWQ scaling folded in)"
            : " (weight-only per-channel symmetric int8, AWQ scaling folded in)";
    std::string note =
        s.int8MatmulLayers == 0
            ? s.engineNote + "; no int8 matmul: " + s.int8MatmulWhy + "; " + dequantised
        : s.int8MatmulLayers == s.layers
            ? s.int8Matmul + " on every quantised layer" + how + ": the latency is measured"
            : s.int8Matmul + " on " + std::to_string(s.int8MatmulLayers) + " of " +
                  std::to_string(s.layers) + " layers" + how + "; on the others " + dequantised +
                  " (" + s.int8MatmulWhy + ")";
    return metric("quant.int8_kernels", s.int8MatmulLayers > 0 ? 1.0 : 0.0, "", std::move(note));
}

// Which kernels ran the quantised layers: libtorch's int8 engine or int8
// matmul (W8), its int4 matmul (W4), or none (the weights dequantised per call).
void addKernelMetrics(std::vector<RunMetricRow>& metrics, const QuantSummary& s, int bits) {
    if (bits == 4) {
        const std::string dequantised =
            "the weights are dequantised per call, the latency gain predicted";
        std::string note =
            s.int4Layers == 0 ? "no int4 kernel: " + s.int4Why + "; " + dequantised
            : s.int4Layers == s.layers
                ? s.int4Kernel + " on every quantised layer (bfloat16 activations, the AWQ "
                                 "scaling kept): the latency is measured"
                : s.int4Kernel + " on " + std::to_string(s.int4Layers) + " of " +
                      std::to_string(s.layers) + " layers (bfloat16 activations); on the others " +
                      dequantised + " (" + s.int4Why + ")";
        metrics.push_back(metric("quant.int4_kernels", s.int4Layers, "count", std::move(note)));
        return;
    }
    if (s.engine.empty() && (s.int8MatmulLayers > 0 || !s.int8MatmulWhy.empty())) {
        metrics.push_back(int8MatmulMetric(s));
        if (s.int8MatmulLayers > 0)
            metrics.push_back(metric("quant.int8_matmul_layers", s.int8MatmulLayers, "count",
                                     "decoder linears on " + s.int8Matmul));
        return;
    }
    metrics.push_back(
        metric("quant.int8_kernels", s.engine.empty() ? 0.0 : 1.0, "",
               s.engine.empty()
                   ? (s.engineNote.empty() ? std::string("no quantized engine in this libtorch")
                                           : s.engineNote) +
                         ": the weights are dequantised per call, the latency gain predicted"
                   : "quantized::linear_dynamic on libtorch's " + s.engine +
                         " engine (per-channel symmetric int8, AWQ scaling folded in): the "
                         "latency is measured; " +
                         s.engineNote));
    if (!s.engine.empty())
        metrics.push_back(metric("quant.format_bytes", double(s.formatBytes), "bytes",
                                 "the int8 format's storage, one copy: what a deployment holds"));
}

void addQuantMetrics(std::vector<RunMetricRow>& metrics, const QuantSummary& s, int bits) {
    metrics.push_back(metric("quant.layers", s.layers, "count", "decoder linears quantised"));
    metrics.push_back(
        metric("quant.fp32_bytes", double(s.fp32Bytes), "bytes", "their float32 weights"));
    const char* storage =
        !s.engine.empty() ? "their quantised storage: int8 codes, per-channel scales and zero "
                            "points, AWQ input scales"
        : s.int4Layers > 0
            ? "their quantised storage: the int4 kernel's packed codes and bfloat16 scales and "
              "zeros (packed codes, float16 scales and minimums where it does not run), AWQ "
              "input scales"
        : s.int8MatmulLayers > 0
            ? "their quantised storage: int8 codes and per-channel scales, AWQ input scales"
            : "their quantised storage: packed codes, float16 scales and minimums, AWQ input "
              "scales";
    metrics.push_back(metric("quant.bytes", double(s.quantBytes), "bytes", storage));
    addKernelMetrics(metrics, s, bits);
    metrics.push_back(metric("quant.bytes_ratio",
                             s.fp32Bytes ? double(s.quantBytes) / double(s.fp32Bytes) : 0.0,
                             "ratio", "quantised ÷ float32 bytes of the quantised layers"));
    metrics.push_back(metric("quant.mse_rtn", s.mseRtn, "",
                             "output MSE of plain round-to-nearest on the calibration "
                             "activations, summed over layers"));
    metrics.push_back(
        metric("quant.mse_awq", s.mseAwq, "",
               "output MSE with the chosen AWQ scaling, same activations, summed over layers"));
    metrics.push_back(metric("quant.mean_alpha", s.meanAlpha, "", "mean chosen AWQ exponent α"));
}
// ToMe on this image, once: the patches its tokens stand for, in order.
Status chooseTome(VlmModel& model, const PreparedCapture& prep,
                  const std::vector<int64_t>& schedule, ModelTransformOutcome& out) {
    VlmModel::Impl& m = model.impl();
    if (schedule.size() != m.vit.size() || m.visionZip)
        return makeError(ErrorCode::BadInput, "ToMe needs one r per vision block and no VisionZip");
    m.tomeSchedule = schedule;
    try {
        c10::InferenceMode inference;
        (void)model.encodeImage(modelPixels(prep), {});
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string("ToMe failed: ") + e.what());
    }
    out.visualPatches.assign(m.lastTomePatches.begin(), m.lastTomePatches.end());
    int64_t merged = 0;
    for (const int64_t r : schedule)
        merged += r;
    out.metrics.push_back(
        metric("tome.r", double(schedule.front()), "count",
               "tokens bipartite soft matching merges in the first vision block"));
    out.metrics.push_back(metric("tome.merged", double(merged), "count",
                                 "visual tokens merged away over all vision blocks"));
    out.metrics.push_back(metric("tome.tokens", double(out.visualPatches.size()), "count",
                                 "visual tokens the encoder sent (each stands for the patch it "
                                 "started as)"));
    return Ok{};
}

// VisionZip on this image, once: which patches' tokens the decoder will get
// (each run recomputes the same choice, as the method does per image).
Status chooseVisionZip(VlmModel& model, const PreparedCapture& prep, int64_t tokens,
                       ModelTransformOutcome& out) {
    auto split = visionZipSplit(prep.config.vision.patches(), tokens);
    if (!split) return split.error();
    VlmModel::Impl& m = model.impl();
    m.visionZip = *split;
    try {
        c10::InferenceMode inference;
        (void)model.encodeImage(modelPixels(prep), {});
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string("VisionZip failed: ") + e.what());
    }
    for (const int64_t p : m.lastZip.sent())
        out.visualPatches.push_back(int(p));
    out.metrics.push_back(metric("visionzip.dominant", double(split->dominant), "count",
                                 "visual tokens kept as they are: the most attended (attention "
                                 "received, mean over queries, summed over heads; no CLS token)"));
    out.metrics.push_back(metric("visionzip.contextual", double(split->contextual), "count",
                                 "contextual tokens: a target each, plus the mean of the tokens "
                                 "whose keys are closest to it"));
    out.metrics.push_back(metric("visionzip.merged", double(m.lastZip.merged.size()), "count",
                                 "visual tokens merged into the contextual ones"));
    return Ok{};
}
} // namespace

Result<ModelTransformOutcome> Capturer::transformModel(const ModelTransforms& t) {
    if (d->transformed) return makeError(ErrorCode::BadInput, "this model was already transformed");
    if (d->scripted) return transformScripted(t);
    if (auto ok = checkTransforms(t, d->prep.config); !ok) return ok.error();
    if (t.kvMethod)
        if (auto ok = checkKvMethod(*t.kvMethod, d->prep.sequenceLength - d->prep.options.steps,
                                    d->prep.config.llm.headDim(),
                                    d->prep.options.dtype == "float32" ? 4 : 2);
            !ok)
            return ok.error();
    d->transformed = true;
    auto& m = d->model->impl();
    ModelTransformOutcome out;
    TeacherForcing forcing{*d->model, d->prep, t.baselineTokens};
    try {
        if (t.pruneChannels > 0) {
            const auto s =
                pruneVisionChannels(m, t.pruneChannels, [&] { return forcing.logLikelihood(); });
            addPruneMetrics(out.metrics, s);
        }
        if (t.freezeCold) {
            int frozen = 0;
            for (const auto& [layer, experts] : t.frozenExperts)
                frozen += int(experts.size());
            const int64_t released = freezeExperts(m, t.frozenExperts);
            out.metrics.push_back(
                metric("freeze.experts", frozen, "count", "experts frozen, all layers"));
            out.metrics.push_back(metric("freeze.released_bytes", double(released), "bytes",
                                         "weight storage released by freezing (tensor sizes)"));
        }
        if (t.keepExperts)
            addExpertPruning(out.metrics, pruneExperts(m, t.keepExperts, [&] {
                                 torch::NoGradGuard noGrad;
                                 forcing.logLikelihood();
                             }));
        if (t.quantBits) {
            torch::NoGradGuard noGrad;
            // The prefill's rows: the sequence minus the visual tokens pruned away.
            const int64_t prefillRows = d->prep.sequenceLength - d->prep.options.steps;
            const auto s = quantiseDecoder(
                m, t.quantBits, t.quantGroup, t.awqGridPoints, [&] { forcing.logLikelihood(); },
                Int8Workload{prefillRows, d->prep.options.steps});
            addQuantMetrics(out.metrics, s, t.quantBits);
            out.quantised = s.modules;
            out.int8Kernels = !s.engine.empty();
            out.int4Kernels = s.int4Layers > 0;
            out.int8Matmul = s.int8MatmulLayers > 0;
        }
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal,
                         std::string("transforming the model failed: ") + e.what());
    }
    // After the calibration passes above, which see every token and expert.
    for (const auto& [layer, beta] : t.skipBeta)
        m.layers[size_t(layer)]->moe->skipBeta = beta;
    addSkipMetrics(out.metrics, t.skipBeta);
    if (t.kv) m.kvCompression = *t.kv;
    m.tokenDrop = t.tokenDrop;
    m.kvMethod = t.kvMethod;
    if (t.visionZip)
        if (auto s = chooseVisionZip(*d->model, d->prep, *t.visionZip, out); !s) return s.error();
    if (!t.tomeSchedule.empty())
        if (auto s = chooseTome(*d->model, d->prep, t.tomeSchedule, out); !s) return s.error();
    if (t.downsampleGrid > 0) {
        d->prep.pixelSide = t.downsampleGrid * d->prep.config.vision.patch;
        out.metrics.push_back(metric("downsample.side_px", d->prep.pixelSide, "px",
                                     "the side the image was resized to for the encoder"));
        out.metrics.push_back(metric("downsample.tokens",
                                     double(t.downsampleGrid) * t.downsampleGrid, "count",
                                     "visual tokens the encoder emitted (a square grid)"));
    }
    d->model->reset(); // installs the KV method on every layer's cache
    return out;
}

} // namespace mvp
