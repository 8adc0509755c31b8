#pragma once
// Routing rows of one decoder layer packed into one BLOB (session format v10,
// docs/format.md "routing_chunk"): a MoE capture writes a row per (token,
// rank) per layer — thousands per short prompt — and as SQL rows they took
// ~42 bytes each. Pure encoding, no SQLite: RoutingStore.h stores it.

#include "core/Result.h"
#include "core/session/Records.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mvp {

// Encodings of routing_chunk.data: 1, the rows below; 2, those bytes
// deflated (a zlib stream). This build writes 2 and reads both.
inline constexpr int kRoutingPlain = 1;
inline constexpr int kRoutingDeflated = 2;
// The most bytes one row takes (six varints and a float64).
inline constexpr size_t kMaxRoutingRowBytes = 6 * 10 + 8;

// The rows (all of one layer, in any order) as encoding 1.
std::string encodeRoutingRows(const std::vector<const RoutingRow*>& rows);

// Appends the chunk's `rows` rows of `layer` to `out`. Damage — a cut-off
// row, an unknown phase or modality code, bytes left over — is an Error,
// never a row.
Status decodeRoutingRows(std::string_view data, int64_t rows, int layer,
                         std::vector<RoutingRow>& out);

} // namespace mvp
