#pragma once
// Files mvprof ships (resources/ in the source tree, share/mvprof once
// installed): the sample photographs, bundled checkpoints. Plain C++.

#include <optional>
#include <string>

namespace mvp {

// The first existing `relative` (e.g. "samples/astronaut.png") under
// $MVPROF_RESOURCES, the source tree's resources/ beside the build folder
// that holds this executable (<root>/build/bin), or <prefix>/share/mvprof
// beside <prefix>/bin. Absolute; nothing when none exists.
std::optional<std::string> resourcePath(const std::string& relative);

} // namespace mvp
