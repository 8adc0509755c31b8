#include "SyntheticTrace.h"

#include <cstdio>

namespace mvp::test {

bool writeSyntheticTrace(const std::string& path, int64_t events) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    std::fputs(R"({"schemaVersion":1,"baseTimeNanoseconds":1700000000000000000,"traceEvents":[)",
               f);
    for (int64_t i = 0; i < events; ++i) {
        const long long m = 16 + i % 97, k = 64 + i % 31;
        std::fprintf(
            f,
            R"(%s{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":7,"tid":7,"ts":%lld.%03lld,)"
            R"("dur":1.250,"args":{"External id":%lld,"Record function id":0,)"
            R"("Input Dims":[[%lld,%lld],[%lld,64]],"Input type":["float","float"],)"
            R"("Input Strides":[[%lld,1],[64,1]],"Ev Idx":%lld,"Sequence number":-1}})",
            i ? "," : "", (long long)(i * 2), (long long)(i % 1000), (long long)i, m, k, k, k,
            (long long)i);
    }
    std::fputs("]}", f);
    return std::fclose(f) == 0;
}

} // namespace mvp::test
