#pragma once
// Files mvprof ships (resources/ in the source tree, share/mvprof once
// installed): sample images, bundled checkpoints. Plain C++: the capture
// side and the GUI both look them up.

#include <optional>
#include <string>

namespace mvp {

// The first existing file `relative` (e.g. "samples/astronaut.png") under
// $MVPROF_RESOURCES, the source tree's resources/ beside the build folder
// that holds this executable (<root>/build/bin), or <prefix>/share/mvprof
// beside <prefix>/bin. Absolute; nothing when none exists.
std::optional<std::string> resourcePath(const std::string& relative);

// The bundled sample image a first capture starts from, and the generated
// scene the trained ref:demo answers questions about (./run.sh's).
inline constexpr const char* kSampleImage = "samples/astronaut.png";
inline constexpr const char* kSampleScene = "samples/scene.png";

} // namespace mvp
