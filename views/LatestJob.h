#pragma once
// One kind of background work where only the newest request matters (a
// session load, a comparison, a heatmap recomputation): start() runs the work
// on Qt's thread pool and never waits for an earlier one; when a job ends its
// result reaches `done` on the GUI thread only if no newer start() or
// cancel() came since — stale results are dropped. The work gets a `stale`
// test to stop early. Nothing may escape the work (Qt would abort the
// application): it returns its errors as part of T.

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent>
#include <atomic>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace mvp::views {

template <typename T> class LatestJob {
public:
    using Stale = std::function<bool()>;
    using Work = std::function<T(const Stale& stale)>;

    // `done` runs in `context`'s thread (the GUI's) with the newest job's result.
    LatestJob(QObject* context, std::function<void(T)> done)
        : context_(context), done_(std::move(done)) {}
    LatestJob(const LatestJob&) = delete;
    LatestJob& operator=(const LatestJob&) = delete;
    // Waits for jobs still running: their results go nowhere.
    ~LatestJob() {
        cancel();
        for (auto& [id, watcher] : running_) {
            QObject::disconnect(watcher, nullptr, context_, nullptr);
            watcher->waitForFinished();
            delete watcher;
        }
    }

    void start(Work work) {
        const uint64_t id = ++*generation_;
        const auto generation = generation_;
        const Stale stale = [generation, id] { return generation->load() != id; };
        auto* watcher = new QFutureWatcher<T>(context_);
        QObject::connect(watcher, &QFutureWatcher<T>::finished, context_, [this, watcher, id] {
            watcher->deleteLater();
            std::erase_if(running_, [id](const auto& r) { return r.first == id; });
            if (generation_->load() == id) {
                busy_ = false;
                done_(watcher->result());
            }
        });
        busy_ = true;
        const QFuture<T> future =
            QtConcurrent::run([work = std::move(work), stale] { return work(stale); });
        running_.emplace_back(id, watcher);
        watcher->setFuture(future);
    }

    // Drops the current job's result (it still runs to its end, or until it sees it is stale).
    void cancel() {
        ++*generation_;
        busy_ = false;
    }

    // True from start() until the newest job's result was handed over (or cancelled).
    bool busy() const { return busy_; }

private:
    QObject* context_;
    std::function<void(T)> done_;
    std::shared_ptr<std::atomic<uint64_t>> generation_ = std::make_shared<std::atomic<uint64_t>>(0);
    std::vector<std::pair<uint64_t, QFutureWatcher<T>*>> running_; // started, not yet finished
    bool busy_ = false;
};

} // namespace mvp::views
