#include "views/FindingsModel.h"

#include "views/Colours.h"
#include "views/Labels.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>

namespace mvp::views {

namespace {
QString severityLabel(Severity s) {
    switch (s) {
    case Severity::Critical:
        return FindingsModel::tr("Critical");
    case Severity::Warning:
        return FindingsModel::tr("Warning");
    case Severity::Info:
        break;
    }
    return FindingsModel::tr("Info");
}
} // namespace

FindingsModel::FindingsModel(QObject* parent) : RowTableModel(parent) {}

int FindingsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
    const Finding* f = findingAt(index);
    if (!f) return {};
    if (role == SortRole && index.column() == SeverityColumn) return int(f->severity);
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case SeverityColumn:
            return severityLabel(f->severity);
        case Title:
            return QString::fromStdString(f->title);
        case Suggestion:
            return QString::fromStdString(f->suggestion);
        case View:
            return QString::fromLatin1(toString(f->target.view));
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(f->detail);
        for (const auto& e : f->evidence)
            tip += QStringLiteral("\n%1 = %2 (%3)")
                       .arg(QString::fromStdString(e.name))
                       .arg(e.value, 0, 'g', 5)
                       .arg(provenanceLabel(e.provenance));
        return tip;
    }
    if (role == Qt::ForegroundRole && index.column() == SeverityColumn) {
        switch (f->severity) {
        case Severity::Critical:
            return QBrush(colours::bad(QGuiApplication::palette()));
        case Severity::Warning:
            return QBrush(colours::warning(QGuiApplication::palette()));
        case Severity::Info:
            break;
        }
    }
    return {};
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case Title:
        return tr("Finding");
    case Suggestion:
        return tr("Suggestion");
    case View:
        return tr("View");
    }
    return {};
}

} // namespace mvp::views
