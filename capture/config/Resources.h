#pragma once
// The photographs mvprof ships, loaded for generated scenes (resourcePath:
// core/Resources.h). Plain C++.

#include "core/Resources.h" // resourcePath
#include "core/Result.h"
#include "core/image/Image.h"

#include <optional>
#include <string>
#include <vector>

namespace mvp {

// The bundled photographs scenes take backdrops from: one for training (and
// make-set's train split), the other held out of training.
inline constexpr const char* kTrainingPhoto = "samples/astronaut.png";
inline constexpr const char* kHeldOutPhoto = "samples/chelsea.png";

// The photographs generated scenes draw backdrops from (core/eval/Scenes.h):
// the files `given`, or when none the bundled `sample` (resourcePath). A
// missing sample is NotFound saying to pass --photos; a bad file, loadImage's error.
Result<std::vector<RgbImage>> loadPhotos(const std::vector<std::string>& given,
                                         const std::string& sample);

} // namespace mvp
