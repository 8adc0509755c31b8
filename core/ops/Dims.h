#pragma once
// A shape or integer list: up to 8 values inline, so recording an op's
// argument shapes allocates nothing in the common case; longer lists move to
// the heap. The subset of std::vector's interface the FLOP formulas use.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <vector>

namespace mvp {

class Dims {
public:
    using value_type = int64_t;
    using iterator = int64_t*;
    using const_iterator = const int64_t*;
    static constexpr size_t kInline = 8;

    Dims() = default;
    Dims(size_t n, int64_t value) {
        for (size_t i = 0; i < n; ++i)
            push_back(value);
    }
    Dims(std::initializer_list<int64_t> values) { assign(values.begin(), values.end()); }
    template <typename It> Dims(It first, It last) { assign(first, last); }
    Dims(const std::vector<int64_t>& v) {
        assign(v.begin(), v.end());
    } // NOLINT: implicit on purpose
    Dims(const Dims& o) { assign(o.begin(), o.end()); }
    Dims& operator=(const Dims& o) {
        if (this != &o) assign(o.begin(), o.end());
        return *this;
    }

    template <typename It> void assign(It first, It last) {
        if constexpr (std::random_access_iterator<It>) {
            // The probe's common case, once per tensor argument: one copy.
            const auto n = size_t(last - first);
            if (n <= capacity()) {
                std::copy(first, last, data());
                size_ = n;
                return;
            }
        }
        size_ = 0;
        for (; first != last; ++first)
            push_back(int64_t(*first));
    }
    void push_back(int64_t v) {
        if (size_ == capacity()) grow();
        data()[size_++] = v;
    }
    void clear() { size_ = 0; }
    iterator insert(iterator at, int64_t v) {
        const size_t i = size_t(at - begin());
        push_back(v);
        std::rotate(begin() + i, end() - 1, end());
        return begin() + i;
    }
    template <typename It> iterator insert(iterator at, It first, It last) {
        const size_t i = size_t(at - begin()), before = size_;
        for (; first != last; ++first)
            push_back(int64_t(*first));
        std::rotate(begin() + i, begin() + before, end());
        return begin() + i;
    }
    iterator erase(iterator at) {
        std::copy(at + 1, end(), at);
        --size_;
        return at;
    }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    int64_t* data() { return heap_.empty() ? inline_ : heap_.data(); }
    const int64_t* data() const { return heap_.empty() ? inline_ : heap_.data(); }
    iterator begin() { return data(); }
    iterator end() { return data() + size_; }
    const_iterator begin() const { return data(); }
    const_iterator end() const { return data() + size_; }
    int64_t& operator[](size_t i) { return data()[i]; }
    int64_t operator[](size_t i) const { return data()[i]; }
    int64_t at(size_t i) const { return i < size_ ? data()[i] : 0; }
    int64_t back() const { return data()[size_ - 1]; }
    int64_t front() const { return data()[0]; }
    bool operator==(const Dims& o) const { return std::equal(begin(), end(), o.begin(), o.end()); }
    std::vector<int64_t> vec() const { return {begin(), end()}; }

private:
    size_t capacity() const { return heap_.empty() ? kInline : heap_.size(); }
    void grow() {
        std::vector<int64_t> bigger(std::max<size_t>(2 * capacity(), 16));
        std::copy(begin(), end(), bigger.begin());
        heap_.swap(bigger);
    }
    int64_t inline_[kInline] = {};
    std::vector<int64_t> heap_; // used once the values outgrow inline_
    size_t size_ = 0;
};

} // namespace mvp
