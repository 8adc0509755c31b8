// The RAPL energy reader on a fake powercap folder: packages and their DRAM
// subdomains summed, a counter that wraps at its range, unreadable or missing
// counters said as such, and joules per phase from samples at boundaries;
// the GPU's NVML counter (a fake library) per phase beside them.
#include "TestSupport.h"
#include "capture/cuda/NvmlEnergy.h"
#include "capture/machine/Energy.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using namespace mvp;

namespace {
// No CUDA driver: the GPU's bus id is unknown, NVML's GPU is found by index.
const std::string kNoDriver = "/nonexistent/libcuda.so.1";
} // namespace

class TestEnergy : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    static void put(const QString& file, const QByteArray& text) {
        QVERIFY(test::writeFile(file, text + "\n"));
    }
    static QString at(const QString& root, const char* relative) {
        return root + QLatin1Char('/') + QString::fromLatin1(relative);
    }
    // <root>/intel-rapl:N (package-N) with an intel-rapl:N:0 "dram" subdomain.
    QString makeRoot(const QString& name, int sockets) {
        const QString root = dir.filePath(name);
        for (int s = 0; s < sockets; ++s) {
            const QString pkg = root + QStringLiteral("/intel-rapl:%1").arg(s);
            const QString dram = pkg + QStringLiteral("/intel-rapl:%1:0").arg(s);
            QDir().mkpath(dram);
            put(at(pkg, "name"), "package-" + QByteArray::number(s));
            put(at(pkg, "max_energy_range_uj"), "10000000");
            put(at(pkg, "energy_uj"), "1000000");
            put(at(dram, "name"), "dram");
            put(at(dram, "max_energy_range_uj"), "10000000");
            put(at(dram, "energy_uj"), "500000");
        }
        QDir().mkpath(at(root, "intel-rapl")); // the control type folder, not a domain
        return root;
    }

