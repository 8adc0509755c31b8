#pragma once
// The GUI's what-ifs, built from the method catalogue (core/whatif/Methods.h):
// a job that becomes `mvprof-cli whatif … --progress jsonl`, the one-click
// presets of the What-if menu and toolbar, and a dialog for custom
// combinations.

#include "core/whatif/Request.h"

#include <QDialog>
#include <QObject>
#include <QStringList>
#include <map>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QMenu;
class QSpinBox;
class QToolBar;
class QAction;

namespace mvp {

// A catalogue text (marked in core/whatif/Methods.cpp), translated.
QString methodText(const char* text);

struct WhatIfJob {
    QString session;
    qint64 baseline = 0; // 0: the session's first complete baseline
    WhatIfRequest request;
    int reps = 5; // A/B repetitions of both setups (mvprof-cli whatif --reps)
    QStringList arguments() const;
    QString label() const; // e.g. "W4 + KV INT4"
};

// The custom what-if dialog: each family of methods as one choice, every
// other method as a check box, each with its value.
class WhatIfDialog : public QDialog {
    Q_OBJECT
public:
    explicit WhatIfDialog(QWidget* parent = nullptr);
    WhatIfJob job() const; // session and baseline left for the caller

private:
    // A family's choice: its combo box (item data: the method's key) and value.
    struct FamilyChoice {
        QComboBox* method;
        QDoubleSpinBox* value; // nullptr for a family whose methods take none
    };
    struct MethodCheck {
        QCheckBox* check;
        QDoubleSpinBox* value; // nullptr for a method that takes none
    };
    void addFamily(Family family);
    void addMethod(const MethodSpec& m);
    void familyChosen(Family family); // the value box follows the chosen method

    std::map<Family, FamilyChoice> families_;
    std::map<Method, MethodCheck> methods_;
    QComboBox* saliency_;
    QSpinBox* reps_;
};

// The What-if menu and toolbar: one action per one-click method (named by
// its catalogue key), one for the design note's combination ("combined"),
// Custom… and Compare Methods…; `requested` carries the choice.
class WhatIfActions : public QObject {
    Q_OBJECT
public:
    WhatIfActions(QMenu* menu, QToolBar* toolbar, QWidget* dialogParent);
    void setEnabled(bool enabled);
    QAction* action(const QString& name) const;

signals:
    void requested(const WhatIfJob& job);
    void compareRequested(); // What-if → Compare Methods…

private:
    std::vector<std::pair<QString, QAction*>> actions_;
};

} // namespace mvp
