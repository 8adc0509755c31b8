#include "core/Resources.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace mvp {

namespace fs = std::filesystem;

std::optional<std::string> resourcePath(const std::string& relative) {
    std::vector<fs::path> roots;
    if (const char* env = std::getenv("MVPROF_RESOURCES")) roots.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path prefix = exe.parent_path().parent_path();
        roots.push_back(prefix.parent_path() / "resources"); // <root>/build/bin/…
        roots.push_back(prefix / "share/mvprof");            // <prefix>/bin/…
    }
    for (const auto& r : roots)
        if (fs::is_regular_file(r / relative, ec)) return fs::absolute(r / relative, ec).string();
    return std::nullopt;
}

} // namespace mvp
