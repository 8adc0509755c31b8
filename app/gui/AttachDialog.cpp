#include "app/gui/AttachDialog.h"

#include "views/ItemViews.h"
#include "views/LiveRunsModel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace mvp {

AttachDialog::AttachDialog(QWidget* parent)
    : QDialog(parent), model_(new views::LiveRunsModel(this)),
      proxy_(new QSortFilterProxyModel(this)), table_(new QTableView(this)) {
    setWindowTitle(tr("Attach to a Running Capture"));
    views::setUpTable(table_, proxy_, model_);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->horizontalHeader()->setSectionResizeMode(views::LiveRunsModel::Session,
                                                     QHeaderView::Stretch);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Attach"));
    auto* refresh = buttons->addButton(tr("Refresh"), QDialogButtonBox::ActionRole);
    auto* clean = buttons->addButton(tr("Remove Stale"), QDialogButtonBox::ActionRole);
    connect(refresh, &QPushButton::clicked, model_, &views::LiveRunsModel::refresh);
    connect(clean, &QPushButton::clicked, this, [this] {
        cleanStaleLiveRuns();
        model_->refresh();
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &AttachDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &AttachDialog::reject);
    connect(table_, &QTableView::activated, this, &AttachDialog::accept);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Captures running on this machine (mvprof-cli or any program "
                                    "using the capture library):"),
                                 this));
    layout->addWidget(table_);
    layout->addWidget(buttons);
    resize(760, 320);
    model_->refresh();
    // New runs appear without pressing Refresh.
    auto* timer = new QTimer(this);
    connect(timer, &QTimer::timeout, model_, &views::LiveRunsModel::refresh);
    timer->start(2000);
}

void AttachDialog::accept() {
    const auto rows = table_->selectionModel()->selectedRows();
    const QModelIndex index = rows.isEmpty() ? proxy_->index(0, 0) : rows.first();
    const LiveRun* r = model_->runAt(proxy_->mapToSource(index));
    if (!r) return;
    chosen_ = QString::fromStdString(r->session);
    run_ = r->run;
    QDialog::accept();
}

} // namespace mvp
