#include "capture/run/EvalWhatIf.h"

#include "capture/run/EvalRuns.h"
#include "core/image/Image.h"
#include "core/session/SessionReader.h"

namespace mvp {

namespace {

Status refuseUnplannable(const WhatIfRequest& r) {
    if (r.has(Method::PruneVisual) && r.options.saliency == SaliencySource::Saliency)
        return makeError(ErrorCode::BadInput,
                         "--saliency saliency needs every item's per-head attention maps; over an "
                         "eval set rank the patches by attention or feature-norm");
    for (const Method m : {Method::VisionZip, Method::ToMe})
        if (r.has(m))
            return makeError(ErrorCode::BadInput,
                             std::string(methodSpec(m).name) +
                                 " chooses its tokens inside the encoder, image by image; eval "
                                 "what-ifs do not run it yet (run it on one image without --eval)");
    return Ok{};
}

// Methods whose plan chooses patches from the baseline's attention: per item,
// from that item's own baseline pass.
bool plansFromItemAttention(const WhatIfRequest& r) {
    return r.has(Method::PruneVisual);
}

// Every item's image decoded and prompt checked against the context before
// anything is written: a bad item is an error naming its line.
Status checkItems(const PreparedCapture& prep, const EvalSet& set) {
    PreparedCapture scratch = prep;
    for (const auto& item : set.items)
        if (auto s = setInput(scratch, item.image, item.prompt); !s)
            return makeError(s.error().code, set.path + ":" + std::to_string(item.line) + ": " +
                                                 s.error().message);
    return Ok{};
}

// The baseline's model, and the what-if's: the same one when the transforms
// leave the model as it is, else a second one, rewritten.
struct Models {
    std::unique_ptr<Capturer> baseline, transformed;
    ModelTransformOutcome outcome;
    Capturer& whatIf() { return transformed ? *transformed : *baseline; }
};

Result<Models> buildModels(const PreparedCapture& prep, const ModelTransforms& mt) {
    Models m;
    auto base = Capturer::create(prep);
    if (!base) return base.error();
    m.baseline = std::move(base.value());
    if (!mt.touchesModel()) return m;
    auto other = Capturer::create(prep);
    if (!other) return other.error();
    m.transformed = std::move(other.value());
    auto outcome = m.transformed->transformModel(mt);
    if (!outcome) return outcome.error();
    m.outcome = std::move(outcome.value());
    return m;
}

// What planning reads of the baseline, without its spans, ops and maps; an
// item's attention and visual features then replace the capture's.
RunData planningBase(const RunData& base) {
    RunData d;
    d.run = base.run;
    d.modules = base.modules;
    d.tokens = base.tokens;
    d.grid = base.grid;
    d.routing = base.routing;
    d.stepOutputs = base.stepOutputs;
    d.runMetrics = base.runMetrics;
    d.visionFeatures = base.visionFeatures;
    d.experts = base.experts, d.topK = base.topK, d.llmDim = base.llmDim;
    d.llmHeads = base.llmHeads;
    return d;
}

void useItemObservation(RunData& d, const ItemPass& pass) {
    d.attention.clear(), d.attentionPrefill.clear(), d.attentionDecode.clear();
    d.answerAttention.clear();
    d.visionFeatures = pass.visionFeatures;
    for (const auto& r : pass.patchMetrics) {
        auto& into = r.metric == "attention"          ? d.attention
                     : r.metric == "attention.prefill" ? d.attentionPrefill
                     : r.metric == "attention.decode"  ? d.attentionDecode
                                                       : d.answerAttention;
        into.push_back(r);
    }
}

// Where the observed pass looked, on the model's patch grid; none without one.
std::optional<EvalItemHeatmap> itemHeatmap(const std::optional<ItemPass>& pass,
                                           const EvalItem& item, PatchGridSize grid) {
    if (!pass) return std::nullopt;
    return answerAttentionHeatmap(pass->patchMetrics, item.image, grid.rows, grid.cols);
}

EvalItemRow itemRow(int index, const EvalItem& item, const ItemPass& pass,
                    const std::vector<int>& kept) {
    return evalItemRow(index, item, pass.text, pass.visualTokens, kept, pass.times);
}

// One item through both arms: the baseline (observed where the plan needs
// its attention or a heatmap is kept, then timed), the what-if with the
// item's own plan (observed for its heatmap, then timed).
struct ItemArms {
    ItemPass baseline, whatIf;
    std::vector<int> kept;
    std::optional<ItemPass> observedBaseline, observedWhatIf;
};

struct ItemRun {
    const WhatIfRequest& request;
    const WhatIfPlan& plan;
    const VlmConfig& config;
    bool heatmaps = false; // observe each arm's attention in an extra pass
};

Result<ItemArms> runItem(Models& models, const EvalItem& item, const ItemRun& how,
                         RunData& itemBase) {
    ItemArms out;
    ItemObservation logits;
    logits.logits = true;
    ItemObservation observe = logits;
    observe.attention = true;
    RunTransform whatIfPass;
    whatIfPass.keepPatches = out.kept = how.plan.run.keepPatches; // a fixed choice (--downsample)
    if (how.heatmaps || plansFromItemAttention(how.request)) {
        auto observed = models.baseline->itemPass(item.image, item.prompt, {}, observe);
        if (!observed) return observed.error();
        out.observedBaseline = std::move(observed.value());
    }
    if (plansFromItemAttention(how.request)) {
        useItemObservation(itemBase, *out.observedBaseline);
        auto itemPlan = planWhatIf(how.request, itemBase, how.config);
        if (!itemPlan) return itemPlan.error();
        whatIfPass.keepPatches = out.kept = itemPlan->run.keepPatches;
    }
    if (how.heatmaps) {
        auto observed = models.whatIf().itemPass(item.image, item.prompt, whatIfPass, observe);
        if (!observed) return observed.error();
        out.observedWhatIf = std::move(observed.value());
    }
    auto base = models.baseline->itemPass(item.image, item.prompt, {}, logits);
    if (!base) return base.error();
    out.baseline = std::move(base.value());
    auto w = models.whatIf().itemPass(item.image, item.prompt, whatIfPass, logits);
    if (!w) return w.error();
    out.whatIf = std::move(w.value());
    return out;
}

} // namespace

Result<EvalWhatIfRuns> runEvalWhatIf(const std::string& path, const WhatIfBaseline& baseline,
                                     const WhatIfRequest& request, const EvalSet& set,
                                     const EvalWhatIfOptions& eval) {
    if (set.items.empty()) return makeError(ErrorCode::BadInput, set.path + ": no items");
    if (auto s = refuseUnplannable(request); !s) return s.error();
    CaptureOptions options = baseline.options;
    options.imageData.reset();
    auto prep = prepareCapture(options);
    if (!prep) return prep.error();
    if (auto s = setInput(*prep, set.items.front().image, set.items.front().prompt); !s)
        return makeError(s.error().code, set.path + ":" +
                                             std::to_string(set.items.front().line) + ": " +
                                             s.error().message);
    if (auto s = checkItems(*prep, set); !s) return s.error();
    auto plan = planWhatIf(request, baseline.data, prep->config);
    if (!plan) return plan.error();
    auto sha = fileSha256(set.path);
    if (!sha) return sha.error();
    auto models = buildModels(*prep, plan->model);
    if (!models) return models.error();
    // Warm-up: the first passes pay for allocations no later item pays for.
    (void)models->baseline->timedPass();
    if (models->transformed) (void)models->transformed->timedPass();

    RunTransform baseRun;
    baseRun.label = "eval baseline";
    baseRun.baselineRun = baseline.info.id;
    RunTransform whatIfRun = plan->run;
    const EvalSetRow setRow{set.path, *sha, int(set.items.size())};
    auto runs = EvalRuns::begin(path, models->baseline->runInfo(false, baseRun),
                                models->whatIf().runInfo(false, whatIfRun), setRow,
                                models->outcome.metrics);
    if (!runs) return runs.error();
    RunData itemBase = planningBase(baseline.data);
    const ItemRun how{request, *plan, prep->config, eval.itemHeatmaps};
    const PatchGridSize grid = patchGridOf(*prep);
    int done = 0;
    for (const auto& item : set.items) {
        if (options.cancel && options.cancel->load()) break;
        auto arms = runItem(*models, item, how, itemBase);
        if (!arms) {
            const std::string message =
                set.path + ":" + std::to_string(item.line) + ": " + arms.error().message;
            (void)runs->end(RunStatus::Failed, message);
            return makeError(arms.error().code, message);
        }
        // A stop asked for during the item cut its decode short: not an answer to keep.
        if (options.cancel && options.cancel->load()) break;
        EvalItemRow w = itemRow(done, item, arms->whatIf, arms->kept);
        addFidelity(w, arms->baseline.steps, arms->whatIf.steps);
        EvalItemRow b = itemRow(done, item, arms->baseline, {});
        if (how.heatmaps) {
            b.heatmap = itemHeatmap(arms->observedBaseline, item, grid);
            w.heatmap = itemHeatmap(arms->observedWhatIf, item, grid);
        }
        if (auto s = runs->add(std::move(b), std::move(w)); !s) {
            (void)runs->end(RunStatus::Failed, s.error().message);
            return s.error();
        }
        ++done;
        if (eval.progress) eval.progress(done, int(set.items.size()));
    }
    const bool complete = done == int(set.items.size());
    if (auto s = runs->end(complete ? RunStatus::Complete : RunStatus::Incomplete,
                           complete ? std::string() : "stopped after " + std::to_string(done) +
                                                          " of " +
                                                          std::to_string(set.items.size()) +
                                                          " items");
        !s)
        return s.error();
    auto reader = SessionReader::open(path);
    if (!reader) return reader.error();
    EvalWhatIfRuns out;
    for (auto [id, into] : {std::pair{runs->ids()[0], &out.baseline},
                            std::pair{runs->ids()[1], &out.whatIf}}) {
        auto data = loadRunData(**reader, id);
        if (!data) return data.error();
        *into = std::move(data.value());
    }
    return out;
}

} // namespace mvp
