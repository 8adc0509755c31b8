#include "views/ComparisonView.h"

#include "core/compare/Comparison.h"
#include "core/compare/EvalComparison.h"
#include "views/AbTimingsView.h"
#include "views/ComparisonModels.h"
#include "views/EvalItemHeatmaps.h"
#include "views/EvalItemsModel.h"
#include "views/HeatmapView.h"
#include "views/ItemViews.h"
#include "views/Labels.h"
#include "views/SessionData.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace mvp::views {

struct ComparisonResult {
    QString error;
    std::shared_ptr<const SessionData> a, b;
    Comparison comparison;
    std::optional<EvalComparison> eval; // both runs are eval runs
    std::vector<EvalItemPair> items;
};

namespace {
// A tab page that scrolls where the dock is smaller than the page needs (a
// small screen), rather than the dock pushing the main image aside.
QScrollArea* scrolled(QWidget* page, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

// A beside B while both fit, A above B in a narrow dock: side by side at a
// width below the two views' minimum the page scrolled sideways, the B
// half out of sight. Its minimum width is one view's, so that it can flip.
class SideBySide final : public QSplitter {
public:
    explicit SideBySide(QWidget* parent) : QSplitter(Qt::Horizontal, parent) {}
    QSize minimumSizeHint() const override {
        QSize least(0, 0);
        for (int i = 0; i < count(); ++i) {
            const QSize m = widget(i)->minimumSizeHint();
            least.setWidth(std::max(least.width(), m.width()));
            least.setHeight(orientation() == Qt::Horizontal ? std::max(least.height(), m.height())
                                                            : least.height() + m.height());
        }
        return least;
    }

protected:
    void resizeEvent(QResizeEvent* e) override {
        int besides = handleWidth() * std::max(count() - 1, 0);
        for (int i = 0; i < count(); ++i)
            besides += widget(i)->minimumSizeHint().width();
        const auto fits = e->size().width() >= besides ? Qt::Horizontal : Qt::Vertical;
        if (fits != orientation()) {
            setOrientation(fits);
            updateGeometry(); // the minimum height changed with it
        }
        QSplitter::resizeEvent(e);
    }
};

// A table's height with `rows` rows, its header and room for a horizontal
// scroll bar (a wide table in a narrow dock): no row hidden.
int tableHeight(const QTableView* t, int rows) {
    return t->horizontalHeader()->sizeHint().height() +
           rows * t->verticalHeader()->defaultSectionSize() + 2 * t->frameWidth() +
           t->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
}

QTableView* makeTable(QSortFilterProxyModel* proxy, QWidget* parent) {
    auto* t = new QTableView(parent);
    setUpTable(t, proxy, nullptr); // the proxies have their sources already
    return t;
}

} // namespace

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent), pickA_(new QComboBox(this)), pickB_(new QComboBox(this)),
      summary_(new QLabel(this)), tabs_(new QTabWidget(this)), setups_(new ComparisonModel(this)),
      details_(new RunMetricsModel(this)), diff_(new ModuleDiffModel(this)),
      setupsProxy_(new QSortFilterProxyModel(this)), detailsProxy_(new QSortFilterProxyModel(this)),
      diffProxy_(new QSortFilterProxyModel(this)), diffFilter_(new QLineEdit(this)),
      ab_(new AbTimingsModel(this)), abProxy_(new QSortFilterProxyModel(this)),
      abChart_(new AbChart(this)), heatA_(new HeatmapView(this)), heatB_(new HeatmapView(this)) {
    pickA_->setObjectName(QStringLiteral("runPickA"));
    pickB_->setObjectName(QStringLiteral("runPickB"));
    auto* picks = new QHBoxLayout;
    picks->addWidget(new QLabel(tr("A:"), this));
    picks->addWidget(pickA_, 1);
    picks->addWidget(new QLabel(tr("B:"), this));
    picks->addWidget(pickB_, 1);
    summary_->setObjectName(QStringLiteral("comparisonSummary"));
    summary_->setWordWrap(true);
    summary_->setText(tr("Run a what-if (What-if menu) or choose two runs to compare."));

    abProxy_->setSourceModel(ab_);
    setupsProxy_->setSourceModel(setups_);
    detailsProxy_->setSourceModel(details_);
    diffProxy_->setSourceModel(diff_);
    diffProxy_->setFilterKeyColumn(ModuleDiffModel::Module);
    diffProxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);

    auto* summaryPage = new QWidget(this);
    auto* sl = new QVBoxLayout(summaryPage);
    sl->setContentsMargins(0, 0, 0, 0);
    setupTable_ = makeTable(setupsProxy_, summaryPage);
    setupTable_->setSortingEnabled(false); // baseline first, as in the design note's table
    setupsProxy_->sort(-1);
    sl->addWidget(setupTable_, 1);
    sl->addWidget(new QLabel(tr("What B's transforms did:"), summaryPage));
    // The profiler's own figures about the run (capture.*: clock checks,
    // probe work) are behind a disclosure: what the transform did comes first.
    auto* internals = new QCheckBox(tr("Show the profiler's own figures (capture.*)"), summaryPage);
    internals->setObjectName(QStringLiteral("showProfilerFigures"));
    detailsProxy_->setFilterKeyColumn(RunMetricsModel::Name);
    const QRegularExpression transformOnly(QStringLiteral("^(?!capture\\.)"));
    detailsProxy_->setFilterRegularExpression(transformOnly);
    connect(internals, &QCheckBox::toggled, this, [this, transformOnly](bool all) {
        detailsProxy_->setFilterRegularExpression(all ? QRegularExpression() : transformOnly);
    });
    sl->addWidget(internals);
    detailsTable_ = makeTable(detailsProxy_, summaryPage);
    detailsTable_->setObjectName(QStringLiteral("comparisonDetails"));
    detailsTable_->sortByColumn(RunMetricsModel::Name, Qt::AscendingOrder);
    sl->addWidget(detailsTable_, 1);
    tabs_->setObjectName(QStringLiteral("comparisonTabs"));
    tabs_->addTab(scrolled(summaryPage, this), tr("Comparison"));

    auto* diffPage = new QWidget(this);
    auto* dl = new QVBoxLayout(diffPage);
    dl->setContentsMargins(0, 0, 0, 0);
    diffFilter_->setPlaceholderText(tr("Filter modules…"));
    diffFilter_->setClearButtonEnabled(true);
    connect(diffFilter_, &QLineEdit::textChanged, diffProxy_,
            &QSortFilterProxyModel::setFilterFixedString);
    dl->addWidget(diffFilter_);
    auto* diffTable = makeTable(diffProxy_, diffPage);
    diffTable->sortByColumn(ModuleDiffModel::DeltaSelf, Qt::DescendingOrder); // by impact
    diffTable->horizontalHeader()->setSectionResizeMode(ModuleDiffModel::Module,
                                                        QHeaderView::ResizeToContents);
    dl->addWidget(diffTable);
    tabs_->addTab(scrolled(diffPage, this), tr("Module diff"));

    // The A/B repetitions: the table over its chart, in pipeline order, the total last.
    auto* abPage = new QSplitter(Qt::Vertical, this);
    abTable_ = makeTable(abProxy_, abPage);
    abTable_->setSortingEnabled(false);
    abProxy_->sort(-1);
    abPage->addWidget(abTable_);
    abPage->addWidget(abChart_);

    tabs_->addTab(scrolled(makeHeatmapsPage(), this), tr("Heatmaps A | B"));
    tabs_->addTab(scrolled(abPage, this), tr("A/B repetitions"));
    itemsPage_ = makeItemsPage();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(picks);
    layout->addWidget(summary_);
    layout->addWidget(tabs_, 1);

    connect(pickA_, &QComboBox::activated, this, &ComparisonView::chosen);
    connect(pickB_, &QComboBox::activated, this, &ComparisonView::chosen);
}

