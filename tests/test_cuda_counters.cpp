// The range profiler's counter configuration, built offline by CUPTI's host
// API (no GPU needed): the roofline's metrics configure for GH100 (H100 /
// H200) with the pass count CUPTI gives; names and chips CUPTI does not know
// are refused by name; counted work follows the roofline rule, worked here
// by hand. Without a GPU the range profiler refuses to start, saying why.
#include "capture/cuda/CounterConfig.h"
#include "capture/cuda/RangeProfiler.h"

#include <QTest>

using namespace mvp::cuda;

class TestCudaCounters : public QObject {
    Q_OBJECT
private slots:
    void hopperIsKnown() {
        auto chips = supportedChips();
        QVERIFY2(chips, chips ? "" : chips.error().message.c_str());
        QVERIFY(std::find(chips->begin(), chips->end(), "GH100") != chips->end());
    }

    void rooflineMetricsConfigureForHopper() {
        auto config = configureCounters("GH100", rooflineMetrics());
        QVERIFY2(config, config ? "" : config.error().message.c_str());
        QCOMPARE(config->metrics.size(), size_t(15));
        QVERIFY(!config->image.empty());
        // More counters than one pass holds (CUPTI said 5 with CUDA 13.0),
        // and far fewer than a full Nsight Compute section set.
        QVERIFY2(config->passes >= 2 && config->passes <= 8,
                 std::to_string(config->passes).c_str());
    }

    // Pass counts measured independently with a bare host-API program
    // (docs/capture-notes.md §5): DRAM r/w + duration + ffma + hfma take 2 passes,
    // one DRAM counter 1.
    void passCountsMatchTheNotes() {
        const std::string s = "sm__sass_thread_inst_executed_op_";
        auto small = configureCounters("GH100", {"dram__bytes_read.sum", "dram__bytes_write.sum",
                                                 "gpu__time_duration.sum", s + "ffma_pred_on.sum",
                                                 s + "hfma_pred_on.sum"});
        QVERIFY2(small, small ? "" : small.error().message.c_str());
        QCOMPARE(small->passes, 2);
        auto one = configureCounters("GH100", {"dram__bytes_read.sum"});
        QVERIFY(one);
        QCOMPARE(one->passes, 1);
        QVERIFY(one->image.size() < small->image.size());
    }

    void unknownMetricIsNamed() {
        // A plausible name CUPTI refuses (fp16 sources have no dst_fp32 variant).
        const std::string bad = "sm__ops_path_tensor_src_fp16_dst_fp32.sum";
        auto config = configureCounters("GH100", {"dram__bytes_read.sum", bad});
        QVERIFY(!config);
        QVERIFY2(config.error().message.find("\"" + bad + "\"") != std::string::npos,
                 config.error().message.c_str());
        QVERIFY(config.error().message.find("GH100") != std::string::npos);
    }

    void unknownChipListsTheKnownOnes() {
        auto config = configureCounters("GX999", {"dram__bytes_read.sum"});
        QVERIFY(!config);
        QVERIFY2(config.error().message.find("GX999") != std::string::npos &&
                     config.error().message.find("GH100") != std::string::npos,
                 config.error().message.c_str());
        QVERIFY(!configureCounters("GH100", {}));
    }

    void countedWorkByTheRooflineRule() {
        const std::string s = "sm__sass_thread_inst_executed_op_";
        std::map<std::string, double> v;
        for (const auto& m : rooflineMetrics())
            v[m] = 0;
        v[s + "ffma_pred_on.sum"] = 10;
        v[s + "fadd_pred_on.sum"] = 3;
        v[s + "fmul_pred_on.sum"] = 2;
        v[s + "hfma_pred_on.sum"] = 5;
        v[s + "dmul_pred_on.sum"] = 1;
        v["sm__ops_path_tensor_src_bf16_dst_fp32.sum"] = 100;
        v["dram__bytes_read.sum"] = 1000;
        v["dram__bytes_write.sum"] = 500;
        v["gpu__time_duration.sum"] = 2e6; // ns
        const auto w = countedWork(v);
        // 2·10 + 3 + 2 + 2·5 + 1 + 100 = 136
        QCOMPARE(w.flops.value_or(-1), 136.0);
        QCOMPARE(w.dramBytes.value_or(-1), 1500.0);
        QCOMPARE(w.seconds.value_or(-1), 0.002);

        v.erase(s + "hadd_pred_on.sum");
        v.erase("dram__bytes_write.sum");
        const auto partial = countedWork(v);
        QVERIFY(!partial.flops);     // unknown, never 136 − the missing adds
        QVERIFY(!partial.dramBytes); // read alone is not the traffic
        QVERIFY(partial.seconds);
    }

    // With no GPU, or no CUDA work on this thread, starting the counters is
    // an error with CUPTI's reason or the missing context, not a crash (here:
    // cuptiProfilerInitialize's CUPTI_ERROR_UNKNOWN, docs/capture-notes.md §7).
    void rangeProfilerWithoutAContextSaysWhy() {
        auto p = RangeProfiler::start(0, rooflineMetrics(), 64, 4);
        QVERIFY(!p);
        const QString why = QString::fromStdString(p.error().message);
        QVERIFY2(why.contains(QStringLiteral("CUPTI")) || why.contains(QStringLiteral("context")),
                 qPrintable(why));
        // Every range-profiler entry point bound: this CUPTI has them all.
        QVERIFY2(!why.contains(QStringLiteral("lacks")), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestCudaCounters)
#include "test_cuda_counters.moc"