private slots:
    void initTestCase() { qunsetenv("CUDA_VISIBLE_DEVICES"); }

    void missingCountersSayWhy() {
        EnergyMeter m(dir.filePath(QStringLiteral("nothing-here")).toStdString());
        QVERIFY(!m.available());
        QVERIFY(QString::fromStdString(m.unavailableReason()).startsWith(QStringLiteral("n/a")));
        PhaseEnergy e(&m);
        e.phaseBoundary(Phase::Vision);
        e.phaseBoundary(Phase::None);
        const auto metrics = e.metrics();
        QCOMPARE(metrics.size(), size_t(1));
        QCOMPARE(metrics[0].name, std::string("energy.available"));
    }

    void sumsSocketsAndHandlesWrapAround() {
        const QString root = makeRoot(QStringLiteral("two-sockets"), 2);
        EnergyMeter m(root.toStdString());
        QVERIFY(m.available());
        auto j = m.sample();
        QCOMPARE(j.package, 0.0);
        put(at(root, "intel-rapl:0/energy_uj"), "3500000");                // +2.5 J
        put(at(root, "intel-rapl:1/energy_uj"), "2000000");                // +1.0 J
        put(at(root, "intel-rapl:0/intel-rapl:0:0/energy_uj"), "1500000"); // +1.0 J
        j = m.sample();
        QVERIFY(qFuzzyCompare(j.package, 3.5));
        QVERIFY(j.hasDram && qFuzzyCompare(j.dram, 1.0));
        // Socket 0 wraps: 3.5 J → range (10 J) → 1.0 J is +7.5 J, not −2.5 J.
        put(at(root, "intel-rapl:0/energy_uj"), "1000000");
        j = m.sample();
        QVERIFY2(qFuzzyCompare(j.package, 11.0), qPrintable(QString::number(j.package)));
    }

    void unreadableCountersSayPermission() {
        if (::geteuid() == 0) QSKIP("root reads every file");
        const QString root = makeRoot(QStringLiteral("locked"), 1);
        for (const QString& f : {at(root, "intel-rapl:0/energy_uj"),
                                 at(root, "intel-rapl:0/intel-rapl:0:0/energy_uj")})
            QVERIFY(QFile::setPermissions(f, QFileDevice::WriteOwner));
        EnergyMeter m(root.toStdString());
        QVERIFY(!m.available());
        QVERIFY2(m.unavailableReason().find("not readable") != std::string::npos,
                 m.unavailableReason().c_str());
    }

    void joulesPerPhaseFromBoundaries() {
        const QString root = makeRoot(QStringLiteral("phases"), 1);
        EnergyMeter m(root.toStdString());
        PhaseEnergy e(&m);
        e.phaseBoundary(Phase::Vision);
        put(at(root, "intel-rapl:0/energy_uj"), "3000000"); // vision: 2 J
        e.phaseBoundary(Phase::Decode);
        put(at(root, "intel-rapl:0/energy_uj"), "3500000"); // decode step 1: 0.5 J
        e.phaseBoundary(Phase::Decode);
        put(at(root, "intel-rapl:0/energy_uj"), "4000000"); // decode step 2: 0.5 J
        e.phaseBoundary(Phase::None);
        put(at(root, "intel-rapl:0/energy_uj"), "9000000"); // after the run: not counted
        std::map<std::string, double> got;
        for (const auto& metric : e.metrics())
            got[metric.name] = metric.value;
        QVERIFY(qFuzzyCompare(got["energy.vision.package_j"], 2.0));
        QVERIFY(qFuzzyCompare(got["energy.decode.package_j"], 1.0));
        QVERIFY(qFuzzyCompare(got["energy.package_j"], 3.0));
        QVERIFY(got.count("energy.dram_j"));
    }

    // GPU energy through NVML, loaded at run time: against a fake library
    // with NVML's signatures whose counter starts at 1000 mJ and grows
    // 1500 mJ per read, two reads after the zero point are 1.5 J and 3.0 J.
    void nvmlJoulesSinceStart() {
        qputenv("FAKE_NVML_MODE", "ok");
        cuda::NvmlEnergy e(0, test::envPath("MVP_FAKE_NVML").c_str(), kNoDriver);
        QVERIFY2(e.available(), e.unavailableReason().c_str());
        QCOMPARE(e.joules(), std::optional<double>(1.5));
        QCOMPARE(e.joules(), std::optional<double>(3.0));
    }

    // The fake counter grows 1.5 J per read: each phase between two
    // boundaries reads 1.5 J, whatever the CPU meter has (none here), and the
    // read after the run's last phase is in none.
    void gpuJoulesPerPhase() {
        qputenv("FAKE_NVML_MODE", "ok");
        cuda::NvmlEnergy gpu(0, test::envPath("MVP_FAKE_NVML").c_str(), kNoDriver);
        EnergyMeter none(dir.filePath(QStringLiteral("no-powercap")).toStdString());
        PhaseEnergy e(&none);
        e.attachGpu(&gpu);
        for (Phase p : {Phase::Vision, Phase::Prefill, Phase::Decode, Phase::Decode, Phase::None})
            e.phaseBoundary(p);
        std::map<std::string, PhaseEnergy::Metric> got;
        for (const auto& metric : e.metrics())
            got.emplace(metric.name, metric);
        QCOMPARE(got.at("energy.available").value, 0.0); // the CPU's still says why
        QCOMPARE(got.at("energy.vision.gpu_j").value, 1.5);
        QCOMPARE(got.at("energy.prefill.gpu_j").value, 1.5);
        QCOMPARE(got.at("energy.decode.gpu_j").value, 3.0);
        QCOMPARE(got.at("energy.gpu_j").value, 6.0);
        QVERIFY(got.at("energy.gpu_j").note.find("per inference") != std::string::npos);
        QVERIFY(!got.count("energy.gpu_available"));
    }

    void gpuCounterLostSaysWhy() {
        qputenv("FAKE_NVML_MODE", "restarts"); // falls to 0 after the zero point's read
        cuda::NvmlEnergy gpu(0, test::envPath("MVP_FAKE_NVML").c_str(), kNoDriver);
        PhaseEnergy e(nullptr);
        e.attachGpu(&gpu);
        e.phaseBoundary(Phase::Vision);
        e.phaseBoundary(Phase::None);
        std::map<std::string, PhaseEnergy::Metric> got;
        for (const auto& metric : e.metrics())
            got.emplace(metric.name, metric);
        QVERIFY(!got.count("energy.gpu_j"));
        QCOMPARE(got.at("energy.gpu_available").value, 0.0);
        QVERIFY2(got.at("energy.gpu_available").note.find("went back") != std::string::npos,
                 got.at("energy.gpu_available").note.c_str());
    }

    // CUDA numbers the GPUs it sees, NVML every GPU in bus order: the counter
    // read is the one on CUDA device 0's PCI bus (the fake driver's
    // 0000:af:00.0, NVML's other GPU, 2.5 J per read), not NVML's GPU 0 (1.5 J).
    void nvmlFindsTheCudaDeviceByItsBus() {
        qputenv("FAKE_NVML_MODE", "ok");
        qunsetenv("FAKE_CUDA_MODE");
        cuda::NvmlEnergy e(0, test::envPath("MVP_FAKE_NVML").c_str(),
                           test::envPath("MVP_FAKE_CUDA").c_str());
        QVERIFY2(e.available(), e.unavailableReason().c_str());
        QCOMPARE(e.joules(), std::optional<double>(2.5));
        cuda::NvmlEnergy absent(1, test::envPath("MVP_FAKE_NVML").c_str(),
                                test::envPath("MVP_FAKE_CUDA").c_str()); // the driver has no cuda:1
        QVERIFY2(absent.unavailableReason().find("GPU 1") != std::string::npos,
                 absent.unavailableReason().c_str());
    }

    // Without a bus id NVML's GPU of the same index is read — unless
    // CUDA_VISIBLE_DEVICES renumbers the GPUs: then it may be another's, and
    // the reader says so rather than read it.
    void withoutABusIdARenumberedGpuIsNotGuessed() {
        qputenv("FAKE_NVML_MODE", "ok");
        qputenv("FAKE_CUDA_MODE", "no-bus-id");
        {
            cuda::NvmlEnergy e(0, test::envPath("MVP_FAKE_NVML").c_str(),
                               test::envPath("MVP_FAKE_CUDA").c_str());
            QCOMPARE(e.joules(), std::optional<double>(1.5));
        }
        qputenv("CUDA_VISIBLE_DEVICES", "1");
        cuda::NvmlEnergy e(0, test::envPath("MVP_FAKE_NVML").c_str(),
                           test::envPath("MVP_FAKE_CUDA").c_str());
        qunsetenv("CUDA_VISIBLE_DEVICES");
        qunsetenv("FAKE_CUDA_MODE");
        QVERIFY(!e.available() && !e.joules());
        QVERIFY2(e.unavailableReason().find("CUDA_VISIBLE_DEVICES=1") != std::string::npos,
                 e.unavailableReason().c_str());
    }

    void nvmlAbsentSaysWhy() {
        const auto reason = [](const char* mode, const std::string& library, int gpu = 0) {
            qputenv("FAKE_NVML_MODE", mode);
            cuda::NvmlEnergy e(gpu, library, kNoDriver);
            const bool none = !e.joules() && !e.available();
            return none ? QString::fromStdString(e.unavailableReason()) : QString();
        };
        const std::string fake = test::envPath("MVP_FAKE_NVML").c_str();
        QVERIFY(
            reason("ok", "/nonexistent/libnvidia-ml.so.1").contains(QStringLiteral("not found")));
        QVERIFY(reason("init-fails", fake).contains(QStringLiteral("Driver Not Loaded")));
        QVERIFY(reason("no-gpu", fake).contains(QStringLiteral("GPU 0: Invalid Argument")));
        QVERIFY(reason("ok", fake, 3).contains(QStringLiteral("GPU 3")));
        QVERIFY(reason("unsupported", fake).contains(QStringLiteral("no total-energy counter")));
        QVERIFY(reason("restarts", fake).contains(QStringLiteral("went back")));
        for (const char* mode : {"init-fails", "no-gpu", "unsupported", "restarts"})
            QVERIFY(reason(mode, fake).startsWith(QStringLiteral("n/a (")));
    }
};

QTEST_GUILESS_MAIN(TestEnergy)
#include "test_energy.moc"
