/* A stand-in for libcuda.so.1's event API with the driver's C signatures,
   for the CUDA-event timer's tests on machines without a GPU. Its device
   has a clock the test moves (fake_cuda_advance); an event takes the clock's
   time when recorded and completes only when the host waits for it or for a
   later one (cuEventSynchronize) or for the whole device (cuCtxSynchronize):
   as on a real GPU, reading an incomplete event's time fails with
   CUDA_ERROR_NOT_READY. Events must go to the legacy default stream.
   Its one device (ordinal 0) sits on PCI bus "0000:af:00.0": NVML's second
   GPU, not its first (fake_nvml.cpp), as under CUDA_VISIBLE_DEVICES=1.
   FAKE_CUDA_MODE: "ok" (default), "record-fails" (cuEventRecord returns
   CUDA_ERROR_LAUNCH_FAILED), "create-fails" (cuEventCreate returns
   CUDA_ERROR_OUT_OF_MEMORY) or "no-bus-id" (cuDeviceGetPCIBusId fails). */
#include <cstdlib>
#include <cstring>

extern "C" {

namespace {
struct FakeEvent {
    long long seq = 0; // order of recording; 0: never recorded
    long long ns = 0;  // the device clock when recorded
};
long long deviceNs = 0, recorded = 0, completed = 0;
int eventWaits = 0, deviceWaits = 0, created = 0, destroyed = 0;

constexpr int kNotReady = 600, kInvalidHandle = 400, kLaunchFailed = 719, kInvalidValue = 1,
              kOutOfMemory = 2;

bool mode(const char* name) {
    const char* m = getenv("FAKE_CUDA_MODE");
    return m && strcmp(m, name) == 0;
}
} // namespace

// The test's side.
void fake_cuda_advance(long long ns) {
    deviceNs += ns;
}
int fake_cuda_event_waits(void) {
    return eventWaits;
}
int fake_cuda_device_waits(void) {
    return deviceWaits;
}
int fake_cuda_live_events(void) {
    return created - destroyed;
}

// The driver's side.
int cuInit(unsigned) {
    return 0;
}
int cuDeviceGetCount(int* n) {
    *n = 1;
    return 0;
}
int cuDeviceGet(int* device, int ordinal) {
    if (ordinal != 0) return 101; // CUDA_ERROR_INVALID_DEVICE
    *device = 0;
    return 0;
}
int cuDeviceGetPCIBusId(char* id, int length, int device) {
    if (mode("no-bus-id") || device != 0 || length < 13) return kInvalidValue;
    strcpy(id, "0000:af:00.0");
    return 0;
}
int cuEventCreate(void** event, unsigned flags) {
    if (flags != 0) return kInvalidValue; // only timed events are asked for
    if (mode("create-fails")) return kOutOfMemory;
    *event = new FakeEvent;
    ++created;
    return 0;
}
int cuEventRecord(void* event, void* stream) {
    if (stream != reinterpret_cast<void*>(0x1)) return kInvalidHandle;
    if (mode("record-fails")) return kLaunchFailed;
    auto* e = static_cast<FakeEvent*>(event);
    e->seq = ++recorded;
    e->ns = deviceNs;
    return 0;
}
int cuEventSynchronize(void* event) {
    ++eventWaits;
    const auto* e = static_cast<FakeEvent*>(event);
    if (e->seq > completed) completed = e->seq;
    return 0;
}
int cuCtxSynchronize(void) {
    ++deviceWaits;
    completed = recorded;
    return 0;
}
int cuEventElapsedTime_v2(float* ms, void* start, void* end) {
    const auto* a = static_cast<FakeEvent*>(start);
    const auto* b = static_cast<FakeEvent*>(end);
    if (a->seq == 0 || b->seq == 0) return kInvalidHandle;
    if (a->seq > completed || b->seq > completed) return kNotReady;
    *ms = float(double(b->ns - a->ns) / 1e6);
    return 0;
}
int cuEventDestroy_v2(void* event) {
    delete static_cast<FakeEvent*>(event);
    ++destroyed;
    return 0;
}

} // extern "C"
