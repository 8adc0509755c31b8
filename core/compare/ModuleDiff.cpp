#include "core/compare/ModuleDiff.h"

#include "core/analysis/ModuleCosts.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace mvp {

std::vector<ModuleDiffRow> diffModules(const RunData& a, const RunData& b) {
    std::map<std::string, ModuleDiffRow> byPath;
    auto add = [&](const RunData& run, bool isA) {
        const auto tree = buildModuleCosts(run.modules, run.spans, run.run.wallNs);
        for (const auto& n : tree.nodes) {
            auto& r = byPath[n.module.path];
            r.path = n.module.path;
            r.kind = n.module.kind;
            if (isA) {
                r.inA = true;
                r.aNs = n.totalNs, r.aSelfNs = n.selfNs, r.aFlops = n.flops, r.aBytes = n.bytes;
                r.aFlopsKnown = n.flopsKnown;
            } else {
                r.inB = true;
                r.bNs = n.totalNs, r.bSelfNs = n.selfNs, r.bFlops = n.flops, r.bBytes = n.bytes;
                r.bFlopsKnown = n.flopsKnown;
            }
        }
    };
    add(a, true);
    add(b, false);
    std::vector<ModuleDiffRow> rows;
    rows.reserve(byPath.size());
    for (auto& [path, r] : byPath)
        rows.push_back(std::move(r));
    std::stable_sort(rows.begin(), rows.end(), [](const ModuleDiffRow& x, const ModuleDiffRow& y) {
        return std::llabs(x.bSelfNs - x.aSelfNs) > std::llabs(y.bSelfNs - y.aSelfNs);
    });
    return rows;
}

std::string formatModuleDiffText(const std::vector<ModuleDiffRow>& rows, size_t limit) {
    std::string o = "  module                              A ms      B ms      Δ ms   ratio      Δ "
                    "GFLOP      Δ MiB\n";
    char buf[256];
    for (size_t i = 0; i < rows.size() && i < limit; ++i) {
        const auto& r = rows[i];
        char flops[32] = "–";
        if (r.flopsComparable())
            std::snprintf(flops, sizeof flops, "%+.4f", double(r.deltaFlops()) / 1e9);
        std::snprintf(buf, sizeof buf, "  %-32.32s %8.2f  %8.2f  %+8.2f  %6s  %11s  %+9.2f\n",
                      r.path.c_str(), double(r.aNs) / 1e6, double(r.bNs) / 1e6,
                      double(r.deltaNs()) / 1e6,
                      r.aNs > 0 ? (std::to_string(r.ratio()).substr(0, 4) + "×").c_str() : "–",
                      flops, double(r.deltaBytes()) / double(1 << 20));
        o += buf;
    }
    if (rows.size() > limit) o += "  … " + std::to_string(rows.size() - limit) + " more modules\n";
    o += "  (times measured; FLOPs and bytes estimated from op shapes; sorted by |Δ self time|)\n";
    return o;
}

} // namespace mvp
