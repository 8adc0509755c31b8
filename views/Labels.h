#pragma once
// The GUI's words for core's typed values (strings only at this edge).

#include "core/Provenance.h"

#include <QString>

namespace mvp::views {

// The translated word for a provenance ("measured", "estimated", …).
QString provenanceLabel(Provenance p);

} // namespace mvp::views
