#pragma once
// Runs the decoder over a prefill whose visual tokens a TokenDrop plan cuts
// between layers (FastV, PyramidDrop: capture/whatif/TokenDrop.h). The cuts
// are the method's real work and run inside the model's own time. Internal
// to mvp_capture; includes torch.

#include "capture/models/VlmLayers.h"
#include "core/session/Records.h"

namespace mvp {

// The decoder layers over `x` [T, dim], the prefill of positions [0, T),
// whose rows [visualAt, visualAt + visual) are the image tokens, cut as
// `m.tokenDrop` says; records the kept sets in `m.keptVisual`. Returns the
// last layer's rows (fewer than T); every layer's cache then names the
// position of each slot (KvCache::positionOfSlot).
torch::Tensor forwardDroppingVisual(VlmModel::Impl& m, torch::Tensor x, int64_t visualAt,
                                    int64_t visual, const ForwardHooks& hooks);

// What a run whose model drops visual tokens stores about it: run metrics
// (the image tokens each cut kept, the layer-averaged budget, FastV's cost
// formula's FLOPs ratio, predicted) and patch metric "tokens.kept" (1 where
// a decoder layer's input holds the patch's token, else 0) for each layer.
// `patchOf` maps visual token → patch; `prefillPositions` is the prefill's
// length. Nothing when the model drops none.
Batch tokenDropRows(const VlmModel::Impl& m, const std::vector<int>& patchOf,
                    int64_t prefillPositions);

} // namespace mvp
