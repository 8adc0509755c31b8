#pragma once
// New Capture…: model (a preset, a user's TorchScript model by its manifest,
// or a Python script that profiles its own model with the mvprof package),
// image (with a preview), prompt, decode steps, device, precision, attention
// layers, routing skew and the session file to write.

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
    void modelChanged();

    QComboBox* model_;
    QLineEdit* modelFile_;
    QWidget* modelFileRow_;
    QLineEdit* script_;
    QWidget* scriptRow_;
    QLineEdit* program_;
    QWidget* programRow_;
    QLineEdit* scriptArgs_;
    QLineEdit* workingFolder_;
    QWidget* workingFolderRow_;
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
