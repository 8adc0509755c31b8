#pragma once
// New Capture…: model preset, image (with a preview), prompt, decode steps,
// device, attention layers, routing skew and the session file to write.

#include "app/gui/CaptureRunner.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace mvp {

class CaptureDialog : public QDialog {
    Q_OBJECT
public:
    explicit CaptureDialog(QWidget* parent = nullptr);
    CaptureRequest request() const;
    void setRequest(const CaptureRequest& r);

    void accept() override; // checks the inputs first

private:
    void updatePreview();

    QComboBox* model_;
    QSpinBox* layers_;
    QLineEdit* image_;
    QLabel* preview_;
    QLineEdit* prompt_;
    QSpinBox* steps_;
    QComboBox* device_;
    QComboBox* dtype_;
    QLineEdit* attn_;
    QDoubleSpinBox* skew_;
    QLineEdit* output_;
};

} // namespace mvp
