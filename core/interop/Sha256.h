#pragma once
// SHA-256 (FIPS 180-4), to name a file by its content: a session records the
// weights that ran as the same hex digest `sha256sum` prints.

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace mvp {

class Sha256 {
public:
    Sha256();
    void update(std::span<const uint8_t> bytes);
    std::array<uint8_t, 32> digest(); // ends the hash; update() no more after it
    std::string hexDigest();          // digest() as 64 lower-case hex digits

private:
    void block(const uint8_t* p);
    std::array<uint32_t, 8> h_;
    std::array<uint8_t, 64> buf_{};
    size_t used_ = 0;
    uint64_t total_ = 0;
};

std::string sha256Hex(std::span<const uint8_t> bytes);

} // namespace mvp
