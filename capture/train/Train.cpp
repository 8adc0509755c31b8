#include "capture/train/Train.h"

#include "capture/machine/SystemInfo.h"
#include "capture/models/Pixels.h"
#include "capture/models/Vlm.h"
#include "capture/models/VlmLayers.h"
#include "core/eval/Scenes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace mvp {

namespace {

using namespace scenes;

// Scene seeds at or above this are never trained on (make-set's default).
constexpr uint64_t kTrainingSeeds = 1'000'000'000;
constexpr QuestionKind kKinds[] = {QuestionKind::Colour, QuestionKind::ShapeOfColour,
                                   QuestionKind::Count, QuestionKind::LeftRight};

struct Asked {
    std::vector<int> prompt; // bytes
    std::vector<int> target; // the answer's bytes, then EOS
};

struct Sample {
    torch::Tensor pixels;
    std::vector<Asked> questions; // one of each kind the scene can be asked
    // Per patch (row-major): colour 0 none / 1 + Colour, shape 0 none /
    // 1 + Shape, 1 where an object's centre lies (int64 [patches] each).
    torch::Tensor patchColour, patchShape, patchCentre;
};

constexpr int64_t kColourClasses = 5, kShapeClasses = 4, kCentreClasses = 2;

void labelPatches(Sample& out, const Scene& s, int grid) {
    const auto cells = cellLabels(s, grid);
    std::vector<int64_t> colour, shape, centre;
    for (const CellLabel& c : cells) {
        const Object* o = c.object ? &s.objects[size_t(*c.object)] : nullptr;
        colour.push_back(o ? 1 + int64_t(o->colour) : 0);
        shape.push_back(o ? 1 + int64_t(o->shape) : 0);
        centre.push_back(c.holdsCentre ? 1 : 0);
    }
    out.patchColour = torch::tensor(colour, torch::kLong);
    out.patchShape = torch::tensor(shape, torch::kLong);
    out.patchCentre = torch::tensor(centre, torch::kLong);
}

// Sample i: scene (dataSeed·10⁸ + i) mod 10⁹, asked its first question of
// each kind it has (counting always), all sharing one vision pass.
class SceneStream {
public:
    SceneStream(const TrainOptions& o, int side, int grid) : o_(o), side_(side), grid_(grid) {}

