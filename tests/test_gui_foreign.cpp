// The GUI on sessions whose modules follow no naming convention: hand-built
// rows (a v3 session with roles, and a v2-style one whose roles are inferred
// from kinds), opened offscreen and shown in every view without a crash or a
// Qt warning.
#include "GuiSupport.h"
#include "TestSql.h"
#include "TestSupport.h"
#include "app/gui/MainWindow.h"
#include "core/session/ModuleRoles.h"
#include "core/session/SessionReader.h"
#include "core/session/SessionWriter.h"
#include "views/ExpertLoadView.h"
#include "views/ModuleTreeModel.h"
#include "views/ModuleTreeView.h"
#include "views/SessionData.h"
#include "views/TimelineView.h"

#include <QApplication>
#include <QDateTime>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace mvp;

namespace {

RunInfo foreignRun() {
    RunInfo r;
    r.label = "baseline";
    r.model = "someone-elses-model";
    r.configJson = R"({"format": "mvprof-model", "llm": {"experts": 3, "top_k": 1}})";
    r.prompt = "?";
    r.imagePath = "none.png";
    r.steps = 1;
    r.device = "cpu";
    r.dtype = "float32";
    r.blas = "OpenBLAS";
    r.threads = 1;
    r.writerPid = 1;
    r.writerHost = "elsewhere";
    r.startedUtc = "2026-12-01T00:00:00Z";
    return r;
}

// Paths that break every convention: no numbers, numbers too long to be an
// index, empty components, unicode, the same number twice, a role on a
// module whose path says something else.
Batch foreignRows(int64_t run) {
    Batch b;
    b.run = run;
    auto m = [](int64_t id, std::string path, std::string kind, std::optional<int64_t> parent,
                ModuleRole role) {
        ModuleRow row{id, std::move(path), std::move(kind), parent, 10, role};
        assignIndices(row);
        return row;
    };
    b.modules = {
        m(1, "", "", std::nullopt, ModuleRole::Llm),
        m(2, "llm.layer.attn", "Attention", 1, ModuleRole::Attention),
        m(3, "llm..moe", "MoE", 1, ModuleRole::Moe),
        m(4, "llm..moe.gate", "Router", 3, ModuleRole::Router),
        m(5, "blocks.99999999999.expert", "Expert", 3, ModuleRole::Expert),
        m(6, "解码器.层7.专家2", "Expert", 3, ModuleRole::Expert),
        m(7, "a.3.b.3.c.3", "Router", 1, ModuleRole::Router),
        m(8, "vision tower / patch-embed (conv)", "Conv2d", std::nullopt, ModuleRole::Vision),
        m(9, "x", "Expert", 8, ModuleRole::None),
    };
    b.phases = {
        {Phase::Vision, 0, 0, 100}, {Phase::Prefill, 0, 100, 300}, {Phase::Decode, 1, 300, 400}};
    b.spans = {{1, 8, std::nullopt, Phase::Vision, 0, 0, 90, std::nullopt, 0, 0},
               {2, 1, std::nullopt, Phase::Prefill, 0, 100, 290, std::nullopt, 500, 80},
               {3, 2, 2, Phase::Prefill, 0, 110, 150, std::nullopt, 200, 40},
               {4, 3, 2, Phase::Prefill, 0, 150, 280, std::nullopt, 300, 40},
               {5, 4, 4, Phase::Prefill, 0, 150, 160, std::nullopt, 10, 8},
               {6, 6, 4, Phase::Prefill, 0, 160, 200, std::nullopt, 100, 8},
               {7, 7, 2, Phase::Decode, 1, 300, 390, std::nullopt, 0, 0}};
    b.spans[0].flopsKnown = false;
    b.ops = {{1, 1, std::nullopt, "custom::fused_patch", Phase::Vision, 0, 0, 80, "[]", "", 0, 0},
             {2, 3, std::nullopt, "aten::mm", Phase::Prefill, 0, 120, 140, "[[2,3],[3,4]]", "Float",
              48, 80}};
    b.ops[0].flopsKnown = false;
    b.tokens = {{0, Phase::Prefill, 0, Modality::Text, 256, -1},
                {1, Phase::Prefill, 0, Modality::Visual, -1, 0},
                {2, Phase::Decode, 1, Modality::Text, 65, -1}};
    b.routing = {{7, Phase::Prefill, 0, 1, Modality::Visual, 0, 2, 1.0},
                 {7, Phase::Decode, 1, 2, Modality::Text, 0, 0, 1.0}};
    b.patchGrid = PatchGridRow{1, 1, 14, 14, 1};
    b.patchMetrics = {{7, "attention", 0, 0.5}};
    b.device = DeviceRow{"test", 1e11, 1e10, "datasheet", 1 << 30, 1 << 29};
    return b;
}

bool writeForeign(const QString& path) {
    auto w = SessionWriter::open(path.toStdString(), SessionWriter::Mode::CreateNew);
    if (!w) return false;
    auto run = (*w)->beginRun(foreignRun());
    if (!run) return false;
    (*w)->submit(foreignRows(*run));
    RunResult done;
    done.wallNs = 400;
    return (*w)->endRun(*run, done) && (*w)->close();
}

using test::execSql;

} // namespace

