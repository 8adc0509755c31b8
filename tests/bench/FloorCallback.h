#pragma once
// What libtorch itself charges for an observed op: a global RecordFunction
// callback that asks for the inputs, as mvprof's does, and does nothing with
// them. No observer that reads inputs can cost less than this floor.

namespace mvp::bench {

// While one lives, every ATen call on every thread runs the empty callback.
class FloorCallback {
public:
    FloorCallback();
    ~FloorCallback();
    FloorCallback(const FloorCallback&) = delete;
    FloorCallback& operator=(const FloorCallback&) = delete;

private:
    unsigned long long handle_;
};

} // namespace mvp::bench

// The same for a Python benchmark over ctypes (libmvp_bench_floor.so):
// on() adds the callback (again after off()), off() removes it.
extern "C" {
void mvp_bench_floor_on();
void mvp_bench_floor_off();
}
