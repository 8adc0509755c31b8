// Session writer throughput: 1 M spans, 1 M op rows and 1 M op records (the
// compact form the capture hands over) through SessionWriter in
// capture-sized batches. Prints rows/s and file bytes per row; no thresholds.
//
//   bench_writer [ROWS]
#include "core/session/SessionWriter.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

using namespace mvp;

namespace {
template <typename Fill> double timeRows(const char* what, int64_t rows, Fill fill) {
    const auto path = std::filesystem::temp_directory_path() / "mvprof-bench-writer.mvprof";
    auto writer = SessionWriter::open(path.string(), SessionWriter::Mode::Overwrite);
    if (!writer) {
        std::fprintf(stderr, "%s\n", writer.error().message.c_str());
        std::exit(1);
    }
    RunInfo info;
    info.label = "bench";
    auto run = (*writer)->beginRun(info);
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int64_t kBatch = 8192; // what the Recorder hands over at a time
    for (int64_t done = 0; done < rows; done += kBatch) {
        Batch b;
        b.run = *run;
        fill(b, done, std::min(kBatch, rows - done));
        (*writer)->submit(std::move(b));
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (auto s = (*writer)->close(); !s) {
        std::fprintf(stderr, "%s\n", s.error().message.c_str());
        std::exit(1);
    }
    const auto t2 = std::chrono::steady_clock::now();
    const double total = std::chrono::duration<double>(t2 - t0).count();
    const double submit = std::chrono::duration<double>(t1 - t0).count();
    const auto bytes = std::filesystem::file_size(path);
    std::filesystem::remove(path);
    std::printf("  %-8s %lld rows: %.2f s to disk, %.0f rows/s (measured); producing the rows took "
                "%.1f%% of that; %.1f MB file, %.0f bytes per row\n",
                what, static_cast<long long>(rows), total, double(rows) / total,
                100.0 * submit / total, double(bytes) / 1e6, double(bytes) / double(rows));
    return double(rows) / total;
}
} // namespace

int main(int argc, char** argv) {
    const int64_t rows = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    std::printf("session writer throughput\n");
    const double spans = timeRows("spans", rows, [](Batch& b, int64_t first, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            const int64_t id = first + i + 1;
            b.spans.push_back(SpanRow{
                id, 1 + id % 40, id > 1 ? std::optional<int64_t>(id - 1) : std::nullopt, "decode",
                int(id / 1000), id * 100, id * 100 + 90, std::nullopt, id * 7, id * 3});
        }
    });
    const double ops = timeRows("ops", rows, [](Batch& b, int64_t first, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            const int64_t id = first + i + 1;
            b.ops.push_back(OpRow{id, id / 4, std::nullopt, "aten::matmul", "decode",
                                  int(id / 1000), id * 100, id * 100 + 50, "[[64,64],[64,64]]",
                                  "Float", 524288, 49152});
        }
    });
    static const std::string name = "aten::matmul", phase = "decode";
    const double records = timeRows("records", rows, [](Batch& b, int64_t first, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            const int64_t id = first + i + 1;
            OpRecord r;
            r.id = id;
            r.span = id / 4;
            r.name = &name;
            r.phase = &phase;
            r.dtype = "Float";
            r.step = int(id / 1000);
            r.startNs = id * 100;
            r.endNs = id * 100 + 50;
            r.flops = 524288;
            r.bytes = 49152;
            r.tensors = 2;
            r.rank[0] = r.rank[1] = 2;
            r.dims[0] = r.dims[1] = r.dims[2] = r.dims[3] = 64;
            b.opRecords.push_back(std::move(r));
        }
    });
    std::printf("  ratio ops/spans throughput %.2f; op records/op rows %.2f\n", ops / spans,
                records / ops);
    return 0;
}