class TestGuiForeign : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    void showEveryView(const QString& path) {
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openSession(path);
        QVERIFY2(loaded.wait(20000),
                 failed.isEmpty() ? "no signal" : qPrintable(failed.first().first().toString()));
        const auto data = w.session();
        QVERIFY(data);
        QCOMPARE(data->analysis.modules.nodes.size(), size_t(9));
        // Every module is in the tree, the one without known FLOPs shown as "–".
        auto* tree = test::moduleTreeView(w)->tree();
        tree->expandAll();
        QVERIFY(test::moduleTreeView(w)->proxy()->rowCount() >= 2);
        QTest::keyClicks(test::moduleTreeView(w)->filter(), QStringLiteral("patch-embed"));
        const QModelIndex vision = test::moduleTreeView(w)->proxy()->index(0, 0);
        QVERIFY(vision.isValid());
        QCOMPARE(vision.siblingAtColumn(views::ModuleTreeModel::GFlops).data().toString(),
                 QStringLiteral("–"));
        // No GPU activity: no GPU column.
        QVERIFY(tree->isColumnHidden(views::ModuleTreeModel::DeviceMs));
        test::moduleTreeView(w)->filter()->clear();
        // The expert and timeline views draw what has a layer, and skip the rest.
        test::expertLoadView(w)->show();
        test::timelineView(w)->show();
        w.grab();
        QApplication::processEvents();
    }

