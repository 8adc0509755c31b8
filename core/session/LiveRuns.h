#pragma once
// Live runs announce themselves so a GUI can attach: a program that is
// capturing writes <runtime dir>/mvprof/<pid>.json (pid, session path, model,
// start time) and removes it when the run ends. The runtime dir is
// $XDG_RUNTIME_DIR, else /tmp/mvprof-<uid>. An announcement whose process is
// gone is stale: listed as such and removed by cleanStale().

#include <cstdint>
#include <string>
#include <vector>

namespace mvp {

struct LiveRun {
    int64_t pid = 0;
    std::string host;
    std::string session; // absolute path of the session file
    std::string model;
    std::string startedUtc;
    int64_t run = 0;
    bool stale = false; // its process no longer exists
    std::string file;   // the announcement file
};

std::string liveRunsDirectory();

// Writes the announcement on construction and removes it on destruction.
class LiveRunAnnouncement {
public:
    LiveRunAnnouncement(const std::string& session, const std::string& model, int64_t run,
                        const std::string& startedUtc);
    ~LiveRunAnnouncement();
    LiveRunAnnouncement(const LiveRunAnnouncement&) = delete;
    LiveRunAnnouncement& operator=(const LiveRunAnnouncement&) = delete;
    const std::string& file() const { return file_; }

private:
    std::string file_;
};

// Every announcement, newest first; unreadable files are skipped.
std::vector<LiveRun> listLiveRuns();
// Removes stale announcements; returns how many.
int cleanStaleLiveRuns();

} // namespace mvp
