#include "app/gui/CaptureDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>

namespace mvp {

namespace {
// The precisions a device takes, on its Device item.
constexpr int kDtypesRole = Qt::UserRole + 1;

QWidget* withButton(QWidget* parent, QLineEdit* edit, const QString& label,
                    std::function<void()> onClick) {
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    auto* b = new QPushButton(label, row);
    QObject::connect(b, &QPushButton::clicked, row, std::move(onClick));
    h->addWidget(b);
    return row;
}
} // namespace

CaptureDialog::CaptureDialog(QWidget* parent)
    : QDialog(parent), model_(new QComboBox(this)), modelFile_(new QLineEdit(this)),
      script_(new QLineEdit(this)), program_(new QLineEdit(this)), scriptArgs_(new QLineEdit(this)),
      workingFolder_(new QLineEdit(this)), layers_(new QSpinBox(this)), image_(new QLineEdit(this)),
      preview_(new QLabel(this)), prompt_(new QLineEdit(this)), steps_(new QSpinBox(this)),
      device_(new QComboBox(this)), dtype_(new QComboBox(this)), deviceTiming_(new QComboBox(this)),
      hwCounters_(new QCheckBox(tr("Read the GPU's hardware counters (replays the run)"), this)),
      devicesProbe_(new QProcess(this)), attn_(new QLineEdit(this)),
      skew_(new QDoubleSpinBox(this)), output_(new QLineEdit(this)) {
    setWindowTitle(tr("New Capture"));
    model_->setObjectName(QStringLiteral("model"));
    model_->addItem(tr("Reference, tiny (seconds)"), QStringLiteral("ref:tiny"));
    model_->addItem(tr("Reference, small (up to a minute on CPU)"), QStringLiteral("ref:small"));
    model_->addItem(tr("Reference, LLaVA-MoE 7B class (large GPU, or truncate depth)"),
                    QStringLiteral("ref:llava-moe-7b"));
    model_->addItem(tr("User model (TorchScript + manifest)…"), QStringLiteral("file"));
    model_->addItem(tr("Python script (profiles its model with the mvprof package)…"),
                    QStringLiteral("python"));
    model_->addItem(tr("Any CUDA program (its kernels and copies, through CUPTI)…"),
                    QStringLiteral("command"));
    program_->setPlaceholderText(tr("an unmodified program that uses CUDA; each of its CUDA "
                                    "processes becomes a run"));
    script_->setPlaceholderText(tr("a script calling mvprof.profile(None, model, …), e.g. "
                                   "llava_moe.py"));
    scriptArgs_->setPlaceholderText(tr("its arguments, e.g. --steps 8 --image photo.jpg"));
    workingFolder_->setPlaceholderText(tr("empty: the script's folder"));
    modelFile_->setPlaceholderText(
        tr("the model's manifest, e.g. example-vlm.json (see docs/user-models.md)"));
    layers_->setRange(0, 64);
    layers_->setSpecialValueText(tr("all layers"));
    layers_->setToolTip(tr("Truncate the model to this many vision and decoder layers"));
    steps_->setRange(0, 4096);
    steps_->setValue(8);
    device_->setObjectName(QStringLiteral("device"));
    device_->addItem(tr("CPU"), QStringLiteral("cpu"));
    device_->setItemData(0, QStringList{QStringLiteral("float32"), QStringLiteral("bfloat16")},
                         kDtypesRole);
    device_->setToolTip(tr("Looking for CUDA devices…"));
    dtype_->setObjectName(QStringLiteral("dtype"));
    dtype_->addItem(tr("float32"), QStringLiteral("float32"));
    dtype_->addItem(tr("bfloat16 (half the weight and KV bytes)"), QStringLiteral("bfloat16"));
    dtype_->addItem(tr("float16 (a GPU's)"), QStringLiteral("float16"));
    deviceTiming_->setObjectName(QStringLiteral("deviceTiming"));
    deviceTiming_->addItem(tr("CUDA events around module spans"), QStringLiteral("events"));
    deviceTiming_->addItem(tr("Exact: wait for the GPU at every probe (slower)"),
                           QStringLiteral("exact"));
    deviceTiming_->addItem(tr("Off: host launch times only"), QStringLiteral("off"));
    hwCounters_->setObjectName(QStringLiteral("hwCounters"));
    hwCounters_->setToolTip(
        tr("After the run, replay it under CUPTI's range profiler for each module's DRAM bytes, "
           "FLOPs and kernel time; the roofline then plots those instead of estimates"));
    deviceTiming_->setToolTip(
        tr("How a GPU capture times its modules on the device; exact mode makes every op and "
           "module time include its GPU work, at the cost of a wait at each"));
    dtype_->setToolTip(
        tr("The precision of weights, activations and the KV cache (float16 needs a GPU)"));
    attn_->setPlaceholderText(tr("e.g. all, 0-1 or 0,3 (empty: none)"));
    attn_->setToolTip(tr("Decoder layers whose per-head attention maps are stored (for head "
                         "redundancy and saliency)"));
    skew_->setRange(0, 20);
    skew_->setSingleStep(0.5);
    skew_->setValue(1.0);
    skew_->setToolTip(
        tr("Expert popularity ∝ (rank + 1)^−skew; 0 leaves routing to the router alone"));
    prompt_->setText(tr("Describe the image."));
    preview_->setFixedSize(160, 160);
    preview_->setAlignment(Qt::AlignCenter);
    preview_->setFrameShape(QFrame::StyledPanel);

    auto* form = new QFormLayout;
    form->addRow(tr("Model"), model_);
    modelFileRow_ = withButton(this, modelFile_, tr("Browse…"), [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("Choose a Model Manifest"), modelFile_->text(),
                                         tr("Model manifests (*.json)"));
        if (!f.isEmpty()) modelFile_->setText(f);
    });
    form->addRow(tr("Model file"), modelFileRow_);
    scriptRow_ = withButton(this, script_, tr("Browse…"), [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Choose a Python Script"),
                                                       script_->text(), tr("Python (*.py)"));
        if (!f.isEmpty()) script_->setText(f);
    });
    form->addRow(tr("Script"), scriptRow_);
    programRow_ = withButton(this, program_, tr("Browse…"), [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("Choose a CUDA Program"), program_->text());
        if (!f.isEmpty()) program_->setText(f);
    });
    form->addRow(tr("Program"), programRow_);
    form->addRow(tr("Arguments"), scriptArgs_);
    workingFolderRow_ = withButton(this, workingFolder_, tr("Browse…"), [this] {
        const QString d =
            QFileDialog::getExistingDirectory(this, tr("Working Folder"), workingFolder_->text());
        if (!d.isEmpty()) workingFolder_->setText(d);
    });
    form->addRow(tr("Working folder"), workingFolderRow_);
    form->addRow(tr("Depth"), layers_);
    form->addRow(tr("Image"), withButton(this, image_, tr("Browse…"), [this] {
                     const QString f =
                         QFileDialog::getOpenFileName(this, tr("Choose an Image"), image_->text(),
                                                      tr("Images (*.png *.jpg *.jpeg *.bmp)"));
                     if (!f.isEmpty()) image_->setText(f);
                 }));
    form->addRow(QString(), preview_);
    form->addRow(tr("Prompt"), prompt_);
    form->addRow(tr("Decode steps"), steps_);
    form->addRow(tr("Device"), device_);
    form->addRow(tr("Device timing"), deviceTiming_);
    form->addRow(QString(), hwCounters_);
    form->addRow(tr("Precision"), dtype_);
    form->addRow(tr("Attention maps"), attn_);
    form->addRow(tr("Routing skew"), skew_);
    form->addRow(tr("Session file"), withButton(this, output_, tr("Choose…"), [this] {
                     const QString f =
                         QFileDialog::getSaveFileName(this, tr("Session File"), output_->text(),
                                                      tr("mvprof sessions (*.mvprof)"));
                     if (!f.isEmpty())
                         output_->setText(f.endsWith(QLatin1String(".mvprof"))
                                              ? f
                                              : f + QStringLiteral(".mvprof"));
                 }));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Capture"));
    connect(buttons, &QDialogButtonBox::accepted, this, &CaptureDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &CaptureDialog::reject);
    form->addRow(buttons);
    setLayout(form);
    connect(image_, &QLineEdit::textChanged, this, &CaptureDialog::updatePreview);
    connect(model_, &QComboBox::currentIndexChanged, this, &CaptureDialog::modelChanged);
    connect(device_, &QComboBox::currentIndexChanged, this, &CaptureDialog::deviceChanged);
    modelChanged();
    askForDevices();
}

