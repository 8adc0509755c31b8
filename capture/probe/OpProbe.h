#pragma once
// Switches the ATen op callbacks (OpProbe.cpp) that feed a Recorder.
// Internal to mvp_capture; plain C++.

namespace mvp {
class Recorder;
}

namespace mvp::probe {

// The recorder that ops on the calling thread report to; nullptr: none.
void setThreadRecorder(Recorder* rec);
// Registers the global callbacks once, then enables one or disables both;
// `outputs`: the variant that also hands op outputs to an OpObserver.
void enableOpCallbacks(bool on, bool outputs);

} // namespace mvp::probe