ComparisonView::~ComparisonView() = default;

// The items of two eval runs, A's and B's answers side by side; a tab only
// while two eval runs are compared.
QWidget* ComparisonView::makeItemsPage() {
    evalItems_ = new EvalItemsModel(this);
    evalItemsProxy_ = new QSortFilterProxyModel(this);
    evalItemsProxy_->setSourceModel(evalItems_);
    evalItemsProxy_->setSortRole(SortRole);
    evalItemsProxy_->setFilterKeyColumn(EvalItemsModel::Changed);
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("evalItemsPage"));
    auto* l = new QVBoxLayout(page);
    l->setContentsMargins(0, 0, 0, 0);
    changedOnly_ = new QCheckBox(tr("Changed answers only"), page);
    changedOnly_->setObjectName(QStringLiteral("changedAnswersOnly"));
    connect(changedOnly_, &QCheckBox::toggled, this, [this](bool on) {
        evalItemsProxy_->setFilterFixedString(on ? EvalItemsModel::tr("changed") : QString());
    });
    l->addWidget(changedOnly_);
    evalItemsTable_ = makeTable(evalItemsProxy_, page);
    evalItemsTable_->setObjectName(QStringLiteral("evalItemsTable"));
    itemHeatmaps_ = new EvalItemHeatmaps(page);
    auto* split = new QSplitter(Qt::Vertical, page);
    split->addWidget(evalItemsTable_);
    split->addWidget(itemHeatmaps_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    l->addWidget(split, 1);
    connect(evalItemsTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showItemHeatmaps(current); });
    page->hide();
    return page;
}