CaptureDialog::~CaptureDialog() {
    // Closed before mvprof-cli answered: the question is dropped.
    devicesProbe_->disconnect();
    if (devicesProbe_->state() != QProcess::NotRunning) {
        devicesProbe_->kill();
        devicesProbe_->waitForFinished(1000);
    }
}

// In the background: a machine with a GPU answers in about a second (the
// driver starts), and the dialog is usable meanwhile on the CPU.
void CaptureDialog::askForDevices() {
    connect(devicesProbe_, &QProcess::finished, this, &CaptureDialog::devicesFound);
    connect(devicesProbe_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            device_->setToolTip(tr("Could not ask %1 for devices: %2")
                                    .arg(CaptureRunner::cliPath(), devicesProbe_->errorString()));
    });
    devicesProbe_->start(
        CaptureRunner::cliPath(),
        {QStringLiteral("devices"), QStringLiteral("--format"), QStringLiteral("json")});
}

void CaptureDialog::devicesFound() {
    const QJsonObject answer =
        QJsonDocument::fromJson(devicesProbe_->readAllStandardOutput()).object();
    const QJsonArray devices = answer.value(QStringLiteral("devices")).toArray();
    if (devices.isEmpty()) {
        device_->setToolTip(
            tr("%1 did not list devices: only the CPU is offered").arg(CaptureRunner::cliPath()));
        return;
    }
    for (const QJsonValue& v : devices) {
        const QJsonObject d = v.toObject();
        const QString id = d.value(QStringLiteral("id")).toString();
        if (id == QLatin1String("cpu") || device_->findData(id) >= 0) continue;
        const double gib = d.value(QStringLiteral("memory_bytes")).toDouble() / double(1 << 30);
        device_->addItem(tr("%1: %2 (%3 GiB)")
                             .arg(id, d.value(QStringLiteral("name")).toString())
                             .arg(gib, 0, 'f', 0),
                         id);
        device_->setItemData(device_->count() - 1,
                             d.value(QStringLiteral("dtypes")).toVariant().toStringList(),
                             kDtypesRole);
    }
    const QString noCuda = answer.value(QStringLiteral("cuda_unavailable")).toString();
    device_->setToolTip(noCuda.isEmpty() ? QString() : tr("No CUDA device: %1").arg(noCuda));
    if (const int wanted = device_->findData(wantedDevice_); wanted > 0) {
        device_->setCurrentIndex(wanted);
        dtype_->setCurrentIndex(std::max(0, dtype_->findData(wantedDtype_)));
        hwCounters_->setChecked(wantedCounters_);
    }
}

