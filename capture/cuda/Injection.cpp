// libmvprof_inject.so: attaches mvprof's CUPTI tracer to an unmodified CUDA
// program (docs/capture-notes.md §4). The driver loads it when CUDA_INJECTION64_PATH
// names it and calls InitializeInjection() during cuInit; `mvprof-cli launch
// --cuda-inject` sets that up. Records are collected when a context is about
// to be destroyed (its buffers would go with it) and at exit, then written as
// one run of a session per process (InjectedRun.h), named by
// $MVPROF_INJECT_SESSION. The program is never stopped or failed by it: a
// tracer that cannot start says why on stderr and records nothing.
#include "capture/cuda/CuptiTracer.h"
#include "capture/cuda/InjectedRun.h"

#include <cstdio>
#include <cstdlib>
#include <cupti.h>
#include <fstream>
#include <mutex>
#include <string>
#include <unistd.h>

namespace {

using namespace mvp::cuda;

struct Injected {
    std::mutex mutex;
    std::unique_ptr<CuptiTracer> tracer;
    TracedActivities traced; // everything collected so far
    bool written = false;
};

Injected& state() {
    static auto* s = new Injected; // never destroyed: atexit handlers use it late
    return *s;
}

void say(const std::string& what) {
    std::fprintf(stderr, "mvprof-inject[%d]: %s\n", int(::getpid()), what.c_str());
}

// Appends what CUPTI has completed to the process's trace.
void collect(Injected& s) {
    if (!s.tracer) return;
    auto more = s.tracer->collect();
    if (!more) {
        say(more.error().message);
        return;
    }
    auto& into = s.traced.parsed;
    auto& from = more->parsed;
    into.rows.insert(into.rows.end(), from.rows.begin(), from.rows.end());
    into.links.insert(into.links.end(), from.links.begin(), from.links.end());
    into.otherRecords += from.otherRecords;
    s.traced.dropped += more->dropped;
    s.traced.buffers += more->buffers;
}

std::vector<std::string> commandLine() {
    std::vector<std::string> out;
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    for (std::string arg; std::getline(in, arg, '\0');)
        out.push_back(arg);
    return out;
}

void writeSession() {
    Injected& s = state();
    std::lock_guard lock(s.mutex);
    if (s.written || !s.tracer) return;
    collect(s);
    s.written = true;
    s.tracer.reset();
    const char* pattern = std::getenv(kInjectSessionVariable);
    const std::string path =
        injectedSessionPath(pattern && *pattern ? pattern : "mvprof-inject.mvprof", ::getpid());
    auto run = writeInjectedRun(path, std::move(s.traced), {commandLine(), int64_t(::getpid())});
    if (run)
        say("wrote " + path);
    else
        say("could not write " + path + ": " + run.error().message);
    cuptiFinalize(); // CUDA 13.0/13.1 can crash unloading CUPTI without it (docs/capture-notes.md §4)
}

void CUPTIAPI onResource(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void*) {
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || id != CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
        return;
    Injected& s = state();
    std::lock_guard lock(s.mutex);
    collect(s);
}

bool watchContextTeardown() {
    CUpti_SubscriberHandle subscriber = nullptr;
    if (cuptiSubscribe(&subscriber, onResource, nullptr) != CUPTI_SUCCESS) return false;
    return cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                               CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) == CUPTI_SUCCESS;
}

} // namespace

// Called by the CUDA driver (not declared in any CUPTI header). Returns 1:
// the program goes on whether or not tracing could start.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    Injected& s = state();
    {
        std::lock_guard lock(s.mutex);
        if (s.tracer || s.written) return 1;
        auto tracer = CuptiTracer::start();
        if (!tracer) {
            say("not tracing: " + tracer.error().message);
            return 1;
        }
        s.tracer = std::move(*tracer);
    }
    if (!watchContextTeardown())
        say("cannot watch context teardown: records of a destroyed context may be lost");
    std::atexit(writeSession);
    return 1;
}
