#pragma once
// A small session every session test starts from: one run with a module
// tree, phases, spans, ops (one nested, one without a span), tokens,
// routing, a patch metric, an attention map, the image and its patch grid.

#include "core/session/Records.h"

#include <QString>

namespace mvp::test {

RunInfo sampleRun();
Batch sampleBatch(int64_t run);
// Creates a complete one-run session at `path` (QVERIFY on failure: the
// caller checks QTest::currentTestFailed() where it matters).
void writeSession(const QString& path);

} // namespace mvp::test
