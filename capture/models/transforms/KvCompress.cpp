#include "capture/models/transforms/KvCompress.h"

#include "capture/models/VlmLayers.h"
#include "capture/probe/Recorder.h"

#include <cmath>

namespace mvp {

std::vector<int> clusterByCosine(const std::vector<float>& rows, int n, int dim, double threshold) {
    std::vector<double> norm(size_t(n), 0.0);
    for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int j = 0; j < dim; ++j)
            s += double(rows[size_t(i) * size_t(dim) + size_t(j)]) *
                 rows[size_t(i) * size_t(dim) + size_t(j)];
        norm[size_t(i)] = std::sqrt(s);
    }
    auto cosine = [&](int a, int b) {
        if (norm[size_t(a)] == 0 || norm[size_t(b)] == 0) return 0.0;
        double s = 0;
        const float* x = rows.data() + size_t(a) * size_t(dim);
        const float* y = rows.data() + size_t(b) * size_t(dim);
        for (int j = 0; j < dim; ++j)
            s += double(x[j]) * y[j];
        return s / (norm[size_t(a)] * norm[size_t(b)]);
    };
    std::vector<int> leaders, cluster(size_t(n), -1);
    for (int i = 0; i < n; ++i) {
        int best = -1;
        double bestCos = threshold;
        for (size_t c = 0; c < leaders.size(); ++c)
            if (const double cs = cosine(i, leaders[c]); cs > bestCos) {
                bestCos = cs;
                best = int(c);
            }
        if (best < 0) {
            best = int(leaders.size());
            leaders.push_back(i);
        }
        cluster[size_t(i)] = best;
    }
    return cluster;
}

namespace {
// `rows` [slots, heads, dim] as INT4 codes in a cache-sized buffer, one scale
// and minimum per slot and head (a merged cluster is one slot), and what they
// read back as.
std::pair<GroupCodes, torch::Tensor> int4Slots(const torch::Tensor& rows, const KvCache& cache,
                                               int64_t slots) {
    GroupCodes codes = quantiseGroups(rows, 4, cache.headDim);
    GroupCodes full;
    full.bits = 4;
    full.group = cache.headDim;
    full.n = cache.headDim;
    const auto on = rows.options(); // the cache's device
    full.packed =
        torch::zeros({cache.maxSeq, cache.kvHeads, codes.packed.size(-1)}, on.dtype(torch::kUInt8));
    full.scale = torch::zeros({cache.maxSeq, cache.kvHeads, 1}, on.dtype(torch::kHalf));
    full.low = torch::zeros({cache.maxSeq, cache.kvHeads, 1}, on.dtype(torch::kHalf));
    full.packed.narrow(0, 0, slots).copy_(codes.packed);
    full.scale.narrow(0, 0, slots).copy_(codes.scale);
    full.low.narrow(0, 0, slots).copy_(codes.low);
    return {full, dequantiseGroups(codes)};
}

// Reconstruction error: what each original position now reads back, as
// squared sums accumulated across layers (the report's caller takes roots).
void accountError(KvCompressionReport& report, const torch::Tensor& keys,
                  const torch::Tensor& values, const torch::Tensor& storedK,
                  const torch::Tensor& storedV, const std::vector<int64_t>& slotOf, int64_t slots,
                  int64_t visualCount, int64_t clusters) {
    auto idx = torch::tensor(slotOf, torch::kLong).to(keys.device());
    report.applied = true;
    report.positions += keys.size(0);
    report.storedSlots += slots;
    report.visualTokens += visualCount;
    report.visualClusters += clusters;
    report.keyError += (storedK.index_select(0, idx) - keys).pow(2).sum().item<double>();
    report.valueError += (storedV.index_select(0, idx) - values).pow(2).sum().item<double>();
    report.keyNorm += keys.pow(2).sum().item<double>();
    report.valueNorm += values.pow(2).sum().item<double>();
}
} // namespace