// Only the precisions the device takes are offered; device timing and the
// hardware counters (a replay of the run) are a GPU's.
void CaptureDialog::deviceChanged() {
    const QStringList dtypes = device_->currentData(kDtypesRole).toStringList();
    auto* items = qobject_cast<QStandardItemModel*>(dtype_->model());
    for (int i = 0; i < dtype_->count() && items; ++i)
        items->item(i)->setEnabled(dtypes.contains(dtype_->itemData(i).toString()));
    if (!dtypes.contains(dtype_->currentData().toString())) dtype_->setCurrentIndex(0);
    const bool gpu =
        device_->currentData().toString() != QLatin1String("cpu") && device_->isEnabled();
    deviceTiming_->setEnabled(gpu);
    hwCounters_->setEnabled(gpu);
    if (!gpu) hwCounters_->setChecked(false);
}

void CaptureDialog::modelChanged() {
    // A user model brings its own depth, precision and attention: those
    // choices apply to the built-in model only. A script also brings its own
    // image, prompt and steps.
    const QString kind = model_->currentData().toString();
    const bool file = kind == QLatin1String("file"), program = kind == QLatin1String("command");
    const bool script = kind == QLatin1String("python") || program; // brings its own inputs
    modelFileRow_->setEnabled(file);
    scriptRow_->setEnabled(script && !program);
    programRow_->setEnabled(program);
    for (QWidget* w : {static_cast<QWidget*>(scriptArgs_), workingFolderRow_})
        w->setEnabled(script);
    for (QWidget* w : {static_cast<QWidget*>(layers_), static_cast<QWidget*>(dtype_),
                       static_cast<QWidget*>(attn_), static_cast<QWidget*>(skew_)})
        w->setEnabled(!file && !script);
    for (QWidget* w : {static_cast<QWidget*>(image_), static_cast<QWidget*>(prompt_),
                       static_cast<QWidget*>(steps_), static_cast<QWidget*>(device_)})
        w->setEnabled(!script);
    deviceChanged();
}

