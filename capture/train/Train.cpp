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
};

// Sample i: scene (dataSeed·10⁸ + i) mod 10⁹, asked its first question of
// each kind it has (counting always), all sharing one vision pass.
class SceneStream {
public:
    SceneStream(const TrainOptions& o, int side) : o_(o), side_(side) {}

    Sample next() {
        const uint64_t i = index_++;
        lastSeed_ = (o_.dataSeed * 100'000'000ull + i) % kTrainingSeeds;
        const Scene s = makeScene(lastSeed_, {Split::Train, &o_.photos});
        Sample out;
        out.pixels = toPixels(resize(s.image, side_, side_));
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
    int side_;
    uint64_t index_ = 0;
    uint64_t lastSeed_ = 0;
};

struct SampleLoss {
    torch::Tensor loss; // mean over the questions of each one's mean cross-entropy
    int firstRight = 0, asked = 0;
};

// Teacher-forced: the logits at the prompt's last position and the answer's
// predict the answer's bytes and EOS. The image is encoded once; each
// question runs the decoder afresh over the same visual tokens.
SampleLoss sampleLoss(VlmModel& model, const Sample& s) {
    model.reset();
    const auto visual = model.project(model.encodeImage(s.pixels, {}), {});
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
    return out;
}

// Linear warm-up to the peak, then cosine decay to a tenth of it.
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
            {"scenes", std::to_string(r.scenes)},
            {"last_scene_seed", std::to_string(r.lastSceneSeed)},
            {"final_loss", loss},
            {"seconds", secs}};
}

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
    torch::optim::AdamW opt(module.parameters(),
                            torch::optim::AdamWOptions(o.lr).weight_decay(o.weightDecay));
    SceneStream stream(o, cfg->vision.imageSize);

    TrainReport report;
    double windowLoss = 0;
    int windowRight = 0, windowSamples = 0, windowSteps = 0;
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    for (int step = 0; step < o.steps && !(o.cancel && o.cancel->load()); ++step) {
        setLearningRate(opt, learningRate(o, step));
        opt.zero_grad();
        double stepLoss = 0;
        for (int b = 0; b < o.batch; ++b) {
            const SampleLoss s = sampleLoss(model, stream.next());
            (s.loss / double(o.batch)).backward();
            stepLoss += s.loss.item<double>() / o.batch;
            windowRight += s.firstRight;
            windowSamples += s.asked;
        }
        model.reset();
        torch::nn::utils::clip_grad_norm_(module.parameters(), 1.0);
        opt.step();
        report.steps = step + 1;
        report.scenes += o.batch;
        windowLoss += stepLoss;
        ++windowSteps;
        if (windowSteps == o.reportEvery || step + 1 == o.steps) {
            const double mean = windowLoss / windowSteps;
            if (report.firstLoss == 0) report.firstLoss = mean;
            report.lastLoss = mean;
            if (progress)
                progress({step + 1, o.steps, mean, double(windowRight) / windowSamples, elapsed()});
            windowLoss = 0;
            windowRight = windowSamples = windowSteps = 0;
        }
    }
    report.seconds = elapsed();
    report.lastSceneSeed = stream.lastSeed();
    module.eval();
    report.metadata = checkpointMetadata(o, *cfg, report);
    if (auto s = model.saveWeights(o.out, report.metadata); !s) return s.error();
    return report;
}

} // namespace mvp