// A and B side by side, on one colour scale unless the user unlinks them:
// two scales side by side (0.27–0.41 beside 0–1.21) look comparable and
// are not.
QWidget* ComparisonView::makeHeatmapsPage() {
    auto* page = new QWidget(this);
    auto* share = new QCheckBox(tr("One colour scale for A and B"), page);
    share->setObjectName(QStringLiteral("shareHeatmapScale"));
    share->setToolTip(tr("Colour both sides over the values of both, so that a colour means "
                         "the same value on each (while they show the same metric)"));
    share->setChecked(true);
    const auto link = [this](bool on) {
        heatA_->shareScaleWith(on ? heatB_ : nullptr);
        heatB_->shareScaleWith(on ? heatA_ : nullptr);
    };
    connect(share, &QCheckBox::toggled, this, link);
    link(true);
    auto* sides = new SideBySide(page);
    sides->setObjectName(QStringLiteral("heatmapsAB"));
    sides->addWidget(heatA_);
    sides->addWidget(heatB_);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(share);
    layout->addWidget(sides, 1);
    return page;
}

// The chosen item's two heatmaps; none while no row is current.
void ComparisonView::showItemHeatmaps(const QModelIndex& current) {
    const QModelIndex source = evalItemsProxy_->mapToSource(current);
    const auto& rows = evalItems_->rows();
    itemHeatmaps_->showItem(source.isValid() && size_t(source.row()) < rows.size()
                                ? &rows[size_t(source.row())]
                                : nullptr);
}

void ComparisonView::finishComparison(const std::shared_ptr<ComparisonResult>& r) {
    if (!r->error.isEmpty()) {
        summary_->setText(tr("Could not compare: %1").arg(r->error));
        emit compareFailed(r->error);
        return;
    }
    show(*r);
}

