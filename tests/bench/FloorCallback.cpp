#include "FloorCallback.h"

#include <ATen/record_function.h>
#include <memory>
#include <optional>

namespace mvp::bench {

namespace {
std::unique_ptr<at::ObserverContext> emptyStart(const at::RecordFunction&) {
    return nullptr;
}
void emptyEnd(const at::RecordFunction&, at::ObserverContext*) {}
} // namespace

FloorCallback::FloorCallback()
    : handle_(at::addGlobalCallback(at::RecordFunctionCallback(&emptyStart, &emptyEnd)
                                        .needsInputs(true)
                                        .scopes({at::RecordScope::FUNCTION}))) {}

FloorCallback::~FloorCallback() {
    at::removeCallback(handle_);
}

} // namespace mvp::bench

namespace {
std::optional<mvp::bench::FloorCallback> gPythonFloor; // the ctypes caller's one
}

void mvp_bench_floor_on() {
    gPythonFloor.emplace();
}

void mvp_bench_floor_off() {
    gPythonFloor.reset();
}