void compressKvCache(KvCache& cache, int64_t visualFirst, int64_t visualCount,
                     const KvCompression& how, KvCompressionReport* report, Recorder* rec) {
    torch::NoGradGuard noGrad;
    const int64_t positions = cache.slots;
    visualCount = std::clamp<int64_t>(visualCount, 0, positions - visualFirst);
    // In float32 whatever the cache holds: the originals, for the error.
    auto keys =
        cache.k.narrow(0, 0, positions).to(torch::kFloat, /*non_blocking=*/false, /*copy=*/true);
    auto values = cache.v.narrow(0, 0, positions).to(torch::kFloat, false, true);

    std::vector<int64_t> slotOf(static_cast<size_t>(positions));
    for (int64_t p = 0; p < positions; ++p)
        slotOf[size_t(p)] = p;
    auto newK = keys, newV = values;
    const auto on = keys.options(); // float32 on the cache's device
    auto counts = torch::ones({positions}, on);
    int64_t clusters = visualCount;
    if (how.merge && visualCount > 1) {
        // The clustering reads the keys on the host.
        auto vis = keys.narrow(0, visualFirst, visualCount)
                       .reshape({visualCount, -1})
                       .to(torch::kCPU)
                       .contiguous();
        std::vector<float> rows(vis.data_ptr<float>(), vis.data_ptr<float>() + vis.numel());
        const auto cluster =
            clusterByCosine(rows, int(visualCount), int(vis.size(1)), how.threshold);
        clusters = 1 + *std::max_element(cluster.begin(), cluster.end());
        std::vector<int64_t> index(cluster.begin(), cluster.end());
        auto idx = torch::tensor(index, torch::kLong).to(keys.device());
        auto sumK = torch::zeros({clusters, cache.kvHeads, cache.headDim}, on)
                        .index_add_(0, idx, keys.narrow(0, visualFirst, visualCount));
        auto sumV = torch::zeros({clusters, cache.kvHeads, cache.headDim}, on)
                        .index_add_(0, idx, values.narrow(0, visualFirst, visualCount));
        auto size = torch::zeros({clusters}, on).index_add_(0, idx, torch::ones({visualCount}, on));
        const int64_t tail = positions - visualFirst - visualCount;
        newK = torch::cat({keys.narrow(0, 0, visualFirst), sumK / size.view({-1, 1, 1}),
                           keys.narrow(0, visualFirst + visualCount, tail)});
        newV = torch::cat({values.narrow(0, 0, visualFirst), sumV / size.view({-1, 1, 1}),
                           values.narrow(0, visualFirst + visualCount, tail)});
        counts = torch::cat({torch::ones({visualFirst}, on), size, torch::ones({tail}, on)});
        for (int64_t i = 0; i < visualCount; ++i)
            slotOf[size_t(visualFirst + i)] = visualFirst + cluster[size_t(i)];
        for (int64_t p = visualFirst + visualCount; p < positions; ++p)
            slotOf[size_t(p)] = p - visualCount + clusters;
    }
    const int64_t slots = newK.size(0);
    if (how.merge) {
        cache.logCount = torch::zeros({cache.maxSeq}, on);
        cache.logCount.narrow(0, 0, slots).copy_(counts.log());
        cache.slotOfPosition = torch::tensor(slotOf, torch::kLong).to(keys.device());
    }
    cache.slots = int(slots);
    torch::Tensor storedK = newK, storedV = newV;
    if (how.int4) {
        auto [qk, deqK] = int4Slots(newK, cache, slots);
        auto [qv, deqV] = int4Slots(newV, cache, slots);
        cache.qk = qk;
        cache.qv = qv;
        cache.int4 = true;
        cache.k = cache.v = torch::Tensor(); // the float cache is released
        storedK = deqK;
        storedV = deqV;
    } else {
        cache.k.narrow(0, 0, slots).copy_(newK);
        cache.v.narrow(0, 0, slots).copy_(newV);
    }
    if (!report) return;
    ProbeWork work(rec);
    accountError(*report, keys, values, storedK, storedV, slotOf, slots, visualCount, clusters);
}

} // namespace mvp
