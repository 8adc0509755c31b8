#include "core/compare/Sweep.h"

namespace mvp {

void fillFromRun(SweepPoint& p, const RunData& base, const RunData& w) {
    if (const auto* held = findMetric(w, "tokens.layer_averaged")) p.tokensHeld = held->value;
    if (p.method == Method::Dart)
        for (const auto& m : w.runMetrics)
            if (m.name.rfind("tokens.kept.layer_", 0) == 0) p.tokensHeld = m.value;
    if (const auto* held = findMetric(w, "kv.positions_per_head")) p.tokensHeld = held->value;
    const auto* a = findMetric(base, "kv.bytes");
    const auto* b = findMetric(w, "kv.bytes");
    if (a && b && a->value > 0) p.kvBytesRatio = b->value / a->value;
}

} // namespace mvp
