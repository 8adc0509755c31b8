#pragma once
// Traces written by the import tests from the documented formats
// (pytorch/kineto output_json.cpp, profiler_kineto.cpp; docs/interop.md
// §A), and the file helpers they share. Header-only: test code.

#include "TestSupport.h"
#include "core/interop/TraceJson.h"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>
#include <string>
#include <zlib.h>

namespace mvp::test::kineto {

using interop::Json;

inline std::string str(const QString& s) {
    return s.toStdString();
}

inline std::string pathIn(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(QString::fromUtf8(name)).toStdString();
}

inline bool writeText(const std::string& path, const std::string& text) {
    return test::writeFile(QString::fromStdString(path), QByteArray::fromStdString(text));
}

inline bool writeGzip(const std::string& path, const std::string& text) {
    gzFile f = gzopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = gzwrite(f, text.data(), unsigned(text.size())) == int(text.size());
    return gzclose(f) == Z_OK && ok;
}

inline Json slice(const char* cat, const std::string& name, const Json& ts, const Json& dur,
                  Json pid, Json tid, Json args = Json::object()) {
    return {{"ph", "X"},  {"cat", cat}, {"name", name}, {"pid", pid},
            {"tid", tid}, {"ts", ts},   {"dur", dur},   {"args", args}};
}

// aten::addmm(bias [64], x [32,128], w [128,64]) and its Kineto arguments.
inline Json addmmArgs(int64_t external) {
    return {{"Input Dims", {{64}, {32, 128}, {128, 64}, Json::array(), Json::array()}},
            {"Input type", {"float", "float", "float", "Scalar", "Scalar"}},
            {"Concrete Inputs", {"", "", "", "1", "1"}},
            {"External id", external}};
}
inline constexpr int64_t kAddmmFlops = 2LL * 32 * 64 * 128; // 2·M·N·K, worked by hand

// A Kineto trace (2024+ style: µs relative to baseTimeNanoseconds, with ns
// fractions): one step of a module Net_0 → Linear_0 → aten::linear → (t,
// addmm → cudaLaunchKernel), a copy_ with cudaMemcpyAsync, and on GPU 0 /
// stream 7 the GEMM kernel (External id), the copy (correlation only) and a
// memset (External id); plus a Python frame, an unknown category, a flow and
// an instant, which are counted, not imported.
inline std::string kinetoTrace() {
    const int pid = 4242, tid = 17;
    Json ev = Json::array();
    ev.push_back({{"ph", "M"},
                  {"name", "thread_name"},
                  {"pid", pid},
                  {"tid", tid},
                  {"args", {{"name", "thread 17 (python)"}}}});
    ev.push_back(slice("user_annotation", "ProfilerStep#1", "100.000", "50.000", pid, tid));
    ev.push_back(slice("python_function", "nn.Module: Net_0", "101.000", "40.000", pid, tid));
    ev.push_back(slice("python_function", "model.py(12): forward", "101.500", "39.000", pid, tid));
    ev.push_back(slice("python_function", "nn.Module: Linear_0", "102.000", "10.000", pid, tid));
    ev.push_back(slice("cpu_op", "aten::linear", "105.125", "3.250", pid, tid,
                       {{"Input Dims", {{32, 128}, {64, 128}, {64}}},
                        {"Input type", {"float", "float", "float"}},
                        {"External id", 10}}));
    ev.push_back(
        slice("cpu_op", "aten::t", "105.200", "0.300", pid, tid,
              {{"Input Dims", {{64, 128}}}, {"Input type", {"float"}}, {"External id", 11}}));
    ev.push_back(slice("cpu_op", "aten::addmm", "105.600", "2.500", pid, tid, addmmArgs(12)));
    ev.push_back(slice("cuda_runtime", "cudaLaunchKernel", "106.000", "1.000", pid, tid,
                       {{"correlation", 100}, {"External id", 12}, {"cbid", 211}}));
    ev.push_back(slice("cpu_op", "aten::copy_", "120.000", "5.000", pid, tid,
                       {{"Input Dims", {{32, 64}, {32, 64}, Json::array()}},
                        {"Input type", {"float", "float", "Scalar"}},
                        {"External id", 13}}));
    ev.push_back(slice("cuda_runtime", "cudaMemcpyAsync", "121.000", "2.000", pid, tid,
                       {{"correlation", 101}}));
    ev.push_back(slice("kernel", "ampere_sgemm_32x64_nn", "107.500", "4.125", 0, 7,
                       {{"External id", 12},
                        {"correlation", 100},
                        {"device", 0},
                        {"stream", 7},
                        {"grid", {8, 1, 1}},
                        {"block", {128, 1, 1}}}));
    ev.push_back(slice("gpu_memcpy", "Memcpy DtoH (Device -> Pinned)", "122.000", "1.500", 0, 7,
                       {{"correlation", 101}, {"device", 0}, {"stream", 7}, {"bytes", 8192}}));
    ev.push_back(slice("gpu_memset", "Memset (Device)", "124.000", "0.500", 0, 7,
                       {{"External id", 13}, {"device", 0}, {"stream", 7}, {"bytes", 256}}));
    ev.push_back(slice("my_custom", "something", "130.000", "1.000", pid, tid));
    ev.push_back({{"ph", "s"},
                  {"cat", "ac2g"},
                  {"name", "ac2g"},
                  {"id", 100},
                  {"pid", pid},
                  {"tid", tid},
                  {"ts", "106.000"}});
    ev.push_back({{"ph", "f"},
                  {"cat", "ac2g"},
                  {"name", "ac2g"},
                  {"id", 100},
                  {"pid", 0},
                  {"tid", 7},
                  {"ts", "107.500"},
                  {"bp", "e"}});
    ev.push_back({{"ph", "i"},
                  {"s", "g"},
                  {"name", "Record Window End"},
                  {"pid", ""},
                  {"tid", ""},
                  {"ts", "150.000"}});
    Json trace = {{"schemaVersion", 1},
                  {"deviceProperties", {{{"id", 0}, {"name", "NVIDIA H200"}}}},
                  {"distributedInfo", {{"backend", "nccl"}, {"rank", 1}, {"world_size", 4}}},
                  {"displayTimeUnit", "ms"},
                  {"baseTimeNanoseconds", 1700000000000000000ULL},
                  {"traceEvents", ev},
                  {"traceName", "rank1.pt.trace.json"}};
    // Kineto prints ts and dur as bare numbers with three decimals.
    std::string text = trace.dump();
    for (size_t at = text.find("\"ts\":\""); at != std::string::npos;
         at = text.find("\"ts\":\"", at)) {
        const size_t end = text.find('"', at + 6);
        text.erase(end, 1);
        text.erase(at + 5, 1);
    }
    for (size_t at = text.find("\"dur\":\""); at != std::string::npos;
         at = text.find("\"dur\":\"", at)) {
        const size_t end = text.find('"', at + 7);
        text.erase(end, 1);
        text.erase(at + 6, 1);
    }
    return text;
}

// An older Kineto trace: integer absolute Unix µs, capitalised categories.
inline std::string olderKinetoTrace() {
    const int64_t t0 = 1700000000000000; // µs: 2023-11-14T22:13:20Z
    Json ev = Json::array();
    ev.push_back(slice("Operator", "aten::mm", t0 + 10, 20, 1, 1,
                       {{"Input Dims", {{16, 32}, {32, 8}}}, {"Input type", {"float", "float"}}}));
    ev.push_back(slice("Kernel", "gemm", t0 + 15, 5, 0, 7, {{"device", 0}, {"stream", 7}}));
    return Json{{"traceEvents", ev}}.dump();
}

} // namespace mvp::test::kineto
