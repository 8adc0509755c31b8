#include "capture/config/Resources.h"

#include <vector>

namespace mvp {

Result<std::vector<RgbImage>> loadPhotos(const std::vector<std::string>& given,
                                         const std::string& sample) {
    std::vector<std::string> paths = given;
    if (paths.empty()) {
        const auto found = resourcePath(sample);
        if (!found)
            return makeError(ErrorCode::NotFound,
                             "the bundled " + sample +
                                 " was not found: pass --photos FILE (or set MVPROF_RESOURCES "
                                 "to the resources folder)");
        paths.push_back(*found);
    }
    std::vector<RgbImage> images;
    for (const auto& p : paths) {
        auto img = loadImage(p);
        if (!img) return img.error();
        images.push_back(std::move(*img));
    }
    return images;
}

} // namespace mvp
