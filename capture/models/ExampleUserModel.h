#pragma once
// The example user model (capture/models/ExampleUserModel.cpp). Plain C++.

#include "core/Result.h"

#include <string>

namespace mvp {

// Writes a small TorchScript VLM-MoE ("example-vlm.pt") and its manifest
// ("example-vlm.json") into `dir`: an example of the contract and the tests'
// fixture. Returns the manifest's path.
Result<std::string> writeExampleUserModel(const std::string& dir);

} // namespace mvp
