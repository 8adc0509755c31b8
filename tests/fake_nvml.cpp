/* A stand-in for libnvidia-ml.so.1 with NVML's C signatures, for the energy
   reader's tests on machines without NVIDIA's driver. FAKE_NVML_MODE picks
   the behaviour: "ok" (the counter starts at 1000 mJ and grows 1500 mJ per
   read), "init-fails", "no-gpu", "unsupported", "restarts" (the counter falls to 0 after the first
   read). GPU 0 (by index, or by PCI bus id 0000:3b:00.0) is that counter;
   the GPU on bus 0000:af:00.0 (bus ids parsed as NVML does, %x:%x:%x.%x)
   counts from 7000 mJ, 2500 mJ per read. */
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {

static const char* mode(void) {
    const char* m = getenv("FAKE_NVML_MODE");
    return m ? m : "ok";
}
static unsigned long long counter = 1000, other = 7000;

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
    case 6:
        return "Not Found";
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
int nvmlDeviceGetHandleByPciBusId_v2(const char* id, void** device) {
    unsigned domain = 0, bus = 0, slot = 0, function = 0;
    if (strcmp(mode(), "no-gpu") == 0 ||
        sscanf(id, "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4)
        return 2;
    if (domain != 0 || slot != 0 || function != 0 || (bus != 0x3b && bus != 0xaf)) return 6;
    *device = bus == 0x3b ? &counter : &other;
    return 0;
}
int nvmlDeviceGetTotalEnergyConsumption(void* device, unsigned long long* millijoules) {
    if (strcmp(mode(), "unsupported") == 0) return 3;
    auto* value = static_cast<unsigned long long*>(device);
    *millijoules = *value;
    if (strcmp(mode(), "restarts") == 0)
        *value = 0; // the driver reloaded
    else
        *value += value == &other ? 2500 : 1500;
    return 0;
}

} // extern "C"
