#pragma once
// The options that choose a model and where it runs, shared by the commands
// that build one (capture, eval): --model, --model-file, --layers, --max-seq,
// --routing-skew, --seed, --weights, --dtype, --device.

#include "app/cli/Parser.h"
#include "capture/config/CaptureOptions.h"

namespace mvp::cli {

void addModelOptions(CLI::App& app, CaptureOptions& options);

} // namespace mvp::cli
