#pragma once
// Trains the built-in model on generated scenes (core/eval/Scenes.h) with
// its own C++ code and libtorch's autograd: no second definition of the
// architecture anywhere. Each step accumulates the gradients of `batch`
// scenes; each scene is encoded once and asked one question of every kind it
// has, each teacher-forced as a branch of one packed decoder pass
// (VlmModel::forwardBranches), as if run alone:
//   [BOS, visual tokens…, prompt bytes…, answer bytes…]
// with the loss the cross-entropy of the answer's bytes and EOS. A linear
// probe on the vision encoder's output learns, per patch, the colour and
// shape under it, whether an object's centre lies in it and its column
// (labels from the generator's geometry); its loss is added with weight `auxWeight` and the
// probe is discarded: the checkpoint holds the model's parameters only. With
// `lookWeight`, a grounding loss pulls the answering queries' attention onto
// the object a question asks about. AdamW,
// linear warm-up then cosine decay. Reproducible: the same options give the
// same weights on the same machine and thread count (docs/training.md).
// Plain C++ header.

#include "capture/config/Config.h"
#include "core/Result.h"
#include "core/image/Image.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace mvp {

struct TrainOptions {
    std::string model = "ref:demo";
    PresetOverrides overrides; // --weights starts from a checkpoint instead of the seed
    int steps = 3000;
    int batch = 16;   // scenes per step
    double lr = 2e-3; // peak learning rate
    double weightDecay = 0.01;
    double auxWeight = 1.0; // the per-patch probe's share of the loss (0: answers only)
    // Grounding: for a question about one object (colour, shape, left/right)
    // the weight of −log(the share of the answering queries' attention to the
    // visual tokens that falls on that object's patches), labels from the
    // generator. 0: where the decoder looks is left to the answers' loss.
    double lookWeight = 0;
    // Steps before the questions that train the encoder alone on the probe's
    // labels (its warm-up, then the peak rate): the shapes are learnt there
    // at a tenth of a full step's cost.
    int visionSteps = 0;
    int warmupSteps = 100;
    // The colour and shape questions are asked of every Nth scene only
    // (1: every scene). They are learnt first; the time they would take goes
    // to the counting and left/right questions, asked of every scene.
    int colourShapeEvery = 1;
    uint64_t dataSeed = 0; // which training scenes: seeds below 1e9 only (docs/eval.md)
    // libtorch intra-op threads. One: the model runs one short sequence at a
    // time, and on two cores a second thread made a step three times slower.
    int threads = 1;
    // Data-parallel workers, one thread and one model replica each, sharing
    // a step's scenes; their gradients are summed in worker order, so a run
    // is reproducible for a given count (not across counts).
    int workers = 1;
    std::vector<RgbImage> photos; // photo backdrops (the training photograph)
    std::string out;              // the checkpoint (safetensors) to write
    int reportEvery = 50;
    const std::atomic<bool>* cancel = nullptr; // stops after the current step, still writing `out`
};

struct TrainProgress {
    int step = 0, steps = 0;   // over both stages (vision steps first)
    double loss = 0;           // mean over the last reportEvery steps
    double answerAccuracy = 0; // first answer byte predicted right, same window (per question)
    double seconds = 0;        // since training began (set-up excluded)
    // The per-patch probe, same window: how often it names the colour and the
    // shape of a patch an object covers (0 without the probe).
    double probeColour = 0, probeShape = 0;
    double probeColumn = 0;   // how often it names any patch's column
    // Same window, questions about one object: the share of the answering
    // queries' visual attention on that object (measured with or without
    // the grounding loss; 0 in the encoder's stage).
    double lookShare = 0;
    bool visionStage = false; // the window's steps trained the encoder alone
};

struct TrainReport {
    int steps = 0;                      // done, both stages (fewer than asked when cancelled)
    int64_t scenes = 0;                 // sequences trained on
    double seconds = 0;                 // the training loop, wall clock
    double firstLoss = 0, lastLoss = 0; // means over the first and last reporting windows
    uint64_t lastSceneSeed = 0;
    std::map<std::string, std::string> metadata; // what the checkpoint's header records
};

// The preset with its seeded initialisation (never its bundled checkpoint),
// or `overrides.weights` to continue from.
Result<TrainReport> trainModel(const TrainOptions& options,
                               const std::function<void(const TrainProgress&)>& progress = {});

} // namespace mvp
