#include "app/cli/Cancel.h"

#include <csignal>

namespace mvp::cli {

namespace {
std::atomic<bool> gCancel{false};
extern "C" void onSignal(int) {
    gCancel = true;
}
} // namespace

const std::atomic<bool>* installCancelHandlers() {
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    return &gCancel;
}

} // namespace mvp::cli
