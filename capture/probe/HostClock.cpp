#include "capture/probe/HostClock.h"

#include <chrono>
#include <limits>
#include <thread>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace mvp {

namespace {

bool hasInvariantCounter() {
#if defined(__x86_64__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return false;
    if (!__get_cpuid(0x80000007u, &a, &b, &c, &d)) return false;
    return (d & (1u << 8)) != 0;
#else
    return false;
#endif
}

struct Reading {
    int64_t ns = 0;
    uint64_t ticks = 0;
};

// A counter read between two steady_clock reads, the tightest of a few: its
// moment on steady_clock is then known to within tens of nanoseconds.
Reading readBoth(uint64_t (*counter)()) {
    Reading best;
    int64_t width = std::numeric_limits<int64_t>::max();
    for (int i = 0; i < 8; ++i) {
        const int64_t before = HostClock::steadyNs();
        const uint64_t ticks = counter();
        const int64_t after = HostClock::steadyNs();
        if (after - before < width) {
            width = after - before;
            best = {before + width / 2, ticks};
        }
    }
    return best;
}

} // namespace

int64_t HostClock::steadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Two readings 5 ms apart give the rate to ~60 ns / 5 ms ≈ 10 ppm: over a
// second of run, 10 µs against steady_clock.
HostClock::HostClock() {
    if (!hasInvariantCounter()) return;
    const Reading a = readBoth(&HostClock::readCounter);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const Reading b = readBoth(&HostClock::readCounter);
    if (b.ticks <= a.ticks || b.ns <= a.ns) return;
    const double nsPerTick = double(b.ns - a.ns) / double(b.ticks - a.ticks);
    if (nsPerTick < 0.05 || nsPerTick > 20) return; // not 50 MHz – 20 GHz: no counter to trust
    tsc_ = true;
    counterOrigin_ = b.ticks;
    nsOrigin_ = b.ns;
    nsPerTick_ = nsPerTick;
}

const HostClock& HostClock::instance() {
    static const HostClock clock;
    return clock;
}

} // namespace mvp