private slots:
    void initTestCase() { test::isolateSettings(); }
    void init() { test::failOnWarnings(); }

    void rolesGiveLayersWhereThePathHasNone() {
        const QString path = dir.filePath(QStringLiteral("foreign.mvprof"));
        QVERIFY(writeForeign(path));
        auto reader = SessionReader::open(path.toStdString());
        QVERIFY(reader.ok());
        const auto modules = (*reader)->modules(1);
        QVERIFY(modules.ok());
        QVERIFY(!(*modules)[1].layer);                          // llm.layer.attn: no layer
        QVERIFY(!(*modules)[4].layer && !(*modules)[4].expert); // an 11-digit "index"
        QCOMPARE((*modules)[5].layer, std::optional<int>(7));   // 层7
        QCOMPARE((*modules)[5].expert, std::optional<int>(2));  // 专家2
        QCOMPARE((*modules)[6].layer, std::optional<int>(3));
    }

    // File → Open on a torch.profiler trace: imported into the cache once,
    // shown in the views its data supports, the others saying why not.
    void opensATorchProfilerTrace() {
        const QString trace = dir.filePath(QStringLiteral("step.pt.trace.json"));
        const QByteArray json =
            R"({"schemaVersion":1,"traceEvents":[)"
            R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},)"
            R"({"ph":"X","cat":"python_function","name":"nn.Module: Net_0","pid":1,"tid":1,"ts":1,"dur":90},)"
            R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":2,"dur":50,)"
            R"("args":{"Input Dims":[[256,512],[512,1024]],"Input type":["float","float"],"External id":5}},)"
            R"({"ph":"X","cat":"kernel","name":"sgemm","pid":0,"tid":7,"ts":10,"dur":30,)"
            R"("args":{"External id":5,"device":0,"stream":7}}]})";
        QVERIFY(test::writeFile(trace, json));
        MainWindow w;
        w.resize(1200, 800);
        w.show();
        QDateTime imported;
        for (int round = 0; round < 2; ++round) { // the second open reuses the import
            QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
            QSignalSpy failed(&w, &MainWindow::loadFailed);
            w.openSession(trace);
            QVERIFY2(loaded.wait(20000), failed.isEmpty()
                                             ? "no signal"
                                             : qPrintable(failed.first().first().toString()));
            QVERIFY(w.session() && w.session()->path.endsWith(QStringLiteral(".mvprof")));
            const QDateTime written = QFileInfo(w.session()->path).lastModified();
            if (round == 1) QCOMPARE(written, imported);
            imported = written;
        }
        const auto data = w.session();
        QCOMPARE(data->analysis.modules.nodes.size(), size_t(2));
        QTest::keyClicks(test::moduleTreeView(w)->filter(), QStringLiteral("Net_0"));
        const QModelIndex net = test::moduleTreeView(w)->proxy()->index(0, 0);
        QVERIFY(net.isValid());
        // 2·256·1024·512 FLOPs, worked by hand, from the trace's Input Dims.
        QCOMPARE(net.siblingAtColumn(views::ModuleTreeModel::GFlops).data().toString(),
                 QStringLiteral("0.2684"));
        // The kernel it launched (30 µs, by External id) is its GPU time, shown.
        QCOMPARE(net.siblingAtColumn(views::ModuleTreeModel::DeviceMs).data().toString(),
                 QStringLiteral("0.030"));
        QVERIFY(!test::moduleTreeView(w)->tree()->isColumnHidden(views::ModuleTreeModel::DeviceMs));
        // The views without data for it say why: no routing, no ceilings.
        for (QWidget* view : {static_cast<QWidget*>(test::expertLoadView(w)),
                              static_cast<QWidget*>(test::rooflineView(w))}) {
            view->show();
            bool says = false;
            for (auto* label : view->findChildren<QLabel*>())
                says = says || label->text().contains(QStringLiteral("imported from a trace"));
            QVERIFY2(says, view->metaObject()->className());
        }
        // The op table has the trace's op.
        QCOMPARE(test::opTableView(w)->model()->rowCount(), 1);
        w.grab();

        // A broken trace fails with the importer's reason; the window stays up.
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QVERIFY(test::writeFile(broken, json.left(json.size() / 2)));
        QSignalSpy failed(&w, &MainWindow::loadFailed);
        w.openSession(broken);
        QVERIFY(failed.wait(20000));
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("not valid JSON")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(w.isVisible());
        if (auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"))) box->accept();
    }

    void opensASessionOfForeignNames() {
        const QString path = dir.filePath(QStringLiteral("foreign-gui.mvprof"));
        QVERIFY(writeForeign(path));
        showEveryView(path);
    }

    // Content damage the reader refuses: the window reports it and stays up.
    void damagedSessionsFailWithAReason() {
        const char* damage[] = {
            "UPDATE patch_grid SET grid_h = -3",
            "UPDATE routing_chunk SET rows = rows + 1",
            "UPDATE token SET patch = 5 WHERE position = 1",
            "UPDATE span_chunk SET checksum = checksum + 1",
        };
        MainWindow w;
        w.resize(1000, 700);
        w.show();
        for (const char* sqlText : damage) {
            const QString path = dir.filePath(QStringLiteral("damaged.mvprof"));
            QFile::remove(path);
            QVERIFY(writeForeign(path));
            execSql(path, sqlText);
            QSignalSpy loaded(&w, &MainWindow::sessionLoaded);
            QSignalSpy failed(&w, &MainWindow::loadFailed);
            w.openSession(path);
            QVERIFY2(failed.wait(20000), sqlText);
            QVERIFY(loaded.isEmpty());
            const QString message = failed.first().first().toString();
            QVERIFY2(message.contains(QStringLiteral("damaged")), qPrintable(message));
            QVERIFY(w.isVisible());
            // The user sees it in a dialog that blocks nothing, and dismisses it.
            auto* box = w.findChild<QMessageBox*>(QStringLiteral("errorDialog"));
            QVERIFY(box && box->isVisible());
            QCOMPARE(box->text(), message);
            box->accept();
            QTRY_VERIFY(!w.findChild<QMessageBox*>(QStringLiteral("errorDialog")));
        }
    }

    // A first start (no saved geometry): 80 % of the screen, the image wide.
    void firstStartFillsMostOfTheScreen() {
        QSettings().remove(QStringLiteral("window"));
        MainWindow w;
        w.show();
        QApplication::processEvents();
        // Never below what the docks need (the offscreen screen is small).
        const QRect avail = QGuiApplication::primaryScreen()->availableGeometry();
        const QSize least = w.minimumSizeHint();
        QVERIFY2(std::abs(w.width() - std::max(avail.width() * 4 / 5, least.width())) <= 2,
                 qPrintable(QStringLiteral("%1 of %2, at least %3")
                                .arg(w.width())
                                .arg(avail.width())
                                .arg(least.width())));
        QVERIFY(std::abs(w.height() - std::max(avail.height() * 4 / 5, least.height())) <= 2);
        // The image, the central view, is wider than the right-hand docks.
        for (auto* dock : w.findChildren<QDockWidget*>())
            if (dock->isVisible() && w.dockWidgetArea(dock) == Qt::RightDockWidgetArea)
                QVERIFY2(dock->width() < w.centralWidget()->width(),
                         qPrintable(dock->objectName()));
        // And the largest area of the window: larger than any dock beside or below it.
        const QSize image = w.centralWidget()->size();
        for (auto* dock : w.findChildren<QDockWidget*>())
            if (dock->isVisible() && !dock->visibleRegion().isEmpty())
                QVERIFY2(dock->width() * dock->height() < image.width() * image.height(),
                         qPrintable(QStringLiteral("%1 %2×%3 vs the image %4×%5 (screen %6×%7)")
                                        .arg(dock->objectName())
                                        .arg(dock->width())
                                        .arg(dock->height())
                                        .arg(image.width())
                                        .arg(image.height())
                                        .arg(avail.width())
                                        .arg(avail.height())));
    }

    void opensAnOlderSessionWhoseRolesComeFromKinds() {
        // The same rows as an older mvprof stored them: no roles, layers or
        // flops_known; the reader infers roles from the kinds.
        const QString path = dir.filePath(QStringLiteral("foreign-v2.mvprof"));
        QVERIFY(writeForeign(path));
        test::unpackSpans(path);
        test::unpackPatchMatrices(path);
        test::unpackOps(path);
        test::unpackPatchValues(path);
        test::unpackRouting(path);
        execSql(path, "DROP TABLE repetition; ALTER TABLE module DROP COLUMN role; ALTER TABLE "
                      "module DROP COLUMN layer;"
                      " ALTER TABLE module DROP COLUMN expert; ALTER TABLE op DROP COLUMN"
                      " flops_known; ALTER TABLE span DROP COLUMN flops_known;"
                      " DROP TABLE leaf_flops; UPDATE meta SET value='2' WHERE"
                      " key='schema_version'; PRAGMA user_version = 2;");
        showEveryView(path);
    }
};

QTEST_MAIN(TestGuiForeign)
#include "test_gui_foreign.moc"