CaptureRequest CaptureDialog::request() const {
    CaptureRequest r;
    r.model = model_->currentData().toString();
    if (r.model == QLatin1String("file")) {
        r.modelFile = modelFile_->text().trimmed();
        r.model.clear();
    } else if (r.model == QLatin1String("python") || r.model == QLatin1String("command")) {
        if (r.model == QLatin1String("python"))
            r.script = script_->text().trimmed();
        else
            r.program = program_->text().trimmed();
        r.scriptArguments = scriptArgs_->text();
        r.workingFolder = workingFolder_->text().trimmed();
        r.model.clear();
    }
    r.layers = layers_->value();
    r.image = image_->text();
    r.prompt = prompt_->text();
    r.steps = steps_->value();
    r.device = device_->currentData().toString();
    r.dtype = dtype_->currentData().toString();
    r.deviceTiming = deviceTiming_->currentData().toString();
    r.hwCounters = hwCounters_->isChecked();
    r.attnLayers = attn_->text().trimmed();
    r.routingSkew = skew_->value();
    r.output = output_->text();
    return r;
}

void CaptureDialog::setRequest(const CaptureRequest& r) {
    const QString kind = !r.program.isEmpty()     ? QStringLiteral("command")
                         : !r.script.isEmpty()    ? QStringLiteral("python")
                         : !r.modelFile.isEmpty() ? QStringLiteral("file")
                                                  : r.model;
    model_->setCurrentIndex(std::max(0, model_->findData(kind)));
    modelFile_->setText(r.modelFile);
    script_->setText(r.script);
    program_->setText(r.program);
    scriptArgs_->setText(r.scriptArguments);
    workingFolder_->setText(r.workingFolder);
    layers_->setValue(r.layers);
    image_->setText(r.image);
    prompt_->setText(r.prompt);
    steps_->setValue(r.steps);
    wantedDevice_ = r.device; // a GPU is listed once mvprof-cli answers
    wantedDtype_ = r.dtype;
    device_->setCurrentIndex(std::max(0, device_->findData(r.device)));
    deviceTiming_->setCurrentIndex(std::max(0, deviceTiming_->findData(r.deviceTiming)));
    wantedCounters_ = r.hwCounters;
    dtype_->setCurrentIndex(std::max(0, dtype_->findData(r.dtype)));
    deviceChanged(); // a GPU's precision waits for its device to be listed
    attn_->setText(r.attnLayers);
    skew_->setValue(r.routingSkew);
    output_->setText(r.output);
}

void CaptureDialog::updatePreview() {
    QImageReader reader(image_->text());
    reader.setAutoTransform(true);
    const QSize size = reader.size();
    if (size.isValid()) reader.setScaledSize(size.scaled(preview_->size(), Qt::KeepAspectRatio));
    const QImage img = reader.read();
    if (img.isNull()) {
        preview_->setText(image_->text().isEmpty() ? tr("No image") : tr("Cannot read this image"));
        return;
    }
    preview_->setPixmap(QPixmap::fromImage(img));
    preview_->setToolTip(tr("%1 × %2 px").arg(size.width()).arg(size.height()));
}

void CaptureDialog::accept() {
    const CaptureRequest r = request();
    QString problem;
    const QString kind = model_->currentData().toString();
    const bool program = kind == QLatin1String("command");
    const bool script = kind == QLatin1String("python") || program;
    if (model_->currentData().toString() == QLatin1String("file") &&
        !QFileInfo(r.modelFile).isFile())
        problem =
            tr("Choose the user model's manifest (a .json file next to its TorchScript archive).");
    else if (program && !QFileInfo(r.program).isExecutable())
        problem = tr("Choose the CUDA program to run (an executable file).");
    else if (kind == QLatin1String("python") && !QFileInfo(r.script).isFile())
        problem = tr("Choose the Python script to run.");
    else if (script && !r.workingFolder.isEmpty() && !QFileInfo(r.workingFolder).isDir())
        problem = tr("The working folder does not exist.");
    else if (!script && !QFileInfo(r.image).isFile())
        problem = tr("Choose an image file that exists.");
    else if (r.output.isEmpty())
        problem = tr("Choose where to write the session.");
    else if (!QFileInfo(QFileInfo(r.output).absolutePath()).isWritable())
        problem = tr("The session's folder is not writable.");
    if (!problem.isEmpty()) {
        QMessageBox::warning(this, tr("New Capture"), problem);
        return;
    }
    if (QFileInfo::exists(r.output) &&
        QMessageBox::question(this, tr("New Capture"),
                              tr("%1 exists. Replace it?").arg(r.output)) != QMessageBox::Yes)
        return;
    QDialog::accept();
}

} // namespace mvp
