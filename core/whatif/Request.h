#pragma once
// A what-if as asked for: the methods (core/whatif/Methods.h) with their
// values, and the options that refine them. The CLI parses one, the GUI
// builds one and runs it as CLI arguments, a sweep makes one per point, and
// the planner (capture/whatif/Plan.h) turns it into transforms. Plain C++.

#include "core/Result.h"
#include "core/whatif/Methods.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

// Parameters that refine a method, each with its own CLI option.
struct MethodOptions {
    SaliencySource saliency = SaliencySource::Attention; // --saliency (pruning)
    std::optional<int> saliencyLayer; // --saliency-layer: one decoder layer ranks; none: all
    std::optional<int> decoderLayer;  // --fastv-layer: FastV's and DART's K; none: the paper's
    int quantGroup = 128;             // --group
    double kvThreshold = 0.82;        // --kv-threshold (the INT4 cache's merging)
    int freezeWindow = 128, freezeMin = 3; // --freeze-window, --freeze-min
    double kvBudget = 0.4;                 // --kv-budget (StreamingLLM, H2O, SnapKV)
    int kiviBits = 2, kiviGroup = 32;      // --kivi-bits, --kivi-group
    // ToMe's value is the tokens the encoder sends (a sweep's budget), not r.
    bool tomeTokensSent = false;

    bool operator==(const MethodOptions&) const = default;
};

struct WhatIfRequest {
    // Each method asked for, with its value (1 for a Switch or Word method).
    std::map<Method, double> methods;
    MethodOptions options;

    bool empty() const { return methods.empty(); }
    bool has(Method m) const { return methods.count(m) > 0; }
    double value(Method m) const; // 0 when not asked for
    // The method of `family` asked for, if any.
    std::optional<Method> inFamily(Family family) const;
};

// Values in their ranges, a whole number where a count is asked for, at most
// one method of each family; the error names the option.
Status checkRequest(const WhatIfRequest& request);

// The CLI arguments that ask for `request` (after `whatif FILE`), options
// only where they differ from their defaults and their method is asked for.
std::vector<std::string> requestArguments(const WhatIfRequest& request);

} // namespace mvp
