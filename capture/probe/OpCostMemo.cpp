#include "capture/probe/OpCostMemo.h"

#include <algorithm>

namespace mvp {

bool OpCostMemo::Signature::operator==(const Signature& o) const {
    return size == o.size && std::equal(words.begin(), words.begin() + long(size), o.words.begin());
}

// Every field estimateOpCost reads, with the kinds and lengths in between, so
// that two different argument lists can never flatten to the same words.
void OpCostMemo::addArgWords(const OpArg& a) {
    addArg(a.kind, a.values.size(), a.items.size(), a.elemSize, a.contiguous, a.typeCode);
    for (const int64_t v : a.values)
        addValue(v);
    for (const auto& item : a.items)
        addArgWords(item);
}

OpCostMemo::Slot& OpCostMemo::slotFor(const void* op, const Signature& s) {
    // FNV-style mix of the op's address and the signature's words.
    uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(op)) * 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < s.size; ++i)
        h = (h ^ uint64_t(s.words[i])) * 0x100000001B3ull;
    return slots_[(h >> 20) % kSlots];
}

const OpCostMemo::Entry* OpCostMemo::find(const void* op, const std::vector<OpArg>& args) {
    beginCall(op);
    for (const auto& a : args)
        addArgWords(a);
    return findCall();
}

const OpCostMemo::Entry* OpCostMemo::findCall() {
    if (!last_.fits) return nullptr;
    const Slot& slot = slotFor(lastOp_, last_);
    return slot.op == lastOp_ && slot.signature == last_ ? &slot.entry : nullptr;
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
