/* A stand-in for libnvidia-ml.so.1 with NVML's C signatures, for the energy
   reader's tests on machines without NVIDIA's driver. FAKE_NVML_MODE picks
   the behaviour: "ok" (the counter starts at 1000 mJ and grows 1500 mJ per
   read), "init-fails", "no-gpu", "unsupported", "restarts" (the counter falls to 0 after the first
   read). */
#include <cstdlib>
#include <cstring>

extern "C" {

static const char* mode(void) {
    const char* m = getenv("FAKE_NVML_MODE");
    return m ? m : "ok";
}
static unsigned long long counter = 1000;

int nvmlInit_v2(void) {
    return strcmp(mode(), "init-fails") == 0 ? 9 : 0;
}
int nvmlShutdown(void) {
    return 0;
}
const char* nvmlErrorString(int code) {
    switch (code) {
    case 2:
        return "Invalid Argument";
    case 3:
        return "Not Supported";
    case 9:
        return "Driver Not Loaded";
    default:
        return "Unknown Error";
    }
}
int nvmlDeviceGetHandleByIndex_v2(unsigned index, void** device) {
    if (strcmp(mode(), "no-gpu") == 0 || index > 0) return 2;
    *device = &counter;
    return 0;
}
int nvmlDeviceGetTotalEnergyConsumption(void* device, unsigned long long* millijoules) {
    if (strcmp(mode(), "unsupported") == 0) return 3;
    *millijoules = *static_cast<unsigned long long*>(device);
    if (strcmp(mode(), "restarts") == 0)
        *static_cast<unsigned long long*>(device) = 0; // the driver reloaded
    else
        *static_cast<unsigned long long*>(device) += 1500;
    return 0;
}

} // extern "C"