    Sample next() {
        const uint64_t i = index_++;
        lastSeed_ = (o_.dataSeed * 100'000'000ull + i) % kTrainingSeeds;
        const Scene s = makeScene(lastSeed_, {Split::Train, &o_.photos});
        Sample out;
        out.pixels = toPixels(resize(s.image, side_, side_));
        labelPatches(out, s, grid_);
        for (QuestionKind kind : kKinds) {
            const auto q = std::find_if(s.questions.begin(), s.questions.end(),
                                        [&](const Question& q) { return q.kind == kind; });
            if (q == s.questions.end()) continue;
            Asked a{tokens::encode(q->prompt), tokens::encode(q->answer)};
            a.target.push_back(tokens::kEos);
            out.questions.push_back(std::move(a));
        }
        return out;
    }
    uint64_t lastSeed() const { return lastSeed_; }

private:
    const TrainOptions& o_;
    int side_, grid_;
    uint64_t index_ = 0;
    uint64_t lastSeed_ = 0;
};

struct SampleLoss {
    torch::Tensor loss; // mean over the questions of each one's mean cross-entropy, + the probe's
    int firstRight = 0, asked = 0;
    int objectPatches = 0, colourRight = 0, shapeRight = 0; // the probe, on patches with an object
};

// The probe's loss: mean of the three per-patch cross-entropies; `out`
// counts how often it names the colour and shape of a patch with an object.
torch::Tensor probeLoss(torch::nn::Linear& probe, const torch::Tensor& features, const Sample& s,
                        SampleLoss& out) {
    namespace F = torch::nn::functional;
    const auto logits = probe(features);
    {
        torch::NoGradGuard noGrad;
        const auto object = s.patchShape.gt(0);
        out.objectPatches += int(object.sum().item<int64_t>());
        out.colourRight += int((logits.narrow(1, 0, kColourClasses).argmax(1).eq(s.patchColour) &
                                object).sum().item<int64_t>());
        out.shapeRight +=
            int((logits.narrow(1, kColourClasses, kShapeClasses).argmax(1).eq(s.patchShape) &
                 object).sum().item<int64_t>());
    }
    // The shape is asked of the patches an object covers only: they are a
    // tenth of the grid, and averaged over all of it their loss would vanish.
    const auto covered = s.patchShape.gt(0).nonzero().squeeze(1);
    const auto shapeLogits = logits.narrow(1, kColourClasses, kShapeClasses).index_select(0, covered);
    const auto shapeLoss =
        covered.numel() > 0
            ? F::cross_entropy(shapeLogits, s.patchShape.index_select(0, covered))
            : torch::zeros({});
    return (F::cross_entropy(logits.narrow(1, 0, kColourClasses), s.patchColour) + shapeLoss +
            F::cross_entropy(logits.narrow(1, kColourClasses + kShapeClasses, kCentreClasses),
                             s.patchCentre)) /
           3.0;
}

// Teacher-forced: the logits at the prompt's last position and the answer's
// predict the answer's bytes and EOS. The image is encoded once; each
// question runs the decoder afresh over the same visual tokens.
SampleLoss sampleLoss(VlmModel& model, torch::nn::Linear& probe, double auxWeight,
                      const Sample& s) {
    model.reset();
    const auto features = model.encodeImage(s.pixels, {});
    const auto visual = model.project(features, {});
    SampleLoss out;
    std::vector<torch::Tensor> losses;
    for (const auto& q : s.questions) {
        model.reset();
        std::vector<int> ids{tokens::kBos};
        ids.insert(ids.end(), q.prompt.begin(), q.prompt.end());
        ids.insert(ids.end(), q.target.begin(), q.target.end() - 1);
        const auto logits = model.forward(ids, visual, 1, {}, /*allPositions=*/true);
        const int64_t first = visual.size(0) + int64_t(q.prompt.size());
        const auto rows = logits.narrow(0, first, int64_t(q.target.size()));
        const auto labels =
            torch::tensor(std::vector<int64_t>(q.target.begin(), q.target.end()), torch::kLong);
        losses.push_back(torch::nn::functional::cross_entropy(rows, labels));
        out.firstRight += rows[0].argmax().item<int64_t>() == labels[0].item<int64_t>();
        ++out.asked;
    }
    out.loss = torch::stack(losses).mean();
    if (auxWeight > 0) out.loss = out.loss + auxWeight * probeLoss(probe, features, s, out);
    return out;
}

// The encoder's stage: the probe's loss alone, no question asked.
SampleLoss visionLoss(VlmModel& model, torch::nn::Linear& probe, const Sample& s) {
    SampleLoss out;
    out.loss = probeLoss(probe, model.encodeImage(s.pixels, {}), s, out);
    return out;
}

// The encoder's stage: linear warm-up to the peak, then the peak.
double visionLearningRate(const TrainOptions& o, int step) {
    return o.lr * std::min(1.0, double(step + 1) / double(std::max(1, o.warmupSteps)));
}

// The answers' stage: linear warm-up to the peak, then cosine decay to a tenth of it.
double learningRate(const TrainOptions& o, int step) {
    if (step < o.warmupSteps) return o.lr * double(step + 1) / double(o.warmupSteps);
    const double t = double(step - o.warmupSteps) / double(std::max(1, o.steps - o.warmupSteps));
    return o.lr * (0.1 + 0.9 * 0.5 * (1 + std::cos(M_PI * std::min(1.0, t))));
}

void setLearningRate(torch::optim::AdamW& opt, double lr) {
    for (auto& group : opt.param_groups())
        static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
}

Status checkOptions(const TrainOptions& o) {
    if (o.steps < 1 || o.batch < 1)
        return makeError(ErrorCode::BadInput, "--steps and --batch must be at least 1");
    if (!(o.lr > 0) || o.lr > 1) return makeError(ErrorCode::BadInput, "--lr must lie in (0, 1]");
    if (o.out.empty()) return makeError(ErrorCode::BadInput, "no checkpoint to write: pass --out");
    if (o.dataSeed >= 10) return makeError(ErrorCode::BadInput, "--data-seed must lie in [0, 9]");
    if (!(o.auxWeight >= 0)) return makeError(ErrorCode::BadInput, "--aux-weight must be >= 0");
    if (o.visionSteps < 0) return makeError(ErrorCode::BadInput, "--vision-steps must be >= 0");
    if (o.visionSteps > 0 && o.auxWeight <= 0)
        return makeError(ErrorCode::BadInput, "--vision-steps trains the probe: --aux-weight > 0");
    return Ok{};
}

std::map<std::string, std::string> checkpointMetadata(const TrainOptions& o, const VlmConfig& c,
                                                      const TrainReport& r) {
    char loss[32];
    std::snprintf(loss, sizeof loss, "%.4f", r.lastLoss);
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.0f", r.seconds);
    return {{"format", "pt"},
            {"model", c.preset},
            {"trained_by", "mvprof-cli train"},
            {"init_seed", std::to_string(c.seed)},
            {"data_seed", std::to_string(o.dataSeed)},
            {"steps", std::to_string(r.steps)},
            {"batch", std::to_string(o.batch)},
            {"lr", std::to_string(o.lr)},
            {"aux_weight", std::to_string(o.auxWeight)},
            {"vision_steps", std::to_string(o.visionSteps)},
            {"scenes", std::to_string(r.scenes)},
            {"last_scene_seed", std::to_string(r.lastSceneSeed)},
            {"final_loss", loss},
            {"seconds", secs}};
}

// Means over the last `reportEvery` steps, handed to `progress`.
class ProgressWindow {
public:
    ProgressWindow(const TrainOptions& o, const std::function<void(const TrainProgress&)>& progress)
        : o_(o), progress_(progress), start_(std::chrono::steady_clock::now()) {}
    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }
    void add(const SampleLoss& s, int batch) {
        c_.loss += s.loss.item<double>() / batch;
        c_.right += s.firstRight, c_.asked += s.asked;
        c_.patches += s.objectPatches, c_.colour += s.colourRight, c_.shape += s.shapeRight;
    }
    void endStep(TrainReport& report) {
        ++report.steps;
        ++c_.steps;
        const int total = o_.visionSteps + o_.steps;
        if (c_.steps < o_.reportEvery && report.steps < total) return;
        const double mean = c_.loss / c_.steps;
        if (report.firstLoss == 0) report.firstLoss = mean;
        report.lastLoss = mean;
        const double patches = std::max(1, c_.patches);
        if (progress_)
            progress_({report.steps, total, mean, c_.asked ? double(c_.right) / c_.asked : 0.0,
                       elapsed(), c_.colour / patches, c_.shape / patches,
                       report.steps <= o_.visionSteps});
        c_ = {};
    }

private:
    struct Counts {
        double loss = 0;
        int steps = 0, right = 0, asked = 0, patches = 0, colour = 0, shape = 0;
    };
    const TrainOptions& o_;
    const std::function<void(const TrainProgress&)>& progress_;
    std::chrono::steady_clock::time_point start_;
    Counts c_;
};

} // namespace

