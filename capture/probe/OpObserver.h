#pragma once
// What a Recorder shows an observer that reads a model's values as it runs
// (a user model's router outputs and attention probabilities). Internal to
// mvp_capture; includes torch. The observer runs with RecordFunction off, so
// its own tensor work is never recorded as the model's.

#include "core/session/Records.h"

#include <ATen/core/ivalue.h>
#include <cstdint>
#include <string_view>
#include <vector>

namespace mvp {

class OpObserver {
public:
    virtual ~OpObserver() = default;
    // The roles of the modules whose ops it reads: outside them no op's
    // outputs are copied for it (a copy per op, and RecordFunction switched
    // off and on around the observer, is most of what observing costs).
    // Empty: every op's. Asked once, when the Recorder is given it.
    virtual std::vector<ModuleRole> watchedRoles() const { return {}; }
    // Whether it reads the outputs of `op` (an ATen name): for the others
    // nothing is handed to it and no work of its own is timed out of the run.
    virtual bool readsOp(std::string_view) const { return true; }
    // Whether reading an op's outputs may dispatch ATen ops of its own: then
    // RecordFunction is off around opEnded, so that they are not recorded
    // as the model's. One that says false guards any op it runs itself.
    virtual bool runsOps() const { return true; }
    // Whether it has nothing to read now (attention before any visual token
    // is declared): while idle, ops run without the output-copying callback.
    // The Recorder asks again when a watched module opens, or when told
    // (Recorder::observerChanged).
    virtual bool idle() const { return false; }
    // A top-level op ended; `open` are the module spans it ran in, outermost first.
    virtual void opEnded(const std::vector<int64_t>& open, std::string_view op,
                         const std::vector<c10::IValue>& outputs) = 0;
    // A span of a module of a role it watches closed (any module's, where
    // it watches every op).
    virtual void moduleClosed(int64_t module) = 0;
};

} // namespace mvp
