#pragma once
// The what-if planner's internals shared by Plan.cpp and PlanMethods.cpp:
// the label and description built part by part, and the planners of the
// published methods (visual tokens, KV cache). Plain C++.

#include "capture/whatif/Plan.h"

#include <string>
#include <vector>

namespace mvp::planning {

// The plan's label ("prune-visual 0.4 + w8") and description, part by part.
struct Parts {
    std::vector<std::string> names, details;
    void add(std::string name, std::string detail) {
        names.push_back(std::move(name));
        details.push_back(std::move(detail));
    }
    void into(RunTransform& t) const {
        for (size_t i = 0; i < names.size(); ++i) {
            t.label += (i ? " + " : "") + names[i];
            t.transform += (i ? "; " : "") + names[i] + " (" + details[i] + ")";
        }
    }
};

// FastV, PyramidDrop or DART: visual tokens dropped inside the decoder.
inline bool dropsInDecoder(const WhatIfRequest& r) {
    return r.fastvRatio || r.pdropLambda || r.dart;
}
inline const char* decoderDropFlag(const WhatIfRequest& r) {
    return r.fastvRatio ? "--fastv" : r.pdropLambda ? "--pdrop" : "--dart";
}

// FastV, PyramidDrop or DART over every image token the decoder receives.
Status planTokenDrop(const WhatIfRequest& r, const VlmConfig& cfg, WhatIfPlan& plan, Parts& parts);
// VisionZip's split; its patches are chosen on the image when the model is transformed.
Status planVisionZip(const WhatIfRequest& r, const VlmConfig& cfg, WhatIfPlan& plan, Parts& parts);
// ToMe's schedule of r per vision block.
Status planTome(const WhatIfRequest& r, const VlmConfig& cfg, WhatIfPlan& plan, Parts& parts);
// The downsample baseline's grid and the patches its tokens stand for.
Status planDownsample(const WhatIfRequest& r, const VlmConfig& cfg, WhatIfPlan& plan, Parts& parts);
// A published KV-cache method.
Status planKvMethod(const WhatIfRequest& r, WhatIfPlan& plan, Parts& parts);

} // namespace mvp::planning
