#pragma once
// W8 / W4 weight quantisation of a user's TorchScript model (docs/user-models.md):
// every Linear submodule inside the modules the manifest's "llm" role names
// (routers excepted) gets its weight replaced by its group-wise quantised value, dequantised —
// the arithmetic a low-bit model does, so fidelity is measured. The archive
// keeps float32 storage and kernels, so the latency of a low-bit kernel is
// predicted from bytes moved, as for the built-in model. Round-to-nearest:
// AWQ's search needs the layers' inputs, which a TorchScript model's capture
// does not keep. Internal to mvp_capture; includes torch.

#include "capture/models/ScriptedModel.h"
#include "capture/models/transforms/ModelTransforms.h"

namespace mvp {

// Errors when the manifest names no "llm" role or it holds no Linear.
Result<QuantSummary> quantiseScriptedLlm(ScriptedModel& model, const UserModelManifest& manifest,
                                         int bits, int group);

} // namespace mvp
