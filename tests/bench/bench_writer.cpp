// Session writer throughput: 1 M spans, 1 M op rows and 1 M op records (the
// compact form the capture hands over; a decoder-like mix of names, shapes
// and nesting) through SessionWriter in capture-sized batches. Prints rows/s
// and file bytes per row; no thresholds.
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

// An op stream like a decoder's: a dozen op kinds over a few dozen shape
// lists, a third of the calls nested in the one before, durations that vary.
struct OpMix {
    static constexpr int kNames = 12, kShapes = 40;
    std::string names[kNames];
    OpMix() {
        const char* base[kNames] = {"aten::linear",  "aten::addmm",        "aten::matmul",
                                    "aten::add",     "aten::mul",          "aten::silu",
                                    "aten::softmax", "aten::view",         "aten::cat",
                                    "aten::topk",    "aten::index_select", "aten::layer_norm"};
        for (int i = 0; i < kNames; ++i)
            names[i] = base[i];
    }
    static uint64_t hash(int64_t i) { return uint64_t(i) * 0x9E3779B97F4A7C15ull >> 17; }
    const std::string& name(int64_t i) const { return names[hash(i) % kNames]; }
    static int shape(int64_t i) { return int(hash(i + 7) % kShapes); }
    static int64_t start(int64_t id) { return id * 900; }
    static int64_t duration(int64_t id) { return 200 + int64_t(hash(id) % 5000); }
    static int64_t parent(int64_t id) { return id % 3 == 0 ? id - 1 : 0; }
};
const OpMix kMix;

OpRecord mixRecord(int64_t id) {
    OpRecord r;
    r.id = id;
    r.span = id / 6;
    r.parentOp = OpMix::parent(id);
    r.name = &kMix.name(id);
    r.phase = Phase::Decode;
    r.dtype = "Float";
    r.step = int(id / 5000);
    r.startNs = OpMix::start(id);
    r.endNs = r.startNs + OpMix::duration(id);
    const int s = OpMix::shape(id);
    r.tensors = 2;
    r.rank[0] = r.rank[1] = 2;
    r.dims[0] = 1, r.dims[1] = 512 + 64 * s, r.dims[2] = 512, r.dims[3] = 512 + 64 * s;
    r.flops = 2 * r.dims[1] * 512;
    r.bytes = 4 * (r.dims[1] + 512 * r.dims[1] + 512);
    return r;
}
} // namespace

int main(int argc, char** argv) {
    const int64_t rows = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    std::printf("session writer throughput (format: op rows packed in chunks, strings interned)\n");
    const double spans = timeRows("spans", rows, [](Batch& b, int64_t first, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            const int64_t id = first + i + 1;
            b.spans.push_back(SpanRow{id, 1 + id % 40,
                                      id > 1 ? std::optional<int64_t>(id - 1) : std::nullopt,
                                      Phase::Decode, int(id / 1000), id * 100, id * 100 + 90,
                                      std::nullopt, id * 7, id * 3});
        }
    });
    const double ops = timeRows("ops", rows, [](Batch& b, int64_t first, int64_t n) {
        std::string shapes;
        for (int64_t i = 0; i < n; ++i) {
            const OpRecord r = mixRecord(first + i + 1);
            shapes.clear();
            r.appendShapes(shapes);
            OpRow o{r.id,      r.span,  r.parentOp ? std::optional(r.parentOp) : std::nullopt,
                    *r.name,   r.phase, r.step,
                    r.startNs, r.endNs, shapes,
                    r.dtype,   r.flops, r.bytes};
            b.ops.push_back(std::move(o));
        }
    });
    const double records = timeRows("records", rows, [](Batch& b, int64_t first, int64_t n) {
        for (int64_t i = 0; i < n; ++i)
            b.opRecords.push_back(mixRecord(first + i + 1));
    });
    std::printf("  ratio ops/spans throughput %.2f; op records/op rows %.2f\n", ops / spans,
                records / ops);
    return 0;
}
