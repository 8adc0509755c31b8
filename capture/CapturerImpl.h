#pragma once
// Capturer's private state, shared by CaptureRun.cpp (running) and
// CaptureTransforms.cpp (what-if model rewrites). Internal; includes torch.

#include "capture/Capture.h"
#include "capture/models/Vlm.h"

namespace mvp {

struct Capturer::Impl {
    PreparedCapture prep;
    std::unique_ptr<VlmModel> model;
    ImageRow storedImage;
    DeviceRow device;
    bool transformed = false;
};

// The prepared image as the model's input: resized, CLIP-normalised [1, 3, S, S].
torch::Tensor modelPixels(const PreparedCapture& prep);

} // namespace mvp
