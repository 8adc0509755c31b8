// mvprof-cli end to end: exit codes, one-line errors that say what to do, and
// no garbage left behind; heatmap export; a capture killed midway.
#include "TestSupport.h"
#include "core/session/SessionReader.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <csignal>
#include <map>
#include <sqlite3.h>

using namespace mvp;
using test::runCli;

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString session; // a good capture made once

    QString file(const QString& name) const { return dir.filePath(name); }
    QStringList captureArgs(const QString& image, const QString& out) const {
        return {QStringLiteral("capture"),
                QStringLiteral("--image"),
                image,
                QStringLiteral("--out"),
                out,
                QStringLiteral("--steps"),
                QStringLiteral("2")};
    }
    // A bad input: exit 2, one line on stderr containing `needle`, no output file.
    void expectRefused(const QStringList& args, const QString& needle, const QString& out = {}) {
        const auto r = runCli(args);
        QVERIFY2(r.exitCode == 2, r.err.constData());
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.contains(needle, Qt::CaseInsensitive), qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 0);
        if (!out.isEmpty())
            QVERIFY2(!QFile::exists(out), qPrintable(out + QStringLiteral(" was left behind")));
    }
    QImage solid(int w, int h, QImage::Format f) {
        QImage img(w, h, f);
        img.fill(QColor(90, 140, 200));
        return img;
    }

