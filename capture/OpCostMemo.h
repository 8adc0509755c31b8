#pragma once
// Remembers the cost (Flops.h) of recent op calls by their arguments, so the
// probe does not rerun a FLOP formula for a call it has already seen: a model
// calls the same op with the same shapes over and over (every decode step,
// every layer). Direct-mapped and fixed-size: a lookup allocates nothing and
// a miss costs one signature comparison. Not thread-safe: one per thread.

#include "capture/Flops.h"

#include <array>
#include <cstdint>
#include <vector>

namespace mvp {

class OpCostMemo {
public:
    // The cost stored for `op` (any stable address naming the op overload)
    // called with exactly `args` (kinds, shapes, values, element sizes and
    // layout alike), or nullptr. Remembers the signature for a store() that follows.
    const OpCost* find(const void* op, const std::vector<OpArg>& args);
    // Stores `cost` for the call last passed to find(); calls whose arguments
    // are too long to compare cheaply are not stored.
    void store(const OpCost& cost);

private:
    static constexpr size_t kSlots = 512, kMaxSignature = 40;
    struct Signature {
        std::array<int64_t, kMaxSignature> words{};
        size_t size = 0;
        bool fits = true;
        bool operator==(const Signature& o) const;
    };
    struct Slot {
        const void* op = nullptr;
        Signature signature;
        OpCost cost;
    };
    static void addArg(Signature& s, const OpArg& a);
    Slot& slotFor(const void* op, const Signature& s);

    std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
    const void* lastOp_ = nullptr;
    Signature last_;
};

} // namespace mvp
