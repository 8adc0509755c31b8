#pragma once
// `--progress jsonl`: one JSON object per phase / decode step on stdout, for
// the GUI's child processes.

#include "capture/run/Capture.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace mvp::cli {

inline ProgressFn jsonlProgress() {
    return [](const CaptureProgress& p) {
        const nlohmann::json j{{"event", "progress"},
                               {"phase", p.name()},
                               {"step", p.step},
                               {"steps", p.steps},
                               {"fraction", p.fraction}};
        std::printf("%s\n", j.dump().c_str());
        std::fflush(stdout);
    };
}

} // namespace mvp::cli