private slots:
    void initTestCase() {
        session = file(QStringLiteral("good.mvprof"));
        const auto r = runCli(captureArgs(test::sampleImage(), session));
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void helpAndUsage() {
        QCOMPARE(runCli({QStringLiteral("--help")}).exitCode, 0);
        QCOMPARE(runCli({QStringLiteral("capture"), QStringLiteral("--help")}).exitCode, 0);
        QCOMPARE(runCli({}).exitCode, 2);
        expectRefused({QStringLiteral("frobnicate")}, QStringLiteral("unknown command"));
        expectRefused({QStringLiteral("capture"), QStringLiteral("--bogus")},
                      QStringLiteral("unknown option --bogus"));
        expectRefused({QStringLiteral("capture"), QStringLiteral("--steps")},
                      QStringLiteral("needs a value"));
        // Typed options: what is wrong is said in one line, naming the option.
        expectRefused({QStringLiteral("capture"), QStringLiteral("--steps"), QStringLiteral("x")},
                      QStringLiteral("--steps: 'x' is not a number: must be 0 or more"));
        expectRefused({QStringLiteral("capture"), QStringLiteral("--warmup=-2")},
                      QStringLiteral("--warmup: must be 0 or more"));
        expectRefused({QStringLiteral("report"), QStringLiteral("f.mvprof"),
                       QStringLiteral("--format"), QStringLiteral("md")},
                      QStringLiteral("--format: must be text, json or markdown, not 'md'"));
        expectRefused({QStringLiteral("whatif"), QStringLiteral("f.mvprof"),
                       QStringLiteral("--prune-visual"), QStringLiteral("1.5")},
                      QStringLiteral("must be a number in (0, 1]"));
        expectRefused({QStringLiteral("capture"), QStringLiteral("--model"),
                       QStringLiteral("ref:tiny"), QStringLiteral("--model-file"),
                       QStringLiteral("m.json")},
                      QStringLiteral("--model"));
        // Every option is in the generated help, with its description.
        const auto help = runCli({QStringLiteral("whatif"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        for (const char* option : {"--prune-visual", "--saliency-layer", "--quant", "--group",
                                   "--kv-threshold", "--freeze-cold", "--freeze-window",
                                   "--prune-channels", "--run", "--reps", "--format", "--progress"})
            QVERIFY2(help.out.contains(option), option);
        QVERIFY(help.out.contains("noise control"));
    }

    void badImages() {
        const QString out = file(QStringLiteral("never.mvprof"));
        expectRefused(captureArgs(file(QStringLiteral("missing.png")), out),
                      QStringLiteral("does not exist"), out);
        QVERIFY(test::writeFile(file(QStringLiteral("zero.png")), {}));
        expectRefused(captureArgs(file(QStringLiteral("zero.png")), out), QStringLiteral("empty"),
                      out);
        QVERIFY(test::writeFile(file(QStringLiteral("notes.png")), "just some text\n"));
        expectRefused(captureArgs(file(QStringLiteral("notes.png")), out),
                      QStringLiteral("not an image"), out);
        QVERIFY(test::writeFile(file(QStringLiteral("anim.gif")), "GIF89a\x01\x00\x01\x00"));
        expectRefused(captureArgs(file(QStringLiteral("anim.gif")), out), QStringLiteral("GIF"),
                      out);
        QFile sample(test::sampleImage());
        QVERIFY(sample.open(QIODevice::ReadOnly));
        QVERIFY(test::writeFile(file(QStringLiteral("cut.png")), sample.read(sample.size() / 3)));
        expectRefused(captureArgs(file(QStringLiteral("cut.png")), out), QStringLiteral("damaged"),
                      out);
    }

    void convertibleImagesWork() {
        struct Case {
            const char* name;
            QImage image;
            const char* format;
        } cases[] = {{"gray.png", solid(300, 200, QImage::Format_Grayscale8), "PNG"},
                     {"deep.png", solid(200, 300, QImage::Format_RGBA64), "PNG"},
                     // Past the 4096-px stored limit on one side: downscaled on capture.
                     {"huge.jpg", solid(4400, 3300, QImage::Format_RGB888), "JPEG"}};
        for (auto& c : cases) {
            const QString img = file(QString::fromLatin1(c.name));
            QVERIFY(c.image.save(img, c.format));
            const QString out = file(QString::fromLatin1(c.name) + QStringLiteral(".mvprof"));
            const auto r = runCli(captureArgs(img, out));
            QVERIFY2(r.exitCode == 0, r.err.constData());
            auto reader = SessionReader::open(out.toStdString());
            QVERIFY(reader.ok());
            auto stored = (*reader)->image(1);
            QVERIFY(stored.ok() && stored->has_value());
            QCOMPARE((*stored)->origWidth, c.image.width());
            QVERIFY((*stored)->width <= 4096 && (*stored)->height <= 4096);
        }
    }

    void badOptions() {
        const QString out = file(QStringLiteral("never.mvprof"));
        auto args = captureArgs(test::sampleImage(), out);
        expectRefused(args + QStringList{QStringLiteral("--model"), QStringLiteral("ref:huge")},
                      QStringLiteral("ref:tiny"), out);
        expectRefused(args +
                          QStringList{QStringLiteral("--prompt"), QString(600, QLatin1Char('a'))},
                      QStringLiteral("context"), out);
        expectRefused(args + QStringList{QStringLiteral("--attn-layers"), QStringLiteral("7")},
                      QStringLiteral("does not exist"), out);
        expectRefused(args + QStringList{QStringLiteral("--steps"), QStringLiteral("-1")},
                      QStringLiteral("--steps"), out);
        expectRefused(args + QStringList{QStringLiteral("--device"), QStringLiteral("tpu")},
                      QStringLiteral("unknown device 'tpu'"), out);
        // Without CUDA in libtorch: "no usable CUDA device"; with it: "has N CUDA device(s)".
        expectRefused(args + QStringList{QStringLiteral("--device"), QStringLiteral("cuda:99"),
                                         QStringLiteral("--dtype"), QStringLiteral("float16")},
                      QStringLiteral("CUDA device"), out);
        expectRefused(args + QStringList{QStringLiteral("--dtype"), QStringLiteral("float16")},
                      QStringLiteral("--device cuda"), out);
        expectRefused(args + QStringList{QStringLiteral("--hw-counters")},
                      QStringLiteral("--hw-counters reads a GPU's counters"), out);
        expectRefused(args + QStringList{QStringLiteral("--device-timing"), QStringLiteral("sync")},
                      QStringLiteral("--device-timing"), out);
        expectRefused(captureArgs(test::sampleImage(), QStringLiteral("/no/such/folder/x.mvprof")),
                      QStringLiteral("does not exist"));
        expectRefused(captureArgs(test::sampleImage(), QStringLiteral("/proc/x.mvprof")),
                      QStringLiteral("/proc"));
    }

    // `devices` lists the CPU first, in text and JSON; a CUDA device where
    // libtorch and the driver have one, else the reason there is none.
    void devicesAreListed() {
        const auto text = runCli({QStringLiteral("devices")});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY(text.out.startsWith("cpu "));
        const auto json =
            runCli({QStringLiteral("devices"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject j = QJsonDocument::fromJson(json.out).object();
        const QJsonArray devices = j[QStringLiteral("devices")].toArray();
        QVERIFY(!devices.isEmpty());
        const QJsonObject cpu = devices[0].toObject();
        QCOMPARE(cpu[QStringLiteral("id")].toString(), QStringLiteral("cpu"));
        QVERIFY(cpu[QStringLiteral("memory_bytes")].toDouble() > 0);
        if (devices.size() == 1)
            QVERIFY(!j[QStringLiteral("cuda_unavailable")].toString().isEmpty());
        else
            QVERIFY(devices[1].toObject()[QStringLiteral("id")].toString().startsWith(
                QStringLiteral("cuda:")));
        QCOMPARE(
            runCli({QStringLiteral("devices"), QStringLiteral("--format"), QStringLiteral("xml")})
                .exitCode,
            2);
    }

    void existingOutputNeedsForce() {
        const QString out = file(QStringLiteral("taken.mvprof"));
        QVERIFY(test::writeFile(out, "precious"));
        expectRefused(captureArgs(test::sampleImage(), out), QStringLiteral("--force"));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("precious"));
        f.close();
        const auto r = runCli(captureArgs(test::sampleImage(), out) << QStringLiteral("--force"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(SessionReader::open(out.toStdString()).ok());
    }

    void reportTextAndJson() {
        const auto text = runCli({QStringLiteral("report"), session});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY(text.out.contains("ref:tiny"));
        QVERIFY(text.out.contains("Phases (measured)"));
        // Which modules make the top 12 by self time depends on this machine's noise (a
        // decoder MoE block's 0.4 ms can fall behind an expert's); some decoder module and
        // the run's op count are always there.
        QVERIFY(text.out.contains("Modules by self time"));
        QVERIFY(text.out.contains("    llm.layer."));
        QVERIFY(text.out.contains(" ops recorded"));
        const auto json = runCli({QStringLiteral("report"), session, QStringLiteral("--format"),
                                  QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        QJsonParseError err;
        const auto doc = QJsonDocument::fromJson(json.out, &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        const auto run = doc.object()[QStringLiteral("runs")].toArray().at(0).toObject();
        QCOMPARE(run[QStringLiteral("status")].toString(), QStringLiteral("complete"));
        QVERIFY(run[QStringLiteral("phase_coverage")].toDouble() >= 0.98);
        const auto layers =
            run[QStringLiteral("moe")].toObject()[QStringLiteral("layers")].toArray();
        QCOMPARE(layers.size(), 2);
        QCOMPARE(layers.at(0).toObject()[QStringLiteral("experts")].toArray().size(), 4);
        QVERIFY(doc.object()[QStringLiteral("findings")].isArray());
        const auto md = runCli({QStringLiteral("report"), session, QStringLiteral("--format"),
                                QStringLiteral("markdown")});
        QCOMPARE(md.exitCode, 0);
        QVERIFY(md.out.startsWith("# mvprof report"));
        QVERIFY(md.out.contains("### Expert balance (measured)"));
        expectRefused(
            {QStringLiteral("report"), session, QStringLiteral("--run"), QStringLiteral("9")},
            QStringLiteral("run 9 is not in"));
        expectRefused({QStringLiteral("report"), session, QStringLiteral("--window"),
                       QStringLiteral("tokens:x")},
                      QStringLiteral("tokens:N"));
    }

    // A run without decode steps still reports, and says what is missing.
    void zeroDecodeSteps() {
        const QString out = file(QStringLiteral("nodecode.mvprof"));
        auto args = captureArgs(test::sampleImage(), out);
        args << QStringLiteral("--steps") << QStringLiteral("0");
        const auto c = runCli(args);
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const auto r = runCli({QStringLiteral("report"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("no decode steps"));
        QVERIFY(!r.out.contains("nan"));
    }

    void badSessions() {
        const QString truncated = file(QStringLiteral("truncated.mvprof"));
        QVERIFY(QFile::copy(session, truncated));
        QFile t(truncated);
        QVERIFY(t.open(QIODevice::ReadWrite) && t.resize(t.size() / 2));
        t.close();
        expectRefused({QStringLiteral("report"), truncated}, QStringLiteral("truncated"));
        QVERIFY(test::writeFile(file(QStringLiteral("noise.mvprof")), QByteArray(5000, '\x5a')));
        expectRefused({QStringLiteral("report"), file(QStringLiteral("noise.mvprof"))},
                      QStringLiteral("not an mvprof session"));
        expectRefused({QStringLiteral("report"), file(QStringLiteral("absent.mvprof"))},
                      QStringLiteral("does not exist"));
        const QString foreign = file(QStringLiteral("foreign.db"));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(foreign.toUtf8().constData(), &db), SQLITE_OK);
        sqlite3_exec(db, "CREATE TABLE t(x); PRAGMA user_version=1;", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        expectRefused({QStringLiteral("report"), foreign}, QStringLiteral("not an mvprof session"));
        const QString newer = file(QStringLiteral("newer.mvprof"));
        QVERIFY(QFile::copy(session, newer));
        QCOMPARE(sqlite3_open(newer.toUtf8().constData(), &db), SQLITE_OK);
        sqlite3_exec(db, "PRAGMA user_version=9999;", nullptr, nullptr, nullptr); // far beyond ours
        sqlite3_close(db);
        expectRefused({QStringLiteral("report"), newer}, QStringLiteral("newer mvprof"));
    }

    // The placement's loads recomputed here from the session's routing rows
    // (SQL, not mvprof's reader) and the written map, with the definitions
    // restated: an expert's load split evenly over its replicas, a GPU's
    // load the sum over its slots, balancedness mean ÷ max over the GPUs;
    // before = slot i holds expert i mod 4.
    void eplbPlacesTheMeasuredLoad() {
        const auto counts = test::routedSlotsBySql(session, 1, 4);
        QCOMPARE(int(counts.size()), 2);

        const QString out = file(QStringLiteral("placement.json"));
        const auto r = runCli({QStringLiteral("eplb"), session, QStringLiteral("--replicas"),
                               QStringLiteral("8"), QStringLiteral("--gpus"), QStringLiteral("4"),
                               QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto doc = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(doc.keys(), QStringList{QStringLiteral("physical_to_logical_map")});
        const auto maps = doc[QStringLiteral("physical_to_logical_map")].toArray();
        QCOMPARE(maps.size(), 2);
        int layerIndex = 0;
        for (const auto& [layer, load] : counts) {
            const auto map = maps.at(layerIndex++).toArray();
            QCOMPARE(map.size(), 8);
            std::vector<int> slotExpert, copies(4, 0);
            for (const auto& v : map) {
                slotExpert.push_back(v.toInt());
                ++copies[size_t(v.toInt())];
            }
            QVERIFY(std::all_of(copies.begin(), copies.end(), [](int c) { return c >= 1; }));
            std::vector<double> after(4, 0.0), before(4, 0.0);
            for (size_t s = 0; s < 8; ++s) {
                after[s / 2] += load[size_t(slotExpert[s])] / copies[size_t(slotExpert[s])];
                before[s / 2] += load[s % 4] / 2;
            }
            const QString line = QStringLiteral("layer %1: balancedness %2 → %3")
                                     .arg(layer)
                                     .arg(test::balancednessOf(before), 0, 'f', 3)
                                     .arg(test::balancednessOf(after), 0, 'f', 3);
            QVERIFY2(QString::fromUtf8(r.out).contains(line),
                     qPrintable(line + QStringLiteral(" not in:\n") + QString::fromUtf8(r.out)));
        }
        // The other file SGLang takes: the measured counts themselves.
        const auto c = runCli({QStringLiteral("eplb"), session, QStringLiteral("--replicas"),
                               QStringLiteral("8"), QStringLiteral("--gpus"), QStringLiteral("4"),
                               QStringLiteral("--export"), QStringLiteral("counts"),
                               QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const auto logical =
            QJsonDocument::fromJson(c.out).object()[QStringLiteral("logical_count")].toArray();
        QCOMPARE(logical.size(), int(counts.size()));
        int at = 0; // layers ascending, as the map's rows
        for (const auto& layerCounts : counts) {
            const auto row = logical.at(at++).toArray();
            for (int e = 0; e < 4; ++e)
                QCOMPARE(row.at(e).toDouble(), layerCounts.second[size_t(e)]);
        }
        expectRefused({QStringLiteral("eplb"), session, QStringLiteral("--replicas"),
                       QStringLiteral("2"), QStringLiteral("--gpus"), QStringLiteral("2")},
                      QStringLiteral("cannot hold 4 experts"));
        expectRefused({QStringLiteral("eplb"), session, QStringLiteral("--replicas"),
                       QStringLiteral("8"), QStringLiteral("--gpus"), QStringLiteral("3")},
                      QStringLiteral("do not divide evenly over 3 GPUs"));
        expectRefused({QStringLiteral("eplb"), session, QStringLiteral("--replicas"),
                       QStringLiteral("8")},
                      QStringLiteral("--gpus"));
    }

    void exportHeatmap() {
        const QString png = file(QStringLiteral("heat.png")),
                      csv = file(QStringLiteral("heat.csv"));
        const auto r = runCli({QStringLiteral("export"), session, QStringLiteral("--heatmap"), png,
                               QStringLiteral("--csv"), csv, QStringLiteral("--layers"),
                               QStringLiteral("0-1")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QImage heat(png);
        const QImage source(test::sampleImage());
        QCOMPARE(heat.size(), source.size());
        QVERIFY(heat != source.convertToFormat(heat.format())); // something was drawn
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 16);
        QCOMPARE(lines.first().split(',').size(), 16);
        expectRefused({QStringLiteral("export"), session, QStringLiteral("--heatmap"), png},
                      QStringLiteral("--force"));
        expectRefused({QStringLiteral("export"), session, QStringLiteral("--heatmap"),
                       file(QStringLiteral("x.png")), QStringLiteral("--layers"),
                       QStringLiteral("9")},
                      QStringLiteral("layers with values"));
        expectRefused({QStringLiteral("export"), session}, QStringLiteral("nothing to export"));

        // --legend: the same overlay, with the colour bar's panel on its right.
        const QString legend = file(QStringLiteral("legend.png"));
        const auto l =
            runCli({QStringLiteral("export"), session, QStringLiteral("--heatmap"), legend,
                    QStringLiteral("--layers"), QStringLiteral("0-1"), QStringLiteral("--legend")});
        QVERIFY2(l.exitCode == 0, l.err.constData());
        const QImage withBar = QImage(legend).convertToFormat(QImage::Format_RGB888);
        QCOMPARE(withBar.height(), heat.height());
        QVERIFY(withBar.width() > heat.width() + 40);
        QCOMPARE(withBar.copy(0, 0, heat.width(), heat.height()),
                 heat.convertToFormat(QImage::Format_RGB888));
    }

    // A real capture as a Chrome trace: one slice per op and span, at the
    // times the session holds.
    void exportChromeTrace() {
        const QString trace = file(QStringLiteral("trace.json"));
        const auto r =
            runCli({QStringLiteral("export"), session, QStringLiteral("--chrome-trace"), trace});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(trace);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray events =
            QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("traceEvents")].toArray();
        auto reader = SessionReader::open(session.toStdString());
        QVERIFY(reader.ok());
        const auto ops = (*reader)->ops(1);
        const auto spans = (*reader)->spans(1);
        QVERIFY(ops.ok() && spans.ok() && !ops->empty());
        std::map<int64_t, int64_t> opNs; // op id → duration in the trace
        int spanSlices = 0;
        for (const auto& v : events) {
            const QJsonObject e = v.toObject();
            const QString cat = e[QStringLiteral("cat")].toString();
            if (cat == QStringLiteral("module")) ++spanSlices;
            if (cat == QStringLiteral("cpu_op"))
                opNs[e[QStringLiteral("args")].toObject()[QStringLiteral("op")].toInteger()] =
                    std::llround(e[QStringLiteral("dur")].toDouble() * 1000.0);
        }
        QCOMPARE(opNs.size(), ops->size());
        QCOMPARE(spanSlices, int(spans->size()));
        for (const auto& o : *ops)
            QCOMPARE(opNs[o.id], o.endNs - o.startNs);
        expectRefused({QStringLiteral("export"), session, QStringLiteral("--chrome-trace"), trace},
                      QStringLiteral("--force"));
        expectRefused({QStringLiteral("export"), session, QStringLiteral("--chrome-trace"),
                       file(QStringLiteral("t2.json")), QStringLiteral("--run"),
                       QStringLiteral("7")},
                      QStringLiteral("7"));
        // The same as Perfetto protobuf: packets (field 1, length-delimited),
        // smaller than the JSON, with a summary line counting the same rows.
        const QString pf = file(QStringLiteral("trace.pftrace"));
        const auto p =
            runCli({QStringLiteral("export"), session, QStringLiteral("--perfetto"), pf});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        QFile pfFile(pf);
        QVERIFY(pfFile.open(QIODevice::ReadOnly));
        const QByteArray bytes = pfFile.readAll();
        QVERIFY(!bytes.isEmpty() && bytes[0] == '\x0a');
        QVERIFY(bytes.size() < QFileInfo(trace).size());
        QVERIFY2(p.out.contains(QStringLiteral("%1 ops").arg(ops->size()).toUtf8()),
                 p.out.constData());
    }

    // SIGKILL in the middle of decoding: the file opens, the run reads as incomplete.
    void killedCaptureLeavesAReadableSession() {
        const QString out = file(QStringLiteral("killed.mvprof"));
        QProcess p;
        p.start(test::cliPath(), captureArgs(test::sampleImage(), out)
                                     << QStringLiteral("--steps") << QStringLiteral("200")
                                     << QStringLiteral("--progress") << QStringLiteral("jsonl"));
        bool killed = false;
        while (!killed && p.waitForReadyRead(30000)) {
            while (p.canReadLine()) {
                const auto j = QJsonDocument::fromJson(p.readLine()).object();
                if (j[QStringLiteral("phase")].toString() == QStringLiteral("decode") &&
                    j[QStringLiteral("step")].toInt() >= 5) {
                    ::kill(pid_t(p.processId()), SIGKILL);
                    killed = true;
                    break;
                }
            }
        }
        QVERIFY(killed);
        p.waitForFinished();
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        auto reader = SessionReader::open(out.toStdString());
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().message.c_str());
        auto run = (*reader)->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Incomplete);
        const auto r = runCli({QStringLiteral("report"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("incomplete"));
    }

    // SIGTERM stops the run between steps; the capture marks it incomplete itself.
    void terminatedCaptureIsMarkedIncomplete() {
        const QString out = file(QStringLiteral("stopped.mvprof"));
        QProcess p;
        p.start(test::cliPath(), captureArgs(test::sampleImage(), out)
                                     << QStringLiteral("--steps") << QStringLiteral("200")
                                     << QStringLiteral("--progress") << QStringLiteral("jsonl"));
        bool sent = false;
        while (!sent && p.waitForReadyRead(30000))
            while (p.canReadLine())
                if (p.readLine().contains("\"decode\"")) {
                    p.terminate();
                    sent = true;
                    break;
                }
        QVERIFY(sent);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(p.readAllStandardError().contains("incomplete"));
        auto reader = SessionReader::open(out.toStdString());
        QVERIFY(reader.ok());
        auto run = (*reader)->run(1);
        QVERIFY(run.ok());
        QCOMPARE(run->status, RunStatus::Incomplete);
        QVERIFY(run->error.find("cancelled") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
