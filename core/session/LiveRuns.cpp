#include "core/session/LiveRuns.h"

#include "core/session/SessionReader.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace mvp {

namespace fs = std::filesystem;

std::string liveRunsDirectory() {
    const char* xdg = std::getenv("XDG_RUNTIME_DIR");
    if (xdg && *xdg && fs::is_directory(xdg)) return (fs::path(xdg) / "mvprof").string();
    return "/tmp/mvprof-" + std::to_string(::getuid());
}

LiveRunAnnouncement::LiveRunAnnouncement(const std::string& session, const std::string& model,
                                         int64_t run, const std::string& startedUtc) {
    std::error_code ec;
    const fs::path dir = liveRunsDirectory();
    fs::create_directories(dir, ec);
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec); // per user
    const fs::path file = dir / (std::to_string(::getpid()) + ".json");
    const nlohmann::json j{{"pid", int64_t(::getpid())},
                           {"host", hostName()},
                           {"session", fs::absolute(session, ec).string()},
                           {"model", model},
                           {"run", run},
                           {"started_utc", startedUtc}};
    // Write then rename, so a reader never sees half a file.
    const fs::path tmp = file.string() + ".tmp";
    {
        std::ofstream out(tmp);
        out << j.dump();
    }
    fs::rename(tmp, file, ec);
    if (!ec) file_ = file.string();
}

LiveRunAnnouncement::~LiveRunAnnouncement() {
    std::error_code ec;
    if (!file_.empty()) fs::remove(file_, ec);
}

std::vector<LiveRun> listLiveRuns() {
    std::vector<LiveRun> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(liveRunsDirectory(), ec)) {
        if (entry.path().extension() != ".json") continue;
        std::ifstream in(entry.path());
        const auto j = nlohmann::json::parse(in, nullptr, false);
        if (!j.is_object()) continue;
        LiveRun r;
        r.pid = j.value("pid", int64_t(0));
        r.host = j.value("host", std::string());
        r.session = j.value("session", std::string());
        r.model = j.value("model", std::string());
        r.run = j.value("run", int64_t(0));
        r.startedUtc = j.value("started_utc", std::string());
        r.file = entry.path().string();
        r.stale = !processAlive(r.pid, r.host);
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(),
              [](const LiveRun& a, const LiveRun& b) { return a.startedUtc > b.startedUtc; });
    return out;
}

int cleanStaleLiveRuns() {
    int n = 0;
    std::error_code ec;
    for (const auto& r : listLiveRuns())
        if (r.stale && fs::remove(r.file, ec)) ++n;
    return n;
}

} // namespace mvp
