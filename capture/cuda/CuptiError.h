#pragma once
// CUPTI's own words for a result code, for error messages. Internal to
// capture/cuda (includes the toolkit's header).

#include <cupti.h>
#include <string>

namespace mvp::cuda {

inline std::string cuptiMessage(CUptiResult status) {
    const char* text = nullptr;
    if (cuptiGetResultString(status, &text) != CUPTI_SUCCESS || !text) text = "unknown error";
    return std::string(text) + " (" + std::to_string(int(status)) + ")";
}

} // namespace mvp::cuda
