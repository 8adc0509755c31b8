#pragma once
// The per-op cost of recording, on many tiny ops (TinyOps.cpp).

namespace mvp {
class SessionWriter;
}

namespace mvp::bench {

// ns per op (or µs per run) over the repetitions: median and quartiles (their spread).
struct PerOp {
    double median = 0, q1 = 0, q3 = 0;
};

struct TinyOpCosts {
    int ops = 0;
    double bareNsPerOp = 0; // an add of 8 floats, unrecorded (measured)
    PerOp mvprof;           // added by mvprof's Recorder: ops, shapes, FLOPs (measured)
    PerOp torch;            // added by libtorch's profiler: shapes, FLOPs, modules (measured)
    PerOp floor;            // added by an empty callback that asks for inputs (measured)
    // The fixed cost of a run around no work, in µs (measured): mvprof's
    // Recorder made, started, stopped and gone; libtorch's profiler enabled
    // and disabled. The per-op figures above exclude it (timed inside).
    PerOp mvprofOpenClose, torchOpenClose;
};

// Medians of the per-repetition differences from the bare loop, over `reps`
// interleaved repetitions of `ops` adds; the mvprof passes write a run into `writer`.
TinyOpCosts measureTinyOps(SessionWriter& writer, int ops, int reps);

} // namespace mvp::bench