void ComparisonView::setRuns(const QString& path, const std::vector<RunInfo>& runs) {
    if (path != path_) a_ = b_ = 0; // another session: its own pair
    path_ = path;
    for (auto* pick : {pickA_, pickB_}) {
        const qint64 keep = pick == pickA_ ? a_ : b_;
        QSignalBlocker block(pick);
        pick->clear();
        for (const auto& r : runs)
            pick->addItem(runTitle(r), qint64(r.id));
        const int at = pick->findData(keep);
        if (at >= 0) pick->setCurrentIndex(at);
    }
    // Nothing chosen yet: the newest what-if against its baseline.
    if (a_ > 0 || b_ > 0) return;
    const auto newest = std::find_if(runs.rbegin(), runs.rend(), [](const RunInfo& r) {
        return !r.transform.empty() && r.baselineRun && r.status == RunStatus::Complete;
    });
    if (newest != runs.rend()) compare(*newest->baselineRun, newest->id);
}

int ComparisonView::preferredHeight() const {
    const int spacing = 6 * style()->pixelMetric(QStyle::PM_LayoutVerticalSpacing);
    return pickA_->sizeHint().height() + summary_->sizeHint().height() +
           tabs_->tabBar()->sizeHint().height() +
           tableHeight(setupTable_, setupsProxy_->rowCount()) + tableHeight(detailsTable_, 6) +
           spacing;
}

void ComparisonView::chosen() {
    const qint64 a = pickA_->currentData().toLongLong(), b = pickB_->currentData().toLongLong();
    if (a > 0 && b > 0) compare(a, b);
}

void ComparisonView::compare(qint64 a, qint64 b) {
    a_ = a;
    b_ = b;
    for (auto [pick, id] : {std::pair{pickA_, a}, std::pair{pickB_, b}}) {
        QSignalBlocker block(pick);
        const int at = pick->findData(id);
        if (at >= 0) pick->setCurrentIndex(at);
    }
    summary_->setText(tr("Comparing run %1 with run %2…").arg(a).arg(b));
    const QString path = path_;
    comparisons_.start([path, a, b](const auto& stale) {
        auto r = std::make_shared<ComparisonResult>();
        // Nothing may escape a worker: Qt would abort the whole application.
        try {
            auto da = loadSession(path, a);
            if (stale()) return r; // a newer comparison was asked for: skip the second run
            auto db = da ? loadSession(path, b) : da;
            if (!da || !db) {
                r->error = QString::fromStdString((!da ? da : db).error().message);
                return r;
            }
            r->a = *da;
            r->b = *db;
            r->comparison = compareRuns(r->a->data, r->b->data);
            if (r->a->data.isEval() && r->b->data.isEval()) {
                r->eval = compareEval(r->a->data, r->b->data);
                r->items = pairEvalItems(r->a->data.evalItems, r->b->data.evalItems);
            }
        } catch (const std::exception& e) {
            r->error = tr("Comparing runs %1 and %2 failed unexpectedly (%3). The session may be "
                          "damaged; please report this with the file.")
                           .arg(a)
                           .arg(b)
                           .arg(QString::fromLocal8Bit(e.what()));
        }
        return r;
    });
}

// Accuracy with intervals, the paired change and the per-item latency, and the items.
void ComparisonView::showEval(const ComparisonResult& r) {
    const EvalComparison& c = *r.eval;
    const auto acc = [](const Proportion& p) {
        return tr("%1 [%2, %3]")
            .arg(p.value, 0, 'f', 3)
            .arg(p.low, 0, 'f', 3)
            .arg(p.high, 0, 'f', 3);
    };
    summary_->setText(
        tr("A = %1, B = %2: eval runs over %3 items. Accuracy (measured, Wilson 95 %) %4 → %5; "
           "paired change %6 [%7, %8]%9. Per item %10 ms → %11 ms (medians, measured), speed-up "
           "%12× [%13, %14]. %15 answers changed.")
            .arg(runTitle(r.a->data.run), runTitle(r.b->data.run))
            .arg(c.whatIf.items)
            .arg(acc(c.baseline.accuracy), acc(c.whatIf.accuracy))
            .arg(c.change.change, 0, 'f', 3)
            .arg(c.change.low, 0, 'f', 3)
            .arg(c.change.high, 0, 'f', 3)
            .arg(c.change.withinNoise() ? tr(", within noise") : QString())
            .arg(latencyText(setups_->latency().a, false), latencyText(setups_->latency().b, false))
            .arg(c.speedup.median, 0, 'f', 2)
            .arg(c.speedup.low, 0, 'f', 2)
            .arg(c.speedup.high, 0, 'f', 2)
            .arg(c.changedAnswers));
    evalItems_->setRows(r.items);
    evalItemsTable_->resizeColumnsToContents();
    showItemHeatmaps(evalItemsTable_->currentIndex());
    if (tabs_->indexOf(itemsPage_) < 0) tabs_->insertTab(1, itemsPage_, tr("Eval items"));
}

