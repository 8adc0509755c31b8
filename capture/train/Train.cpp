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
#include <exception>
#include <filesystem>
#include <memory>
#include <thread>

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
    // The patches of the object asked about (row-major; empty for counting).
    std::vector<int64_t> objectPatches;
};

struct Sample {
    torch::Tensor pixels;
    std::vector<Asked> questions; // one of each kind the scene can be asked
    // Per patch (row-major): colour 0 none / 1 + Colour, shape 0 none /
    // 1 + Shape, where an object's centre lies 0 nowhere / 1 in the left
    // half / 2 in the right half, the patch's column (int64 [patches] each).
    torch::Tensor patchColour, patchShape, patchCentre, patchColumn;
};

constexpr int64_t kColourClasses = 5, kShapeClasses = 4, kCentreClasses = 3;

void labelPatches(Sample& out, const Scene& s, const std::vector<CellLabel>& cells, int grid) {
    std::vector<int64_t> colour, shape, centre, column;
    for (size_t i = 0; i < cells.size(); ++i) {
        const CellLabel& c = cells[i];
        const Object* o = c.object ? &s.objects[size_t(*c.object)] : nullptr;
        colour.push_back(o ? 1 + int64_t(o->colour) : 0);
        shape.push_back(o ? 1 + int64_t(o->shape) : 0);
        const int col = int(i % size_t(grid));
        centre.push_back(c.holdsCentre ? (col < grid / 2 ? 1 : 2) : 0);
        column.push_back(col);
    }
    out.patchColour = torch::tensor(colour, torch::kLong);
    out.patchShape = torch::tensor(shape, torch::kLong);
    out.patchCentre = torch::tensor(centre, torch::kLong);
    out.patchColumn = torch::tensor(column, torch::kLong);
}

// The cells the object mostly covers (cellLabels' rule); for an object too
// small to own one, the cells its box touches.
std::vector<int64_t> objectPatches(const Scene& s, const std::vector<CellLabel>& cells, int object,
                                   int grid) {
    std::vector<int64_t> owned, touched;
    const Box& b = s.objects[size_t(object)].box;
    const int cell = kSceneSize / grid;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].object == object) owned.push_back(int64_t(i));
        const int x0 = int(i % size_t(grid)) * cell, y0 = int(i / size_t(grid)) * cell;
        if (b.x0 < x0 + cell && x0 < b.x1 && b.y0 < y0 + cell && y0 < b.y1)
            touched.push_back(int64_t(i));
    }
    return owned.empty() ? touched : owned;
}

// Sample i: scene (dataSeed·10⁸ + i) mod 10⁹, asked its first question of
// each kind it has (counting always; colour and shape when i is a multiple
// of colourShapeEvery), all sharing one vision pass. Samples
// are made by index, so workers can make theirs concurrently.
class SceneStream {
public:
    SceneStream(const TrainOptions& o, int side, int grid) : o_(o), side_(side), grid_(grid) {}

    uint64_t seedOf(uint64_t i) const {
        return (o_.dataSeed * 100'000'000ull + i) % kTrainingSeeds;
    }

    Sample at(uint64_t i) const {
        const Scene s = makeScene(seedOf(i), {Split::Train, &o_.photos});
        Sample out;
        out.pixels = toPixels(resize(s.image, side_, side_));
        const auto cells = cellLabels(s, grid_);
        labelPatches(out, s, cells, grid_);
        for (QuestionKind kind : kKinds) {
            if (!asks(kind, i)) continue;
            const auto q = std::find_if(s.questions.begin(), s.questions.end(),
                                        [&](const Question& q) { return q.kind == kind; });
            if (q == s.questions.end()) continue;
            Asked a{tokens::encode(q->prompt), tokens::encode(q->answer), {}};
            a.target.push_back(tokens::kEos);
            if (q->object) a.objectPatches = objectPatches(s, cells, *q->object, grid_);
            out.questions.push_back(std::move(a));
        }
        return out;
    }

private:
    bool asks(QuestionKind kind, uint64_t i) const {
        const bool recognition =
            kind == QuestionKind::Colour || kind == QuestionKind::ShapeOfColour;
        return !recognition || i % uint64_t(o_.colourShapeEvery) == 0;
    }

    const TrainOptions& o_;
    int side_, grid_;
};

struct SampleLoss {
    torch::Tensor loss; // mean over the questions of each one's mean cross-entropy, + the probe's
    int firstRight = 0, asked = 0;
    int objectPatches = 0, colourRight = 0, shapeRight = 0; // the probe, on patches with an object
    int patches = 0, columnRight = 0;                       // the probe's column, on every patch
    double lookShare = 0; // summed over the questions about one object (lookAsked)
    int lookAsked = 0;
};

