#include "core/image/Colormap.h"

#include "core/image/ColormapTables.h"

#include <algorithm>
#include <cmath>

namespace mvp {

namespace {
const std::array<std::array<uint8_t, 3>, 256>& table(Colormap map) {
    switch (map) {
    case Colormap::Magma:
        return colormaps::kMagma;
    case Colormap::Turbo:
        return colormaps::kTurbo;
    case Colormap::Viridis:
        break;
    }
    return colormaps::kViridis;
}
} // namespace

std::array<uint8_t, 3> colorAt(Colormap map, double t) {
    if (!std::isfinite(t)) t = 0;
    const auto i = size_t(std::lround(std::clamp(t, 0.0, 1.0) * 255.0));
    return table(map)[i];
}

const char* colormapName(Colormap map) {
    switch (map) {
    case Colormap::Magma:
        return "magma";
    case Colormap::Turbo:
        return "turbo";
    case Colormap::Viridis:
        break;
    }
    return "viridis";
}

std::optional<Colormap> colormapFromName(const std::string& name) {
    for (auto m : {Colormap::Viridis, Colormap::Magma, Colormap::Turbo})
        if (name == colormapName(m)) return m;
    return std::nullopt;
}

std::vector<std::string> colormapNames() {
    return {"viridis", "magma", "turbo"};
}

} // namespace mvp
