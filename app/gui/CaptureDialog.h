#pragma once
// New Capture…: model (a preset, a user's TorchScript model by its manifest,
// or a Python script that profiles its own model with the mvprof package),
// image (with a preview), prompt, decode steps, device, precision, attention
// layers, routing skew and the session file to write. The devices come from
// `mvprof-cli devices`, asked in the background when the dialog opens: the
// CPU at once, a machine's CUDA devices (with float16 and the device-timing
// choice) when the answer arrives.

#include "app/gui/CaptureRunner.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProcess;
class QSpinBox;

namespace mvp {

class CaptureDialog : public QDialog {
    Q_OBJECT
public:
    explicit CaptureDialog(QWidget* parent = nullptr);
    ~CaptureDialog() override;
    CaptureRequest request() const;
    void setRequest(const CaptureRequest& r);

    void accept() override; // checks the inputs first

private:
    void updatePreview();
    void modelChanged();
    void askForDevices();
    void devicesFound();
    void deviceChanged();

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
    QComboBox* deviceTiming_;
    QCheckBox* hwCounters_;
    QProcess* devicesProbe_;
    QString wantedDevice_, wantedDtype_; // a request's, for a device not listed yet
    bool wantedCounters_ = false;
    QLineEdit* attn_;
    QDoubleSpinBox* skew_;
    QLineEdit* output_;
};

} // namespace mvp