// The probe's loss: mean of the four per-patch cross-entropies; `out`
// counts how often it names the colour and shape of a patch with an object,
// and any patch's column.
torch::Tensor probeLoss(torch::nn::Linear& probe, const torch::Tensor& features, const Sample& s,
                        SampleLoss& out) {
    namespace F = torch::nn::functional;
    const auto logits = probe(features);
    constexpr int64_t kColumnFirst = kColourClasses + kShapeClasses + kCentreClasses;
    const auto columnLogits = logits.narrow(1, kColumnFirst, logits.size(1) - kColumnFirst);
    {
        torch::NoGradGuard noGrad;
        const auto object = s.patchShape.gt(0);
        out.objectPatches += int(object.sum().item<int64_t>());
        out.colourRight +=
            int((logits.narrow(1, 0, kColourClasses).argmax(1).eq(s.patchColour) & object)
                    .sum()
                    .item<int64_t>());
        out.shapeRight += int(
            (logits.narrow(1, kColourClasses, kShapeClasses).argmax(1).eq(s.patchShape) & object)
                .sum()
                .item<int64_t>());
        out.patches += int(s.patchColumn.numel());
        out.columnRight += int(columnLogits.argmax(1).eq(s.patchColumn).sum().item<int64_t>());
    }
    // The shape is asked of the patches an object covers only: they are a
    // tenth of the grid, and averaged over all of it their loss would vanish.
    const auto covered = s.patchShape.gt(0).nonzero().squeeze(1);
    const auto shapeLogits =
        logits.narrow(1, kColourClasses, kShapeClasses).index_select(0, covered);
    const auto shapeLoss =
        covered.numel() > 0 ? F::cross_entropy(shapeLogits, s.patchShape.index_select(0, covered))
                            : torch::zeros({});
    // The column: the encoder's position embedding survives to its output
    // only if something asks for it, and the left/right question needs the
    // decoder to read where the patches it attends to lie.
    return (F::cross_entropy(logits.narrow(1, 0, kColourClasses), s.patchColour) + shapeLoss +
            F::cross_entropy(logits.narrow(1, kColourClasses + kShapeClasses, kCentreClasses),
                             s.patchCentre) +
            F::cross_entropy(columnLogits, s.patchColumn)) /
           4.0;
}

// Where the answer looked: the share of the answering queries' attention to
// the visual tokens (summed over layers, mean over heads — the
// answer_attention of docs/diagnostics.md §2) that falls on the asked
// object's patches. `perLayer` holds each layer's [heads, rows, visual].
torch::Tensor lookShare(const std::vector<torch::Tensor>& perLayer,
                        const std::vector<int64_t>& objectPatches) {
    const auto heat = torch::stack(perLayer).mean(1).sum(at::IntArrayRef{0, 1}); // [visual]
    const auto on = heat.index_select(0, torch::tensor(objectPatches, torch::kLong)).sum();
    return on / heat.sum().clamp_min(1e-12);
}

