#include "views/RunsView.h"

#include "views/ItemViews.h"

#include <QFont>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace mvp::views {

namespace {
QString statusLabel(RunStatus s) {
    switch (s) {
    case RunStatus::Live:
        return RunsModel::tr("live");
    case RunStatus::Complete:
        return RunsModel::tr("complete");
    case RunStatus::Incomplete:
        return RunsModel::tr("incomplete");
    case RunStatus::Failed:
        return RunsModel::tr("failed");
    }
    return {};
}

// Text as a table shows it on one line: UTF-8 decoded (invalid bytes as
// U+FFFD), control characters as "·" — a random-weight model's bytes are.
QString printable(const std::string& text) {
    QString s = QString::fromUtf8(text.data(), qsizetype(text.size()));
    for (QChar& c : s)
        if (c.category() == QChar::Other_Control) c = QChar(0x00B7);
    return s;
}
} // namespace

RunsModel::RunsModel(QObject* parent) : RowTableModel(parent) {}

void RunsModel::setRuns(std::vector<RunInfo> runs, int64_t current) {
    current_ = current;
    setRows(std::move(runs));
}

int RunsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunsModel::data(const QModelIndex& index, int role) const {
    const RunInfo* r = runAt(index);
    if (!r) return {};
    if (role == SortRole) {
        if (index.column() == Id) return qlonglong(r->id);
        if (index.column() == WallMs) return double(r->wallNs) / 1e6;
    }
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case Id:
            return qlonglong(r->id);
        case Label:
            return QString::fromStdString(r->label);
        case Status:
            return statusLabel(r->status);
        case Model:
            return QString::fromStdString(r->model);
        case Device:
            return QString::fromStdString(r->device);
        case Transform:
            return r->transform.empty() ? tr("(baseline)") : QString::fromStdString(r->transform);
        case WallMs:
            return QString::number(double(r->wallNs) / 1e6, 'f', 1);
        case Prompt:
            return printable(r->prompt);
        case Output:
            return printable(r->outputText);
        }
    }
    if (role == Qt::FontRole && r->id == current_) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole)
        return tr("%1\nimage %2\nprompt \"%3\"\n%4")
            .arg(QString::fromStdString(r->startedUtc), QString::fromStdString(r->imagePath),
                 QString::fromStdString(r->prompt), QString::fromStdString(r->error));
    return {};
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Id:
        return tr("Run");
    case Label:
        return tr("Label");
    case Status:
        return tr("Status");
    case Model:
        return tr("Model");
    case Device:
        return tr("Device");
    case Transform:
        return tr("Transform");
    case WallMs:
        return tr("Wall ms (measured)");
    case Prompt:
        return tr("Prompt");
    case Output:
        return tr("Generated text");
    }
    return {};
}

RunsView::RunsView(QWidget* parent)
    : QWidget(parent), model_(new RunsModel(this)), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)) {
    setUpTable(table_, proxy_, model_);
    table_->sortByColumn(RunsModel::Id, Qt::AscendingOrder);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (const RunInfo* r = model_->runAt(proxy_->mapToSource(index))) emit runChosen(r->id);
    });
}

void RunsView::setRuns(std::vector<RunInfo> runs, int64_t current) {
    model_->setRuns(std::move(runs), current);
    table_->resizeColumnsToContents();
}

} // namespace mvp::views
