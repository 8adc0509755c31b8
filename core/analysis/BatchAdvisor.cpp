#include "core/analysis/BatchAdvisor.h"

#include <algorithm>
#include <cmath>

namespace mvp {

double modelledSampleBytes(int r, int l, double h) {
    return double(r) * r * 3 * 4 + double(l) * 1024 + h * 8;
}

BatchAdvice adviseBatch(int64_t measured, int r0, int l0, double h0, int64_t freeBytes,
                        int maxBatch) {
    BatchAdvice a;
    a.freeBytes = freeBytes;
    a.maxBatch = maxBatch;
    const double modelled = modelledSampleBytes(r0, l0, h0);
    if (measured <= 0) {
        a.why = "the run held no measurable memory of its own (its peak did not rise above its "
                "start): nothing to calibrate the per-sample bytes on";
        return a;
    }
    if (modelled <= 0 || freeBytes <= 0) {
        a.why = "needs the model's input size and the free memory measured at capture";
        return a;
    }
    a.scale = double(measured) / modelled;
    for (int r : {256, 512, 1024})
        for (int l : {32, 128, 512})
            for (double h : {0.8, 1.6, 3.2}) {
                BatchBucket b{r, l, h};
                b.sampleBytes = int64_t(std::ceil(a.scale * modelledSampleBytes(r, l, h)));
                b.batch = int(
                    std::min<int64_t>(maxBatch, b.sampleBytes > 0 ? freeBytes / b.sampleBytes : 0));
                a.buckets.push_back(b);
            }
    a.valid = true;
    return a;
}

} // namespace mvp