Result<TrainReport> trainModel(const TrainOptions& o,
                               const std::function<void(const TrainProgress&)>& progress) {
    if (auto s = checkOptions(o); !s) return s.error();
    PresetOverrides overrides = o.overrides;
    if (!overrides.weights) overrides.seed = overrides.seed.value_or(0); // never the bundled file
    auto cfg = presetConfig(o.model, overrides);
    if (!cfg) return cfg.error();
    if (o.threads > 0) {
        at::set_num_threads(o.threads);
        sysinfo::setBlasThreads(o.threads);
    }
    torch::manual_seed(int64_t(cfg->seed));
    VlmModel model(*cfg);
    if (!cfg->weights.path.empty())
        if (auto sha = model.loadWeights(cfg->weights); !sha) return sha.error();
    auto& module = model.impl();
    module.train();
    torch::nn::Linear probe(cfg->vision.dim, kColourClasses + kShapeClasses + kCentreClasses);
    auto parameters = module.parameters();
    if (o.auxWeight > 0)
        for (const auto& p : probe->parameters())
            parameters.push_back(p);
    torch::optim::AdamW opt(parameters,
                            torch::optim::AdamWOptions(o.lr).weight_decay(o.weightDecay));
    SceneStream stream(o, cfg->vision.imageSize, cfg->vision.gridSide());

    TrainReport report;
    ProgressWindow window(o, progress);
    const auto step = [&](bool visionOnly, double lr) {
        setLearningRate(opt, lr);
        opt.zero_grad();
        for (int b = 0; b < o.batch; ++b) {
            const Sample sample = stream.next();
            const SampleLoss s = visionOnly ? visionLoss(model, probe, sample)
                                            : sampleLoss(model, probe, o.auxWeight, sample);
            (s.loss / double(o.batch)).backward();
            window.add(s, o.batch);
        }
        model.reset();
        torch::nn::utils::clip_grad_norm_(parameters, 1.0);
        opt.step();
        report.scenes += o.batch;
        window.endStep(report);
    };
    const auto stopped = [&] { return o.cancel && o.cancel->load(); };
    for (int s = 0; s < o.visionSteps && !stopped(); ++s)
        step(true, visionLearningRate(o, s));
    for (int s = 0; s < o.steps && !stopped(); ++s)
        step(false, learningRate(o, s));
    report.seconds = window.elapsed();
    report.lastSceneSeed = stream.lastSeed();
    module.eval();
    report.metadata = checkpointMetadata(o, *cfg, report);
    if (auto s = model.saveWeights(o.out, report.metadata); !s) return s.error();
    return report;
}

} // namespace mvp