// Teacher-forced: the logits at the prompt's last position and the answer's
// predict the answer's bytes and EOS. The image is encoded once, and the
// questions run as branches of one decoder pass over [BOS, visual tokens]
// (VlmModel::forwardBranches: each sees the prefix and itself, as if run
// alone, for a quarter of the calls). Those same positions are the queries
// that generate the answer: with `lookWeight`, −log of the share of their
// visual attention on the asked object is added (questions about one object
// only).
SampleLoss sampleLoss(VlmModel& model, torch::nn::Linear& probe, const TrainOptions& o,
                      const Sample& s) {
    model.reset();
    const auto features = model.encodeImage(s.pixels, {});
    const auto visual = model.project(features, {});
    const int64_t nVisual = visual.size(0), prefix = 1 + nVisual;
    std::vector<std::vector<int>> branches;
    std::vector<int64_t> firstRow; // each question's first answering row
    int64_t rowsSoFar = prefix;
    for (const auto& q : s.questions) {
        std::vector<int> ids(q.prompt);
        ids.insert(ids.end(), q.target.begin(), q.target.end() - 1);
        firstRow.push_back(rowsSoFar + int64_t(q.prompt.size()) - 1);
        rowsSoFar += int64_t(ids.size());
        branches.push_back(std::move(ids));
    }
    std::vector<torch::Tensor> attention; // per layer: every row × the visual columns
    ForwardHooks hooks;
    hooks.attention = [&](int, const torch::Tensor& probs, int, const KvCache&) {
        attention.push_back(probs.narrow(2, 1, nVisual));
    };
    const auto logits = model.forwardBranches({tokens::kBos}, visual, branches, hooks);
    SampleLoss out;
    std::vector<torch::Tensor> losses, looks;
    for (size_t i = 0; i < s.questions.size(); ++i) {
        const Asked& q = s.questions[i];
        const auto answering = int64_t(q.target.size());
        const auto rows = logits.narrow(0, firstRow[i], answering);
        const auto labels =
            torch::tensor(std::vector<int64_t>(q.target.begin(), q.target.end()), torch::kLong);
        losses.push_back(torch::nn::functional::cross_entropy(rows, labels));
        out.firstRight += rows[0].argmax().item<int64_t>() == labels[0].item<int64_t>();
        ++out.asked;
        if (q.objectPatches.empty()) continue;
        std::vector<torch::Tensor> answeringAttention;
        for (const auto& layer : attention)
            answeringAttention.push_back(layer.narrow(1, firstRow[i], answering));
        const auto share = lookShare(answeringAttention, q.objectPatches);
        out.lookShare += share.item<double>();
        ++out.lookAsked;
        if (o.lookWeight > 0) looks.push_back(-torch::log(share.clamp_min(1e-6)));
    }
    out.loss = torch::stack(losses).mean();
    if (!looks.empty()) out.loss = out.loss + o.lookWeight * torch::stack(looks).mean();
    if (o.auxWeight > 0) out.loss = out.loss + o.auxWeight * probeLoss(probe, features, s, out);
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
    if (!(o.lookWeight >= 0)) return makeError(ErrorCode::BadInput, "--look-weight must be >= 0");
    if (o.colourShapeEvery < 1)
        return makeError(ErrorCode::BadInput, "--colour-shape-every must be at least 1");
    if (o.visionSteps < 0) return makeError(ErrorCode::BadInput, "--vision-steps must be >= 0");
    if (o.workers < 1 || o.workers > o.batch)
        return makeError(ErrorCode::BadInput, "--workers must lie in [1, --batch]");
    if (o.visionSteps > 0 && o.auxWeight <= 0)
        return makeError(ErrorCode::BadInput, "--vision-steps trains the probe: --aux-weight > 0");
    return Ok{};
}

// `startSha`: the SHA-256 of the checkpoint training continued from ("" for
// the seeded initialisation), so a file says what it was made from.
std::map<std::string, std::string> checkpointMetadata(const TrainOptions& o, const VlmConfig& c,
                                                      const TrainReport& r,
                                                      const std::string& startSha) {
    char loss[32];
    std::snprintf(loss, sizeof loss, "%.4f", r.lastLoss);
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.0f", r.seconds);
    std::map<std::string, std::string> m{
            {"format", "pt"},
            {"model", c.preset},
            {"trained_by", "mvprof-cli train"},
            {"init_seed", std::to_string(c.seed)},
            {"data_seed", std::to_string(o.dataSeed)},
            {"steps", std::to_string(r.steps)},
            {"batch", std::to_string(o.batch)},
            {"lr", std::to_string(o.lr)},
            {"aux_weight", std::to_string(o.auxWeight)},
            {"look_weight", std::to_string(o.lookWeight)},
            {"vision_steps", std::to_string(o.visionSteps)},
            {"workers", std::to_string(o.workers)},
            {"colour_shape_every", std::to_string(o.colourShapeEvery)},
            {"scenes", std::to_string(r.scenes)},
            {"last_scene_seed", std::to_string(r.lastSceneSeed)},
            {"final_loss", loss},
            {"seconds", secs}};
    if (!startSha.empty()) {
        m["continued_from"] = std::filesystem::path(c.weights.path).filename().string();
        m["continued_from_sha256"] = startSha;
    }
    return m;
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
        c_.cells += s.patches, c_.column += s.columnRight;
        c_.look += s.lookShare, c_.looked += s.lookAsked;
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
                       c_.column / std::max(1.0, double(c_.cells)),
                       c_.looked ? c_.look / c_.looked : 0.0, report.steps <= o_.visionSteps});
        c_ = {};
    }

private:
    struct Counts {
        double loss = 0;
        int steps = 0, right = 0, asked = 0, patches = 0, colour = 0, shape = 0;
        int cells = 0, column = 0;
        double look = 0;
        int looked = 0;
    };
    const TrainOptions& o_;
    const std::function<void(const TrainProgress&)>& progress_;
    std::chrono::steady_clock::time_point start_;
    Counts c_;
};

// One worker's copy of the model and the probe. Each trains on its share of
// a step's scenes in its own thread; the others' gradients are summed into
// the first replica's in worker order (so a run is reproducible for a given
// worker count), the first steps, and the others copy its weights.
struct Replica {
    std::unique_ptr<VlmModel> model;
    torch::nn::Linear probe{nullptr};
    std::vector<torch::Tensor> parameters; // the model's, then the probe's when it trains
    std::vector<torch::Tensor> buffers;

