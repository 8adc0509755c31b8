#pragma once
// An eval set through one loaded model (docs/eval.md): each item's image and
// prompt in turn, one unrecorded pass each (Capturer::itemPass: the same
// phases and decode steps as a capture, no probes), its output scored
// against the item's answers (the first word(s) it generates, normalised).
// Plain C++ header.

#include "capture/config/CaptureOptions.h"
#include "core/Result.h"
#include "core/compare/Accuracy.h"
#include "core/eval/EvalSet.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

struct EvalItemOutcome {
    std::string id, kind;
    std::string output;           // up to EOS
    std::optional<bool> correct;  // none: the item has no answer
    std::vector<PhaseTime> times; // measured, per phase
    int64_t ns = 0;               // the whole pass, measured
};

struct EvalOutcome {
    std::vector<EvalItemOutcome> items; // in the set's order; fewer when cancelled
    int total = 0;                      // items in the set
    bool complete() const { return int(items.size()) == total; }
    // Over the items with an answer; with `kind`, only those of that kind.
    Proportion accuracy(const std::string& kind = {}) const;
    std::vector<std::string> kinds() const; // in order of first appearance
    int unanswered() const;
};

using EvalProgress = std::function<void(int done, int total)>;

// `options` describes the model and how it runs (model, weights, steps,
// dtype, device, threads); its image and prompt are each item's in turn.
// The model is built once and warmed up on the first item; options.cancel
// stops between items (the outcome then holds the items done). An item
// whose image cannot be read is an error naming it.
Result<EvalOutcome> evaluateSet(const CaptureOptions& options, const EvalSet& set,
                                const EvalProgress& progress = {});

} // namespace mvp
