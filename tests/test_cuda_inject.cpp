// The CUDA injection's parts that need no GPU: an injected process's trace
// written as a session (times from the first record, ids, metrics, one file
// per process, nothing left on failure); the driver probe's reasons; the
// tracer refusing to start without a GPU; the library's entry point leaving
// the program alone; `launch --cuda-inject` handing the program the library
// and the session pattern. tests/test_cuda_gpu.cpp does the same on a GPU.
#include "TestSupport.h"
#include "capture/cuda/CudaDriver.h"
#include "capture/cuda/CuptiTracer.h"
#include "capture/cuda/InjectedRun.h"
#include "core/session/SessionReader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <dlfcn.h>
#include <filesystem>

using namespace mvp;
using namespace mvp::cuda;

namespace {

DeviceActivityRow row(ActivityKind kind, const char* name, int64_t start, int64_t end,
                      int64_t correlation) {
    DeviceActivityRow r;
    r.kind = kind;
    r.name = name;
    r.startNs = start;
    r.endNs = end;
    r.correlation = correlation;
    if (onDevice(kind)) {
        r.device = 0;
        r.stream = 7;
    } else {
        r.thread = 99;
    }
    return r;
}

// A traced process as CUPTI would hand it over: records out of time order,
// absolute Unix-epoch ns.
TracedActivities traced() {
    constexpr int64_t t0 = 1764633600000000000; // 2025-12-02T00:00:00Z
    TracedActivities t;
    t.parsed.rows = {
        row(ActivityKind::Kernel, "saxpy(int, float, float const*, float*)", t0 + 5000, t0 + 9000,
            2),
        row(ActivityKind::Runtime, "cudaLaunchKernel", t0 + 1000, t0 + 3000, 2),
        row(ActivityKind::Memset, "Memset", t0 + 500, t0 + 800, 1),
        row(ActivityKind::Runtime, "cudaMemset", t0, t0 + 400, 1),
    };
    t.parsed.rows[2].bytes = 4096;
    t.dropped = 3;
    t.buffers = 2;
    return t;
}

} // namespace

class TestCudaInject : public QObject {
    Q_OBJECT
private slots:
    void onePathPerProcess() {
        QCOMPARE(injectedSessionPath("/t/run.cuda.%p.mvprof", 42),
                 std::string("/t/run.cuda.42.mvprof"));
        QCOMPARE(injectedSessionPath("/t/run.mvprof", 42), std::string("/t/run.42.mvprof"));
        QCOMPARE(injectedSessionPath("/t/trace", 7), std::string("/t/trace.7"));
    }

