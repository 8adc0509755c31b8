// GPU checks of the CUDA capture parts (exit 77 without a GPU). Plain C++, no
// Qt: the GPU machine has none. The CUPTI tracer sees copies and fills made
// between pushed op / span ids and the join attributes them; `launch
// --cuda-inject` traces an unmodified CUDA program built by the suite
// (tests/cuda_saxpy.cu) into a session of its own.
#include "capture/cuda/CudaDriver.h"
#include "capture/cuda/CuptiTracer.h"
#include "core/interop/ActivityJoin.h"
#include "core/session/SessionReader.h"

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime_api.h>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace mvp;
using namespace mvp::cuda;

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    failures += ok ? 0 : 1;
}

const DeviceActivityRow* find(const std::vector<DeviceActivityRow>& rows, ActivityKind kind,
                              int64_t bytes) {
    for (const auto& r : rows)
        if (r.kind == kind && r.bytes == bytes) return &r;
    return nullptr;
}

void tracerAttributesCopiesToOps() {
    auto tracer = CuptiTracer::start();
    check(bool(tracer), "tracer starts" + (tracer ? "" : ": " + tracer.error().message));
    if (!tracer) return;
    constexpr size_t kBytes = 602112; // a 224-px float32 image
    std::vector<float> image(kBytes / sizeof(float), 0.5f);
    void* device = nullptr;
    check(cudaMalloc(&device, kBytes) == cudaSuccess, "cudaMalloc");
    CuptiTracer::pushSpan(5);
    CuptiTracer::pushOp(1);
    cudaMemcpy(device, image.data(), kBytes, cudaMemcpyHostToDevice);
    CuptiTracer::popOp();
    CuptiTracer::pushOp(2);
    cudaMemset(device, 0, kBytes);
    CuptiTracer::popOp();
    CuptiTracer::popSpan();
    cudaDeviceSynchronize();
    auto traced = (*tracer)->collect();
    check(bool(traced), "collect" + (traced ? "" : ": " + traced.error().message));
    if (!traced) return;
    check(traced->dropped == 0, "no records dropped");
    auto& rows = traced->parsed.rows;
    const auto stats = joinActivities(rows, traced->parsed.links,
                                      [](int64_t) { return std::optional<int64_t>(); });
    const auto* copy = find(rows, ActivityKind::Memcpy, kBytes);
    const auto* fill = find(rows, ActivityKind::Memset, kBytes);
    check(copy && copy->name == "Memcpy HtoD", "the image's copy is a Memcpy HtoD row");
    check(copy && copy->op == 1 && copy->span == 5, "the copy is op 1's, in span 5");
    check(fill && fill->op == 2 && fill->span == 5, "the fill is op 2's, in span 5");
    check(stats.gpuWork >= 2 && stats.withOp == stats.gpuWork, "all GPU work has its op");
    cudaFree(device);
}

void injectionTracesAnUnmodifiedProgram(const std::string& cli) {
    namespace fs = std::filesystem;
    char pattern[] = "/tmp/mvprof-cuda-gpu-XXXXXX";
    const fs::path dir = mkdtemp(pattern);
    const std::string command = cli + " launch --cuda-inject --out " +
                                (dir / "run.mvprof").string() + " -- " + MVP_CUDA_SAXPY;
    check(std::system(command.c_str()) == 0, command);
    std::vector<fs::path> left;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().rfind("run.cuda.", 0) == 0) left.push_back(e.path());
    check(left.empty(), "the process's own session was gathered into run.mvprof");
    auto reader = SessionReader::open((dir / "run.mvprof").string());
    auto runs = reader ? (*reader)->runs() : Result<std::vector<RunInfo>>(reader.error());
    check(runs && runs->size() == 1, "run.mvprof holds one run, the CUDA process's");
    if (!runs || runs->size() != 1) return;
    auto rows = (*reader)->activities(runs->front().id);
    check(bool(rows), "its activity reads back");
    if (!rows) return;
    std::map<int64_t, std::string> api;
    for (const auto& a : *rows)
        if (!onDevice(a.kind) && a.correlation) api[*a.correlation] = a.name;
    int kernels = 0, launched = 0;
    for (const auto& a : *rows)
        if (a.kind == ActivityKind::Kernel) {
            kernels += a.name == "saxpy(int, float, float const*, float*)";
            launched += api[a.correlation.value_or(-1)].rfind("cudaLaunchKernel", 0) == 0;
        }
    int copies = 0, fills = 0;
    for (const auto& a : *rows) {
        copies += a.kind == ActivityKind::Memcpy && a.bytes == 4 << 20;
        fills += a.kind == ActivityKind::Memset && a.bytes == 4 << 20;
    }
    check(kernels == 2, "2 saxpy kernels (" + std::to_string(kernels) + ")");
    check(launched == 2, "each kernel pairs with its cudaLaunchKernel call");
    check(copies == 2 && fills == 1, "2 copies and 1 fill of 4 MiB");
    fs::remove_all(dir);
}

} // namespace

int main(int argc, char** argv) {
    const auto gpu = probeCudaDriver();
    if (!gpu.available()) {
        std::printf("SKIP: no GPU here (%s)\n", gpu.reason.c_str());
        return 77;
    }
    tracerAttributesCopiesToOps();
    const char* cli = argc > 1 ? argv[1] : std::getenv("MVP_CLI");
    if (cli && *cli)
        injectionTracesAnUnmodifiedProgram(cli);
    else
        check(false, "no mvprof-cli given (argument or MVP_CLI)");
    std::printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
