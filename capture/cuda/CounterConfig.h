#pragma once
// Hardware counters for the roofline (`--hw-counters`, docs/capture-notes.md §5):
// which metrics the CUPTI range profiler collects, checked and turned into a
// configuration image by its host API. The host API needs no GPU, so a
// configuration for a chip (e.g. "GH100") is built and validated offline.
// Plain C++: no CUPTI header here.

#include "core/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mvp::cuda {

// The roofline's metrics: DRAM bytes read and written, kernel duration, the
// SASS floating-point instructions per precision (fma, add, mul for fp32,
// fp16 and fp64) and the tensor-core math ops per input type.
const std::vector<std::string>& rooflineMetrics();

struct CounterConfig {
    std::string chip;                 // as CUPTI names it, e.g. "GH100"
    std::vector<std::string> metrics; // in the order asked for
    std::vector<uint8_t> image;       // the range profiler's configuration image
    int passes = 0;                   // replays of each range needed to collect them all
};

// The chips this CUPTI's host API knows.
Result<std::vector<std::string>> supportedChips();

// Checks every metric name for `chip` (each on its own host object: after a
// failed add CUPTI refuses every later one) and builds the configuration.
// Errors name the chip or the first metric CUPTI refuses. A GPU's counter
// availability image (RangeProfiler.h) may go with it; offline, none.
Result<CounterConfig> configureCounters(const std::string& chip,
                                        const std::vector<std::string>& metrics,
                                        const std::vector<uint8_t>& counterAvailability = {});

// Counted work of one range from its metric values (keyed by metric name),
// by the rule of NVIDIA's roofline charts: an fma thread instruction is two
// FLOPs, an add or a mul one, a tensor-path op one (CUPTI counts tensor math
// ops, not instructions); bytes are DRAM read + written; the duration is in
// ns (CUPTI's unit for gpu__time_duration). CUPTI counts a packed half2
// instruction once, so fp16 SASS FLOPs are a lower bound. A value missing
// from `values` is unknown: the figure it feeds is nullopt, never a partial sum.
struct CountedWork {
    std::optional<double> flops, dramBytes, seconds;
};
CountedWork countedWork(const std::map<std::string, double>& values);

} // namespace mvp::cuda
