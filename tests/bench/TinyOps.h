#pragma once
// The per-op cost of recording, on many tiny ops (TinyOps.cpp).

namespace mvp {
class SessionWriter;
}

namespace mvp::bench {

struct TinyOpCosts {
    int ops = 0;
    double bareNsPerOp = 0;   // an add of 8 floats, unrecorded (measured)
    double mvprofNsPerOp = 0; // added by mvprof's Recorder: ops, shapes, FLOPs (measured)
    double torchNsPerOp = 0;  // added by libtorch's profiler: shapes, FLOPs, modules (measured)
    double floorNsPerOp = 0;  // added by an empty callback that asks for inputs (measured)
};

// Medians of the per-repetition differences from the bare loop, over `reps`
// interleaved repetitions of `ops` adds; the mvprof passes write a run into `writer`.
TinyOpCosts measureTinyOps(SessionWriter& writer, int ops, int reps);

} // namespace mvp::bench