    Replica(const VlmConfig& cfg, bool withProbe)
        : model(std::make_unique<VlmModel>(cfg)),
          probe(cfg.vision.dim,
                kColourClasses + kShapeClasses + kCentreClasses + cfg.vision.gridSide()) {
        auto& module = model->impl();
        module.train();
        parameters = module.parameters();
        if (withProbe)
            for (const auto& p : probe->parameters())
                parameters.push_back(p);
        buffers = module.buffers();
    }

    void copyWeightsFrom(const Replica& first) {
        torch::NoGradGuard noGrad;
        for (size_t i = 0; i < parameters.size(); ++i)
            parameters[i].copy_(first.parameters[i]);
        for (size_t i = 0; i < buffers.size(); ++i)
            buffers[i].copy_(first.buffers[i]);
    }
    void clearGradients() {
        for (auto& p : parameters)
            p.mutable_grad() = torch::Tensor();
    }
    void addGradientsTo(Replica& first) const {
        torch::NoGradGuard noGrad;
        for (size_t i = 0; i < parameters.size(); ++i) {
            const auto& g = parameters[i].grad();
            if (!g.defined()) continue;
            auto& sum = first.parameters[i].mutable_grad();
            if (sum.defined())
                sum.add_(g);
            else
                sum = g.clone();
        }
    }
};

// Runs `work(w)` for every worker, worker 0 on this thread; rethrows the
// first failure.
void forEachWorker(int workers, const std::function<void(int)>& work) {
    std::vector<std::exception_ptr> failures(static_cast<size_t>(workers));
    const auto guarded = [&](int w) {
        try {
            work(w);
        } catch (...) {
            failures[size_t(w)] = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    for (int w = 1; w < workers; ++w)
        threads.emplace_back(guarded, w);
    guarded(0);
    for (auto& t : threads)
        t.join();
    for (const auto& f : failures)
        if (f) std::rethrow_exception(f);
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
    std::vector<std::unique_ptr<Replica>> replicas;
    for (int w = 0; w < o.workers; ++w)
        replicas.push_back(std::make_unique<Replica>(*cfg, o.auxWeight > 0));
    Replica& first = *replicas.front();
    std::string startSha;
    if (!cfg->weights.path.empty()) {
        auto sha = first.model->loadWeights(cfg->weights);
        if (!sha) return sha.error();
        startSha = *sha;
    }
    for (size_t w = 1; w < replicas.size(); ++w)
        replicas[w]->copyWeightsFrom(first);
    torch::optim::AdamW opt(first.parameters,
                            torch::optim::AdamWOptions(o.lr).weight_decay(o.weightDecay));
    const SceneStream stream(o, cfg->vision.imageSize, cfg->vision.gridSide());

    TrainReport report;
    ProgressWindow window(o, progress);
    uint64_t nextScene = 0;
    std::vector<SampleLoss> losses(size_t(o.batch));
    const auto step = [&](bool visionOnly, double lr) {
        setLearningRate(opt, lr);
        // Worker w takes scenes [w·batch/workers, (w+1)·batch/workers) of the step.
        forEachWorker(o.workers, [&](int w) {
            Replica& r = *replicas[size_t(w)];
            r.clearGradients();
            for (int b = w * o.batch / o.workers; b < (w + 1) * o.batch / o.workers; ++b) {
                const Sample sample = stream.at(nextScene + uint64_t(b));
                SampleLoss s = visionOnly ? visionLoss(*r.model, r.probe, sample)
                                          : sampleLoss(*r.model, r.probe, o, sample);
                (s.loss / double(o.batch)).backward();
                s.loss = s.loss.detach();
                losses[size_t(b)] = std::move(s);
            }
            r.model->reset();
        });
        for (size_t w = 1; w < replicas.size(); ++w)
            replicas[w]->addGradientsTo(first);
        for (const auto& s : losses)
            window.add(s, o.batch);
        torch::nn::utils::clip_grad_norm_(first.parameters, 1.0);
        opt.step();
        for (size_t w = 1; w < replicas.size(); ++w)
            replicas[w]->copyWeightsFrom(first);
        nextScene += uint64_t(o.batch);
        report.scenes += o.batch;
        window.endStep(report);
    };
    const auto stopped = [&] { return o.cancel && o.cancel->load(); };
    for (int s = 0; s < o.visionSteps && !stopped(); ++s)
        step(true, visionLearningRate(o, s));
    for (int s = 0; s < o.steps && !stopped(); ++s)
        step(false, learningRate(o, s));
    report.seconds = window.elapsed();
    report.lastSceneSeed = stream.seedOf(nextScene == 0 ? 0 : nextScene - 1);
    first.model->impl().eval();
    report.metadata = checkpointMetadata(o, *cfg, report, startSha);
    if (auto s = first.model->saveWeights(o.out, report.metadata); !s) return s.error();
    return report;
}

} // namespace mvp
