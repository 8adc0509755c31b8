#include "capture/run/Eval.h"

#include "capture/run/Capture.h"

#include <algorithm>

namespace mvp {

namespace {

int64_t totalNs(const std::vector<PhaseTime>& times) {
    int64_t ns = 0;
    for (const auto& t : times)
        ns += t.ns;
    return ns;
}

EvalItemOutcome scored(const EvalItem& item, ItemPass pass) {
    EvalItemOutcome out;
    out.id = item.id;
    out.kind = item.kind;
    out.output = std::move(pass.text);
    if (!item.answers.empty()) out.correct = answerMatches(out.output, item.answers);
    out.ns = totalNs(pass.times);
    out.times = std::move(pass.times);
    return out;
}

// The first item's image and prompt make the capture a Capturer can be built from.
Result<std::unique_ptr<Capturer>> loadModel(CaptureOptions options, const EvalItem& first) {
    options.imagePath = first.image;
    options.imageData.reset();
    options.prompt = first.prompt;
    auto prepared = prepareCapture(options);
    if (!prepared) return prepared.error();
    return Capturer::create(std::move(*prepared));
}

} // namespace

Proportion EvalOutcome::accuracy(const std::string& kind) const {
    int right = 0, scoredItems = 0;
    for (const auto& i : items)
        if (i.correct && (kind.empty() || i.kind == kind)) {
            ++scoredItems;
            right += *i.correct;
        }
    return wilsonInterval(right, scoredItems);
}

std::vector<std::string> EvalOutcome::kinds() const {
    std::vector<std::string> out;
    for (const auto& i : items)
        if (!i.kind.empty() && std::find(out.begin(), out.end(), i.kind) == out.end())
            out.push_back(i.kind);
    return out;
}

int EvalOutcome::unanswered() const {
    return int(std::count_if(items.begin(), items.end(),
                             [](const EvalItemOutcome& i) { return !i.correct; }));
}

Result<EvalOutcome> evaluateSet(const CaptureOptions& options, const EvalSet& set,
                                const EvalProgress& progress) {
    if (set.items.empty()) return makeError(ErrorCode::BadInput, set.path + ": no items");
    auto capturer = loadModel(options, set.items.front());
    if (!capturer) return capturer.error();
    // Warm-up: the first pass pays for allocations no later item pays for.
    if (auto warm = (*capturer)->timedPass(); !warm) return warm.error();
    EvalOutcome outcome;
    outcome.total = int(set.items.size());
    for (const auto& item : set.items) {
        if (options.cancel && options.cancel->load()) break;
        auto pass = (*capturer)->itemPass(item.image, item.prompt);
        if (!pass)
            return makeError(pass.error().code, set.path + ":" + std::to_string(item.line) + ": " +
                                                    pass.error().message);
        // A stop asked for during the item cut its decode short: not an answer to keep.
        if (options.cancel && options.cancel->load()) break;
        outcome.items.push_back(scored(item, std::move(*pass)));
        if (progress) progress(int(outcome.items.size()), outcome.total);
    }
    return outcome;
}

} // namespace mvp
