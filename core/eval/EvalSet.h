#pragma once
// Eval sets (docs/eval.md): a JSONL file, one item a line —
//   {"image": "path relative to the file", "prompt": "…",
//    "answer": "…" or ["…", …] (optional), "id": "…", "kind": "…" (optional)}
// — read strictly (every line checked, errors name the file and line), and
// the scoring of a model's output against an item's answers.

#include "core/Result.h"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

struct EvalItem {
    std::string id;
    std::string image; // absolute: resolved against the set's folder
    std::string prompt;
    std::vector<std::string> answers; // empty: scored by fidelity only
    std::string kind;                 // optional "kind": groups accuracy in reports ("colour", …)
    int line = 0;                     // 1-based, in the file
};

struct EvalSet {
    std::string path;
    std::vector<EvalItem> items;
    int unanswered() const; // items without an answer
};

// Reads and checks `path`: every line a JSON object with a non-empty
// "prompt", an "image" that exists, ids unique (a missing id is the line
// number). Blank lines are skipped; an empty set is an error. Errors are
// BadInput or NotFound, "FILE:LINE: what is wrong".
Result<EvalSet> readEvalSet(const std::string& path);
// The same from a stream of JSONL lines: errors name `name`, images resolve
// against `folder` (the Python package's in-memory items).
Result<EvalSet> parseEvalSet(std::istream& in, const std::string& name,
                             const std::string& folder);

// Lower case, with surrounding whitespace and punctuation removed and inner
// whitespace runs collapsed to one space: "  Red. " → "red".
std::string normaliseAnswer(std::string_view text);

// Whether `output` answers with one of `answers`: after normalising, the
// output equals an answer or starts with it followed by a space (the answer
// is the first word(s) the model generates: "red circle" answers "red").
bool answerMatches(std::string_view output, const std::vector<std::string>& answers);

// One item as a JSONL line (docs/eval.md), `image` written as given.
std::string evalItemLine(const EvalItem& item);

} // namespace mvp
