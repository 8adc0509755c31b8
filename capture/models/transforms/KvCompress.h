#pragma once
// KV-cache compression (docs/diagnostics.md §9): visual tokens whose keys are
// alike merge into one slot, then the cache is held as INT4.

#include "capture/whatif/Transforms.h"

#include <vector>

namespace mvp {

struct KvCache;
class Recorder;

// Greedy leader clustering of `n` rows of `dim` floats (row-major), in order:
// a row joins the earlier leader it is most similar to when their cosine
// exceeds `threshold`, else it leads a new cluster. Returns each row's
// cluster, numbered by leader order. So every member's cosine to its leader
// is > threshold, and no two leaders' cosine is.
std::vector<int> clusterByCosine(const std::vector<float>& rows, int n, int dim, double threshold);

// Compresses one attention layer's cache right after the prefill: the visual
// tokens at slots [visualFirst, visualFirst + visualCount) merge into their
// clusters' mean keys and values (proportional attention keeps their weight),
// then every slot is re-stored as INT4. Adds the reconstruction error to
// `report` unless it is null, as `rec`'s ProbeWork (the profiler's time, not
// the compression's). Internal: torch.
void compressKvCache(KvCache& cache, int64_t visualFirst, int64_t visualCount,
                     const KvCompression& how, KvCompressionReport* report, Recorder* rec);

} // namespace mvp
