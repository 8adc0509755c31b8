#include "capture/OpCostMemo.h"

#include <algorithm>

namespace mvp {

bool OpCostMemo::Signature::operator==(const Signature& o) const {
    return size == o.size && std::equal(words.begin(), words.begin() + long(size), o.words.begin());
}

// Every field estimateOpCost reads, with the kinds and lengths in between, so
// that two different argument lists can never flatten to the same words.
void OpCostMemo::addArg(Signature& s, const OpArg& a) {
    if (!s.fits || s.size + 2 + a.values.size() > kMaxSignature) {
        s.fits = false;
        return;
    }
    s.words[s.size++] =
        int64_t(a.kind) | int64_t(a.values.size()) << 8 | int64_t(a.items.size()) << 32;
    s.words[s.size++] =
        int64_t(a.elemSize) << 1 | (a.contiguous ? 1 : 0) | int64_t(a.typeCode) << 16;
    for (const int64_t v : a.values)
        s.words[s.size++] = v;
    for (const auto& item : a.items)
        addArg(s, item);
}

OpCostMemo::Slot& OpCostMemo::slotFor(const void* op, const Signature& s) {
    // FNV-style mix of the op's address and the signature's words.
    uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(op)) * 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < s.size; ++i)
        h = (h ^ uint64_t(s.words[i])) * 0x100000001B3ull;
    return slots_[(h >> 20) % kSlots];
}

const OpCostMemo::Entry* OpCostMemo::find(const void* op, const std::vector<OpArg>& args) {
    last_.size = 0; // the words beyond size are never read
    last_.fits = true;
    lastOp_ = op;
    for (const auto& a : args)
        addArg(last_, a);
    if (!last_.fits) return nullptr;
    const Slot& slot = slotFor(op, last_);
    return slot.op == op && slot.signature == last_ ? &slot.entry : nullptr;
}

void OpCostMemo::store(const OpCost& cost) {
    if (!last_.fits || !lastOp_) return;
    Slot& slot = slotFor(lastOp_, last_);
    slot.op = lastOp_;
    slot.signature = last_;
    slot.entry = {cost, std::nullopt};
}

void OpCostMemo::holdOuter(const OpCost& cost) {
    outerOp_ = last_.fits ? lastOp_ : nullptr;
    outer_ = last_;
    outerCost_ = cost;
}

void OpCostMemo::storeOuter(const NestedCalls& nested) {
    if (!outerOp_) return;
    Slot& slot = slotFor(outerOp_, outer_);
    slot.op = outerOp_;
    slot.signature = outer_;
    slot.entry = {outerCost_, nested};
    outerOp_ = nullptr;
}

} // namespace mvp
