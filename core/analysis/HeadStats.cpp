#include "core/analysis/HeadStats.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace mvp {

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size() || a.empty()) return 0;
    double dot = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        dot += double(a[i]) * b[i];
        na += double(a[i]) * a[i];
        nb += double(b[i]) * b[i];
    }
    return na > 0 && nb > 0 ? dot / std::sqrt(na * nb) : 0.0;
}

HeadRedundancy headRedundancy(int layer, const std::vector<AttnMapRow>& maps) {
    HeadRedundancy r;
    r.layer = layer;
    std::vector<const AttnMapRow*> usable;
    for (const auto& m : maps)
        if (!m.data.empty() && (usable.empty() || m.data.size() == usable.front()->data.size()))
            usable.push_back(&m);
    r.heads = int(usable.size());
    if (usable.size() < 2) return r;
    std::vector<HeadPair> pairs;
    double sum = 0;
    for (size_t i = 0; i < usable.size(); ++i)
        for (size_t j = i + 1; j < usable.size(); ++j) {
            const double c = cosine(usable[i]->data, usable[j]->data);
            pairs.push_back({usable[i]->head, usable[j]->head, c});
            sum += c;
        }
    r.redundancy = std::clamp(1.0 - sum / double(pairs.size()), 0.0, 1.0);
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& x, const auto& y) { return x.cosine > y.cosine; });
    pairs.resize(std::min<size_t>(3, pairs.size()));
    r.topPairs = pairs;
    std::set<int> heads;
    for (const auto& p : pairs)
        heads.insert({p.a, p.b});
    r.topHeadShare = double(heads.size()) / double(r.heads);
    r.valid = true;
    return r;
}

} // namespace mvp
