#pragma once
// A growable array in fixed chunks of 2^16 elements: growing never copies
// or moves what it holds (a vector's doubling would need twice the memory
// for a moment) and never wastes more than one chunk (std::deque's 512-byte
// blocks cost ~10 % in allocator overhead at 48-byte elements). Random
// access iterators, so std::sort works on it. Internal to the importers.

#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

namespace mvp::interop {

template <class T> class ChunkedVector {
    static constexpr size_t kBits = 16, kChunk = size_t(1) << kBits, kMask = kChunk - 1;

public:
    template <class V> class Iter {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = std::remove_const_t<V>;
        using difference_type = std::ptrdiff_t;
        using pointer = V*;
        using reference = V&;

        Iter() = default;
        Iter(const ChunkedVector* v, size_t i) : v_(v), i_(i) {}
        reference operator*() const { return const_cast<reference>((*v_)[i_]); }
        pointer operator->() const { return &**this; }
        reference operator[](difference_type n) const { return *(*this + n); }
        Iter& operator++() { return ++i_, *this; }
        Iter& operator--() { return --i_, *this; }
        Iter operator++(int) { return {v_, i_++}; }
        Iter operator--(int) { return {v_, i_--}; }
        Iter& operator+=(difference_type n) { return i_ += size_t(n), *this; }
        Iter& operator-=(difference_type n) { return i_ -= size_t(n), *this; }
        friend Iter operator+(Iter a, difference_type n) { return a += n; }
        friend Iter operator+(difference_type n, Iter a) { return a += n; }
        friend Iter operator-(Iter a, difference_type n) { return a -= n; }
        friend difference_type operator-(const Iter& a, const Iter& b) {
            return difference_type(a.i_) - difference_type(b.i_);
        }
        friend bool operator==(const Iter& a, const Iter& b) { return a.i_ == b.i_; }
        friend auto operator<=>(const Iter& a, const Iter& b) { return a.i_ <=> b.i_; }

    private:
        const ChunkedVector* v_ = nullptr;
        size_t i_ = 0;
    };
    using iterator = Iter<T>;
    using const_iterator = Iter<const T>;

    ChunkedVector() = default;
    ChunkedVector(const ChunkedVector&) = delete;
    ChunkedVector& operator=(const ChunkedVector&) = delete;
    ChunkedVector(ChunkedVector&&) noexcept = default;
    ChunkedVector& operator=(ChunkedVector&&) noexcept = default;

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](size_t i) { return chunks_[i >> kBits][i & kMask]; }
    const T& operator[](size_t i) const { return chunks_[i >> kBits][i & kMask]; }
    T& front() { return (*this)[0]; }
    const T& front() const { return (*this)[0]; }
    void push_back(const T& v) {
        if ((size_ & kMask) == 0 && (size_ >> kBits) == chunks_.size())
            chunks_.push_back(std::make_unique<T[]>(kChunk));
        (*this)[size_++] = v;
    }
    iterator begin() { return {this, 0}; }
    iterator end() { return {this, size_}; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size_}; }

private:
    std::vector<std::unique_ptr<T[]>> chunks_;
    size_t size_ = 0;
};

} // namespace mvp::interop
