#pragma once
// The GUI's words for core's typed values (strings only at this edge).

#include "core/Phase.h"
#include "core/Provenance.h"
#include "core/session/Records.h"

#include <QString>
#include <optional>

class QComboBox;

namespace mvp::views {

// The translated word for a provenance ("measured", "estimated", …).
QString provenanceLabel(Provenance p);

// "run 3 · prune 0.4": the run's id and its label, or "baseline" for a run
// without a transform (an eval set's baseline, "eval baseline", keeps its label).
QString runTitle(const RunInfo& r);

// Fills `box` with "All phases", "Prefill" and "Decode" (the LLM's phases, which
// routing and attention have); chosenPhase reads the choice back (nullopt: all).
void addLlmPhaseChoices(QComboBox* box);
std::optional<Phase> chosenPhase(const QComboBox* box);

} // namespace mvp::views