    void injectedRunReadsBack() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("p.mvprof")).toStdString();
        auto run = writeInjectedRun(path, traced(), {{"/opt/bin/saxpy", "--n", "1024"}, 4242});
        QVERIFY2(run, run ? "" : run.error().message.c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".partial")));
        auto reader = SessionReader::open(path);
        QVERIFY(reader);
        auto runs = (*reader)->runs();
        QVERIFY(runs && runs->size() == 1);
        const RunInfo& info = runs->front();
        QCOMPARE(info.model, std::string("process:saxpy"));
        QCOMPARE(info.device, std::string("cuda"));
        QCOMPARE(info.writerPid, int64_t(4242));
        QCOMPARE(info.startedUtc, std::string("2025-12-02T00:00:00Z"));
        QCOMPARE(info.wallNs, int64_t(9000)); // first record's start to last end
        QVERIFY(info.configJson.find("\"--n\"") != std::string::npos);
        auto rows = (*reader)->activities(info.id);
        QVERIFY2(rows, rows ? "" : rows.error().message.c_str());
        QCOMPARE(rows->size(), size_t(4));
        // In time order, ids from 1, times from the first record.
        const int64_t starts[] = {0, 500, 1000, 5000};
        for (size_t i = 0; i < rows->size(); ++i) {
            QCOMPARE((*rows)[i].id, int64_t(i + 1));
            QCOMPARE((*rows)[i].startNs, starts[i]);
        }
        QCOMPARE((*rows)[1].bytes, int64_t(4096));
        QCOMPARE((*rows)[3].name, std::string("saxpy(int, float, float const*, float*)"));
        QCOMPARE((*rows)[3].correlation, (*rows)[2].correlation); // kernel ↔ its launch
        auto metrics = (*reader)->runMetrics(info.id);
        QVERIFY(metrics);
        std::map<std::string, double> m;
        for (const auto& r : *metrics)
            m[r.name] = r.value;
        QCOMPARE(m["cupti.dropped"], 3.0);
        QCOMPARE(m["gpu.work"], 2.0);
    }

    void existingSessionIsKept() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.mvprof"));
        QVERIFY(test::writeFile(path, "keep me"));
        auto run = writeInjectedRun(path.toStdString(), traced(), {{"x"}, 1});
        QVERIFY(!run);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep me"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    }

    void driverProbeSaysWhy() {
        auto missing = probeCudaDriver("/nonexistent/libcuda.so.1");
        QVERIFY(!missing.available());
        QVERIFY2(missing.reason.find("cannot be loaded") != std::string::npos,
                 missing.reason.c_str());
        const char* stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
        if (!QFile::exists(QString::fromLatin1(stub))) QSKIP("no CUDA toolkit stub driver here");
        auto stubbed = probeCudaDriver(stub);
        QVERIFY(!stubbed.available());
        QVERIFY2(stubbed.reason.find("stub") != std::string::npos, stubbed.reason.c_str());
    }

    // Without a GPU CUPTI cannot trace and says so; with one it starts (once).
    void tracerStartsOnlyWhereCuptiCan() {
        const auto gpu = probeCudaDriver();
        auto tracer = CuptiTracer::start();
        if (!gpu.available()) {
            QVERIFY(!tracer);
            QVERIFY2(tracer.error().message.find("CUPTI unavailable") != std::string::npos,
                     tracer.error().message.c_str());
            QVERIFY(!CuptiTracer::start()); // a failed start leaves nothing running
            return;
        }
        QVERIFY2(tracer, tracer ? "" : tracer.error().message.c_str());
        auto second = CuptiTracer::start();
        QVERIFY(!second);
        QVERIFY(second.error().message.find("already") != std::string::npos);
    }

    // The driver's call into the library must never fail the program.
    void entryPointLeavesTheProgramAlone() {
        void* lib = dlopen(test::envPath("MVP_INJECT_LIBRARY").c_str(), RTLD_NOW | RTLD_LOCAL);
        QVERIFY2(lib, dlerror());
        using Init = int (*)();
        auto init = reinterpret_cast<Init>(dlsym(lib, "InitializeInjection"));
        QVERIFY(init);
        if (probeCudaDriver().available()) QSKIP("a GPU is here: test_cuda_gpu traces it");
        QCOMPARE(init(), 1);
        QCOMPARE(init(), 1); // called again (a second cuInit): still harmless
    }

    void launchHandsTheProgramTheLibrary() {
        if (test::cliPath().isEmpty()) QSKIP("no mvprof-cli in this build");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("run.mvprof"));
        const auto r = test::runCli({QStringLiteral("launch"), QStringLiteral("--cuda-inject"),
                                     QStringLiteral("--out"), out, QStringLiteral("--"),
                                     QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                     QStringLiteral("echo \"[$CUDA_INJECTION64_PATH]"
                                                    "[$MVPROF_INJECT_SESSION]\"")});
        QVERIFY2(r.out.contains("libmvprof_inject.so]"), r.out.constData());
        QVERIFY2(
            r.out.contains(QFile::encodeName(dir.filePath(QStringLiteral("run.cuda.%p.mvprof")))),
            r.out.constData());
        // /bin/sh uses no GPU: nothing traced, said as such.
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no CUDA process was traced"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    // What the traced processes wrote is gathered into the launch's session,
    // one run per process, and their own files go. The "program" here is a
    // shell that leaves an injected session as a traced process would.
    void launchGathersTheProcessesSessions() {
        if (test::cliPath().isEmpty()) QSKIP("no mvprof-cli in this build");
        QTemporaryDir dir;
        const QString prepared = dir.filePath(QStringLiteral("prepared.mvprof"));
        QVERIFY(writeInjectedRun(prepared.toStdString(), traced(), {{"/opt/bin/saxpy"}, 4242}));
        const QString out = dir.filePath(QStringLiteral("run.mvprof"));
        const auto r = test::runCli(
            {QStringLiteral("launch"), QStringLiteral("--cuda-inject"), QStringLiteral("--out"),
             out, QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
             QStringLiteral("cp '%1' '%2/run.cuda.'$$'.mvprof'").arg(prepared, dir.path())});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.out.contains("process:saxpy") && r.out.contains("1 kernels"), r.out.constData());
        QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("run.cuda.*")}).size(), 0);
        auto reader = SessionReader::open(out.toStdString());
        QVERIFY(reader);
        auto runs = (*reader)->runs();
        QVERIFY(runs && runs->size() == 1);
        QCOMPARE(runs->front().model, std::string("process:saxpy"));
        QCOMPARE(runs->front().wallNs, int64_t(9000));
        auto rows = (*reader)->activities(runs->front().id);
        QVERIFY(rows && rows->size() == 4);
        auto metrics = (*reader)->runMetrics(runs->front().id);
        QVERIFY(metrics && !metrics->empty());
    }
};

QTEST_GUILESS_MAIN(TestCudaInject)
#include "test_cuda_inject.moc"
