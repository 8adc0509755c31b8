#pragma once
// The capture's clock, read at every recorded op's start and end. Where the
// CPU has an invariant time-stamp counter (x86-64, CPUID 0x80000007 EDX bit
// 8: one rate on every core and in every power state) the counter is read
// directly and scaled to nanoseconds; elsewhere it is steady_clock. A read
// of the counter costs ~11 ns against steady_clock's ~30 ns on a VM whose
// clocksource is kvm-clock, and an op takes two. Its rate is calibrated
// against steady_clock once per process (~5 ms, at the first instance()), to
// ~10 ppm; a Recorder checks the two against each other over its run and says
// how far apart they ended (the run metric capture.clock_disagreement_ns).

#include <cstdint>

namespace mvp {

class HostClock {
public:
    // The process's clock, calibrated on the first call (thread-safe).
    static const HostClock& instance();

    // Nanoseconds since an arbitrary origin; monotonic.
    int64_t nowNs() const {
        if (!tsc_) return steadyNs();
        return int64_t(double(int64_t(readCounter() - counterOrigin_)) * nsPerTick_) + nsOrigin_;
    }
    // Whether it reads the time-stamp counter (else steady_clock).
    bool countsTicks() const { return tsc_; }
    // The counter's calibrated rate, ticks per second (0 without one).
    double ticksPerSecond() const { return tsc_ ? 1e9 / nsPerTick_ : 0; }

    // steady_clock in nanoseconds, the reference the counter is calibrated to.
    static int64_t steadyNs();

private:
    HostClock();
    static uint64_t readCounter() {
#if defined(__x86_64__)
        return __builtin_ia32_rdtsc();
#else
        return 0;
#endif
    }

    bool tsc_ = false;
    uint64_t counterOrigin_ = 0;
    int64_t nsOrigin_ = 0; // steady_clock at counterOrigin_: the two share an origin
    double nsPerTick_ = 1;
};

// An interval on HostClock::nowNs().
struct HostInterval {
    int64_t startNs = 0, endNs = 0;
};

} // namespace mvp
