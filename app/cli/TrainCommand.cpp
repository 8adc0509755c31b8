// `mvprof-cli train`: trains a built-in preset on generated scenes
// (capture/train/Train.h) and writes the checkpoint `--weights` reads.
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "capture/config/Resources.h"
#include "capture/train/Train.h"

#include <cstdio>

namespace mvp::cli {

int trainCommand(const std::vector<std::string>& argv) {
    CommandLine cli("train",
                    "mvprof-cli train --out FILE.safetensors [options] — train a built-in model "
                    "on generated scenes",
                    "Prints the loss and the first answer byte's accuracy every --report steps, "
                    "then the time. SIGINT or SIGTERM stops after the current step and still "
                    "writes the checkpoint. docs/training.md.");
    TrainOptions o;
    std::vector<std::string> photos;
    cli.app.add_option("--model", o.model, "the preset (default ref:demo)");
    cli.app.add_option("--out", o.out, "the checkpoint to write [required]");
    cli.app.add_option("--steps", o.steps, "optimiser steps (default 3000)")->check(atLeast(1));
    cli.app.add_option("--batch", o.batch, "scenes per step (default 16)")->check(atLeast(1));
    cli.app.add_option("--lr", o.lr, "peak learning rate (default 0.002)");
    cli.app.add_option("--warmup", o.warmupSteps, "warm-up steps (default 100)")->check(atLeast(0));
    cli.app.add_option("--aux-weight", o.auxWeight,
                       "weight of the per-patch probe's loss (default 1; 0: answers only)");
    cli.app.add_option("--look-weight", o.lookWeight,
                       "weight of the grounding loss: -log of the share of the answering "
                       "queries' visual attention on the asked object (default 0: none)");
    cli.app
        .add_option("--vision-steps", o.visionSteps,
                    "steps training the encoder alone on the per-patch labels before the "
                    "questions (default 0)")
        ->check(atLeast(0));
    cli.app
        .add_option("--colour-shape-every", o.colourShapeEvery,
                    "ask the colour and shape questions of every Nth scene only (default 1: "
                    "all); counting and left/right are asked of every scene")
        ->check(atLeast(1));
    cli.app.add_option("--data-seed", o.dataSeed, "which training scenes, 0-9 (default 0)");
    cli.app.add_option("--seed", o.overrides.seed, "initialisation seed (default 0)");
    cli.app.add_option("--weights", o.overrides.weights, "continue from this checkpoint")
        ->excludes("--seed");
    cli.app
        .add_option("--threads", o.threads,
                    "libtorch threads (default 1: faster for one short sequence at a time; 0: "
                    "libtorch's choice)")
        ->check(atLeast(0));
    cli.app
        .add_option("--workers", o.workers,
                    "data-parallel workers, a thread and a model replica each (default 1; "
                    "the weights depend on the count)")
        ->check(atLeast(1));
    cli.app.add_option("--report", o.reportEvery, "steps between progress lines (default 50)")
        ->check(atLeast(1));
    cli.app.add_option("--photos", photos,
                       "photographs for backdrops (default: the bundled "
                       "astronaut.png; chelsea.png is held out)");
    if (auto exit = cli.parse(argv)) return *exit;
    if (!cli.positional.empty())
        return fail(2, "unexpected argument '" + cli.positional[0] + "' (see --help)");
    if (o.out.empty()) return fail(2, "no checkpoint to write: pass --out FILE.safetensors");
    auto images = loadPhotos(photos, kTrainingPhoto);
    if (!images) return fail(images.error().exitCode(), images.error().message);
    o.photos = std::move(*images);
    o.cancel = installCancelHandlers();
    auto report = trainModel(o, [](const TrainProgress& p) {
        if (p.visionStage)
            std::printf("step %5d/%d  encoder  loss %.4f  probe colour %.3f shape %.3f "
                        "column %.3f  %.0f s\n",
                        p.step, p.steps, p.loss, p.probeColour, p.probeShape, p.probeColumn,
                        p.seconds);
        else
            std::printf("step %5d/%d  loss %.4f  first-byte accuracy %.3f  probe colour %.3f "
                        "shape %.3f  looks at the object %.3f  %.0f s\n",
                        p.step, p.steps, p.loss, p.answerAccuracy, p.probeColour, p.probeShape,
                        p.lookShare, p.seconds);
        std::fflush(stdout);
    });
    if (!report) return fail(report.error().exitCode(), report.error().message);
    std::printf("Wrote %s: %s trained %d steps × %d scenes in %.0f s (measured), loss %.4f → "
                "%.4f; data seed %llu, scenes up to seed %llu\n",
                o.out.c_str(), o.model.c_str(), report->steps, o.batch, report->seconds,
                report->firstLoss, report->lastLoss, static_cast<unsigned long long>(o.dataSeed),
                static_cast<unsigned long long>(report->lastSceneSeed));
    return 0;
}

} // namespace mvp::cli
