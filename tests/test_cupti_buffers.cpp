// CUPTI activity buffers laid out here by hand with the toolkit's own record
// structs, read back through CUPTI's iterator (which needs no GPU): kernels,
// copies, fills and API calls become rows with their times, bytes and
// names (CUPTI's callback-name table, the C++ ABI's demangler); external
// correlation records become links; two buffers completed out of order join
// to the same ops and spans.
#include "capture/cuda/ActivityBuffer.h"

#include <QTest>
#include <cstring>
#include <cupti.h>
#include <vector>

using namespace mvp;
using namespace mvp::cuda;

namespace {

// A buffer as CUPTI fills one: records back to back, each 8-byte aligned.
class Buffer {
public:
    template <typename Record> void add(const Record& r) {
        const size_t at = (bytes_.size() + 7) / 8 * 8;
        bytes_.resize(at + sizeof(Record));
        std::memcpy(bytes_.data() + at, &r, sizeof(Record));
    }
    uint8_t* data() { return bytes_.data(); }
    size_t size() const { return bytes_.size(); }

private:
    std::vector<uint8_t> bytes_;
};

CUpti_ActivityKernel10 kernel(const char* name, uint32_t correlation, uint64_t start,
                              uint64_t end) {
    CUpti_ActivityKernel10 k{};
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.name = name;
    k.correlationId = correlation;
    k.start = start;
    k.end = end;
    k.deviceId = 0;
    k.streamId = 7;
    return k;
}

CUpti_ActivityAPI launch(uint32_t correlation, uint64_t start, uint64_t end) {
    CUpti_ActivityAPI a{};
    a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    a.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
    a.correlationId = correlation;
    a.start = start;
    a.end = end;
    a.threadId = 4242;
    return a;
}

CUpti_ActivityExternalCorrelation link(CUpti_ExternalCorrelationKind kind, uint64_t id,
                                       uint32_t correlation) {
    CUpti_ActivityExternalCorrelation e{};
    e.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
    e.externalKind = kind;
    e.externalId = id;
    e.correlationId = correlation;
    return e;
}

const DeviceActivityRow* find(const std::vector<DeviceActivityRow>& rows, ActivityKind kind) {
    for (const auto& r : rows)
        if (r.kind == kind) return &r;
    return nullptr;
}

} // namespace

class TestCuptiBuffers : public QObject {
    Q_OBJECT
private slots:
    void recordsBecomeRows();
    void outOfOrderBuffersJoin();
};

void TestCuptiBuffers::recordsBecomeRows() {
    Buffer b;
    b.add(launch(21, 1000, 1400));
    b.add(kernel("_Z6matmulPKfS0_Pfi", 21, 2000, 9000));
    CUpti_ActivityMemcpy6 copy{};
    copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    copy.bytes = 3 * 224 * 224 * 4; // a preprocessed 224-px image in float32
    copy.start = 500;
    copy.end = 900;
    copy.deviceId = 0;
    copy.streamId = 7;
    copy.correlationId = 20;
    b.add(copy);
    CUpti_ActivityMemset4 fill{};
    fill.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    fill.bytes = 4096;
    fill.start = 9100;
    fill.end = 9200;
    fill.streamId = 7;
    fill.correlationId = 22;
    b.add(fill);
    b.add(link(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, 5, 21));
    b.add(link(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, 3, 21));
    b.add(link(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 99, 21)); // Kineto's: not ours
    CUpti_ActivityOverhead3 overhead{};
    overhead.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
    b.add(overhead);

    ParsedActivities out;
    QVERIFY(parseActivityBuffer(b.data(), b.size(), out).ok());
    QCOMPARE(out.rows.size(), size_t(4));
    QCOMPARE(out.otherRecords, int64_t(2));
    const auto* k = find(out.rows, ActivityKind::Kernel);
    QVERIFY(k);
    QCOMPARE(k->name, std::string("matmul(float const*, float const*, float*, int)"));
    QCOMPARE(k->startNs, int64_t(2000));
    QCOMPARE(k->endNs, int64_t(9000));
    QCOMPARE(k->stream, int64_t(7));
    QCOMPARE(k->correlation, std::optional<int64_t>(21));
    const auto* c = find(out.rows, ActivityKind::Memcpy);
    QVERIFY(c);
    QCOMPARE(c->name, std::string("Memcpy HtoD"));
    QCOMPARE(c->bytes, int64_t(602112));
    const auto* f = find(out.rows, ActivityKind::Memset);
    QVERIFY(f);
    QCOMPARE(f->bytes, int64_t(4096));
    const auto* a = find(out.rows, ActivityKind::Runtime);
    QVERIFY(a);
    QCOMPARE(a->name, std::string("cudaLaunchKernel_v7000"));
    QCOMPARE(a->thread, int64_t(4242));
    QCOMPARE(a->device, -1);
    QCOMPARE(out.links.size(), size_t(2));
    QVERIFY(out.links[0].kind == ExternalKind::Op && out.links[0].externalId == 5 &&
            out.links[0].correlation == 21);
    QVERIFY(out.links[1].kind == ExternalKind::Span && out.links[1].externalId == 3);
}

void TestCuptiBuffers::outOfOrderBuffersJoin() {
    // Buffer 1 holds the kernels, buffer 2 (completed first) the launches
    // and the correlation records: op 8 nested in op 7, both in span 2.
    Buffer kernels, launches;
    kernels.add(kernel("gemv", 31, 100, 600));
    kernels.add(kernel("softmax", 32, 700, 800));
    launches.add(launch(31, 10, 20));
    launches.add(link(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, 7, 31));
    launches.add(link(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, 8, 31));
    launches.add(launch(32, 30, 40));
    launches.add(link(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, 7, 32));
    ParsedActivities out;
    QVERIFY(parseActivityBuffer(launches.data(), launches.size(), out).ok());
    QVERIFY(parseActivityBuffer(kernels.data(), kernels.size(), out).ok());
    const JoinStats s =
        joinActivities(out.rows, out.links, [](int64_t) { return std::optional<int64_t>(2); });
    for (const auto& r : out.rows) {
        if (r.name == "gemv") QCOMPARE(r.op, std::optional<int64_t>(8));
        if (r.name == "softmax") QCOMPARE(r.op, std::optional<int64_t>(7));
        QCOMPARE(r.span, std::optional<int64_t>(2));
    }
    QCOMPARE(s.gpuWork, int64_t(2));
    QCOMPARE(s.gpuNsWithSpan, int64_t(600));
}

QTEST_APPLESS_MAIN(TestCuptiBuffers)
#include "test_cupti_buffers.moc"
