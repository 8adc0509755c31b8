#pragma once
// Marks the ids of recorded ops and module spans around their work, for a
// GPU tracer's external correlation (capture/cuda/CuptiTracer.h): the CUDA
// calls an op or span makes are then attributed to its row. Plain C++; the
// Recorder calls these on the recording thread, outside the timed
// intervals, and only when a tracer is attached.

#include <cstdint>

namespace mvp {

class CorrelationMarks {
public:
    virtual ~CorrelationMarks() = default;
    // Recorded ops (op row ids) and module spans (span row ids) nest: each
    // start is matched by the end of the innermost one started.
    virtual void opStarted(int64_t op) = 0;
    virtual void opEnded() = 0;
    virtual void spanStarted(int64_t span) = 0;
    virtual void spanEnded() = 0;
    // The profiler's own work (Recorder::beginProbeWork): what it launches
    // belongs to no op or span of the model. Nests inside both.
    virtual void probeWorkStarted() = 0;
    virtual void probeWorkEnded() = 0;
};

} // namespace mvp
