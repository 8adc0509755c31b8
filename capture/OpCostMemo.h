#pragma once
// Remembers the cost (Flops.h) of recent op calls by their arguments, so the
// probe does not rerun a FLOP formula for a call it has already seen: a model
// calls the same op with the same shapes over and over (every decode step,
// every layer). For a top-level call it also remembers what the calls nested
// in it added up to (NestedCalls), so that the next such call can run them
// unobserved. Direct-mapped and fixed-size: a lookup allocates nothing and a
// miss costs one signature comparison. Not thread-safe: one per thread.

#include "core/ops/Flops.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mvp {

// A call's ChildCalls and the arithmetic leaves among its nested calls, each
// counted once in the leaf table: enough to account for the nested calls
// without observing them.
struct NestedCalls {
    static constexpr int kMaxLeaves = 4;
    ChildCalls children;
    int leafCount = 0;
    std::array<std::pair<const std::string*, int64_t>, kMaxLeaves> leaves{}; // name, FLOPs
};

class OpCostMemo {
public:
    struct Entry {
        OpCost cost;
        std::optional<NestedCalls> nested; // stored by storeOuter(), for top-level calls
    };
    // The entry stored for `op` (any stable address naming the op overload)
    // called with exactly `args` (kinds, shapes, dtypes, values, layout alike),
    // or nullptr. Remembers the signature for a store() that follows.
    const Entry* find(const void* op, const std::vector<OpArg>& args);
    // Stores `cost` for the call last passed to find(); calls whose arguments
    // are too long to compare cheaply are not stored.
    void store(const OpCost& cost);
    // Sets the call last passed to find() aside, with its cost, while its
    // nested calls use the memo; storeOuter() then stores what they added up to.
    void holdOuter(const OpCost& cost);
    void storeOuter(const NestedCalls& nested);

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
        Entry entry;
    };
    static void addArg(Signature& s, const OpArg& a);
    Slot& slotFor(const void* op, const Signature& s);

    std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
    const void* lastOp_ = nullptr;
    Signature last_;
    const void* outerOp_ = nullptr;
    Signature outer_;
    OpCost outerCost_;
};

} // namespace mvp