void ComparisonView::show(const ComparisonResult& r) {
    const QString labelA = runTitle(r.a->data.run), labelB = runTitle(r.b->data.run);
    setups_->setComparison(r.comparison, labelA, labelB, r.eval ? &*r.eval : nullptr);
    details_->setRows(r.comparison.details);
    diff_->setRows(r.comparison.modules);
    // The GPU memory column only for runs on a GPU (the proxy keeps the model's columns).
    const bool gpuRuns = r.comparison.basePeakGpuBytes || !r.comparison.gpuMemory.empty();
    setupTable_->setColumnHidden(ComparisonModel::PeakGpu, !gpuRuns);
    setupTable_->setColumnHidden(ComparisonModel::ProbedLatency, !setups_->latency().hasInterval());
    setupTable_->resizeColumnsToContents();
    setupTable_->resizeRowsToContents();
    // Its rows whole: the page scrolls rather than the table (a short dock).
    setupTable_->setMinimumHeight(tableHeight(setupTable_, setupsProxy_->rowCount()));
    detailsTable_->resizeColumnsToContents();
    ab_->setTimings(r.comparison.ab);
    abTable_->resizeColumnsToContents();
    abChart_->setTimings(r.comparison.ab);
    heatA_->setSession(r.a);
    heatB_->setSession(r.b);
    const auto& c = r.comparison;
    const QString what =
        c.transform.empty() ? QString() : tr(" (%1)").arg(QString::fromStdString(c.transform));
    // The latencies are the setup table's (ShownLatency): one source.
    const ShownLatency& shown = setups_->latency();
    if (c.ab) {
        const AbPhase& t = c.ab->total;
        summary_->setText(
            tr("A = %1, B = %2%3. A/B over %4 repetitions: %5 ms → %6 ms (medians, measured), "
               "speed-up %7× [%8, %9]%10.")
                .arg(labelA, labelB, what)
                .arg(c.ab->reps)
                .arg(latencyText(shown.a, false), latencyText(shown.b, false))
                .arg(t.speedup.median, 0, 'f', 2)
                .arg(t.speedup.low, 0, 'f', 2)
                .arg(t.speedup.high, 0, 'f', 2)
                .arg((t.withinNoise() ? tr(", within noise") : QString()) +
                     (c.ab->unsteady.empty()
                          ? QString()
                          : tr(". Warning: a phase the transforms cannot change moved too, so "
                               "the machine was unsteady"))));
    } else {
        summary_->setText(
            tr("A = %1, B = %2%3. Latency %4 ms → %5 ms (measured, one probed run each, no "
               "interval: %6×).")
                .arg(labelA, labelB, what)
                .arg(latencyText(shown.a, false), latencyText(shown.b, false))
                .arg(c.runWallNs > 0 ? double(c.baseWallNs) / double(c.runWallNs) : 0.0, 0, 'f',
                     2));
    }
    if (r.eval) {
        showEval(r);
    } else if (const int at = tabs_->indexOf(itemsPage_); at >= 0) {
        tabs_->removeTab(at);
        evalItems_->setRows({});
    }
    emit compared();
}

} // namespace mvp::views
