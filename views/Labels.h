#pragma once
// The GUI's words for core's typed values (strings only at this edge).

#include "core/Phase.h"
#include "core/Provenance.h"

#include <QString>
#include <optional>

class QComboBox;

namespace mvp::views {

// The translated word for a provenance ("measured", "estimated", …).
QString provenanceLabel(Provenance p);

// Fills `box` with "All phases", "Prefill" and "Decode" (the LLM's phases, which
// routing and attention have); chosenPhase reads the choice back (nullopt: all).
void addLlmPhaseChoices(QComboBox* box);
std::optional<Phase> chosenPhase(const QComboBox* box);

} // namespace mvp::views
