#pragma once
// Perceptual colormaps for heatmaps: t in [0, 1] → sRGB.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mvp {

enum class Colormap { Viridis, Magma, Turbo };

std::array<uint8_t, 3> colorAt(Colormap map, double t);
std::optional<Colormap> colormapFromName(const std::string& name);
const char* colormapName(Colormap map);
std::vector<std::string> colormapNames();

} // namespace mvp
