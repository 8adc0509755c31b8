#include "capture/whatif/Downsample.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace mvp {

Result<int> downsampleGrid(int grid, int tokens) {
    const int g = int(std::lround(std::sqrt(double(std::max(tokens, 0)))));
    if (g < 1 || g >= grid)
        return makeError(ErrorCode::BadInput,
                         "downsampling sends from 1 to " + std::to_string((grid - 1) * (grid - 1)) +
                             " visual tokens (a square grid smaller than the encoder's " +
                             std::to_string(grid) + " × " + std::to_string(grid) + "), not " +
                             std::to_string(tokens));
    return g;
}

std::vector<int> downsampleRepresentatives(int grid, int g) {
    std::vector<int> out;
    auto centre = [&](int i) { return int(std::floor((i + 0.5) * grid / g)); };
    for (int r = 0; r < g; ++r)
        for (int c = 0; c < g; ++c)
            out.push_back(centre(r) * grid + centre(c));
    return out;
}

} // namespace mvp
