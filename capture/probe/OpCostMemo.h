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

    // The same signature built piece by piece, from values that are no OpArgs
    // yet (the probe reads libtorch's arguments once, for this and for the
    // record's shapes, and makes OpArgs only on a miss): beginCall, then per
    // argument in order addArg with the OpArg fields it would have and its
    // values with addValue (then its items' the same way), then findCall.
    // Both ways give the same words for the same arguments.
    void beginCall(const void* op) {
        lastOp_ = op;
        last_.size = 0; // the words beyond size are never read
        last_.fits = true;
    }
    void addArg(OpArg::Kind kind, size_t values, size_t items, int elemSize, bool contiguous,
                uint16_t typeCode) {
        if (!last_.fits || last_.size + 2 + values > kMaxSignature) {
            last_.fits = false;
            return;
        }
        last_.words[last_.size++] = int64_t(kind) | int64_t(values) << 8 | int64_t(items) << 32;
        last_.words[last_.size++] =
            int64_t(elemSize) << 1 | (contiguous ? 1 : 0) | int64_t(typeCode) << 16;
    }
    // One of the values the last addArg announced (room was checked there).
    void addValue(int64_t v) {
        if (last_.fits) last_.words[last_.size++] = v;
    }
    const Entry* findCall();
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
    void addArgWords(const OpArg& a);
    Slot& slotFor(const void* op, const Signature& s);

    std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
    const void* lastOp_ = nullptr;
    Signature last_;
    const void* outerOp_ = nullptr;
    Signature outer_;
    OpCost outerCost_;
};

} // namespace mvp
