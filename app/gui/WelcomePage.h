#pragma once
// What the window shows before a session is open: a line on what mvprof
// shows, the ways in (New Capture, Open a session or trace, the demo scene)
// and the recent sessions, each one click away.

#include <QStringList>
#include <QWidget>

class QListWidget;

namespace mvp {

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);
    void setRecent(const QStringList& paths); // newest first
    QListWidget* recent() const { return recent_; }

signals:
    void newCaptureRequested();
    void openRequested();   // a session or a trace, chosen in a file dialog
    void sampleRequested(); // New Capture of the bundled demo scene with ref:demo
    void recentChosen(const QString& path);

private:
    QListWidget* recent_;
};

} // namespace mvp
