#include "SyntheticTrace.h"

#include <cstdio>

namespace mvp::test {

namespace {
// Op i at ts.fraction µs (fraction: its ns digits).
void writeOp(std::FILE* f, int64_t i, long long ts, long long fraction, const char* sep) {
    const long long m = 16 + i % 97, k = 64 + i % 31;
    std::fprintf(f,
                 R"(%s{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":7,"tid":7,"ts":%lld.%03lld,)"
                 R"("dur":1.250,"args":{"External id":%lld,"Record function id":0,)"
                 R"("Input Dims":[[%lld,%lld],[%lld,64]],"Input type":["float","float"],)"
                 R"("Input Strides":[[%lld,1],[64,1]],"Ev Idx":%lld,"Sequence number":-1}})",
                 sep, ts, fraction, (long long)i, m, k, k, k, (long long)i);
}

// Launch i: its op at 6·i µs, the runtime call inside it, the kernel on
// GPU 0's stream 7 after it.
void writeLaunch(std::FILE* f, int64_t i, const char* sep) {
    const long long us = (long long)i * 6, id = (long long)i, corr = 100000 + (long long)i;
    writeOp(f, i, us, 0, sep);
    std::fprintf(f,
                 R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":7,"tid":7,)"
                 R"("ts":%lld.500,"dur":0.500,"args":{"External id":%lld,"cbid":211,)"
                 R"("correlation":%lld}})",
                 us, id, corr);
    std::fprintf(f,
                 R"(,{"ph":"X","cat":"kernel","name":"ampere_sgemm_64x32_sliced1x4_nn",)"
                 R"("pid":0,"tid":7,"ts":%lld.100,"dur":2.000,"args":{"External id":%lld,)"
                 R"("queued":0,"device":0,"context":1,"stream":7,"correlation":%lld,)"
                 R"("registers per thread":90,"shared memory":16384,"blocks per SM":1.5,)"
                 R"("grid":[4,8,1],"block":[128,1,1]}})",
                 us + 2, id, corr);
}
} // namespace

bool writeSyntheticTrace(const std::string& path, int64_t events, SyntheticMix mix) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    std::fputs(R"({"schemaVersion":1,"baseTimeNanoseconds":1700000000000000000,"traceEvents":[)",
               f);
    if (mix == SyntheticMix::CpuOps)
        for (int64_t i = 0; i < events; ++i)
            writeOp(f, i, (long long)(i * 2), (long long)(i % 1000), i ? "," : "");
    else
        for (int64_t i = 0; i < events / 3; ++i)
            writeLaunch(f, i, i ? "," : "");
    std::fputs("]}", f);
    return std::fclose(f) == 0;
}

} // namespace mvp::test
