#include "core/session/RowBinding.h"

#include "core/Utf8.h"
#include "core/session/ModuleRoles.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace mvp::rowbind {

bool bindRow(sql::Stmt& s, int64_t run, const ModuleRow& m) {
    s.bind(1, run), s.bind(2, m.id), s.bind(3, m.path), s.bind(4, m.kind), s.bind(5, m.parent),
        s.bind(6, m.params), s.bind(7, toString(m.role)), s.bind(8, m.layer), s.bind(9, m.expert);
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const PhaseRow& p) {
    s.bind(1, run), s.bind(2, p.phase), s.bind(3, p.step), s.bind(4, p.startNs), s.bind(5, p.endNs);
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const LeafFlopsRow& l) {
    s.bind(1, run), s.bind(2, l.phase), s.bind(3, l.name), s.bind(4, l.calls), s.bind(5, l.flops);
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const TokenRow& t) {
    s.bind(1, run), s.bind(2, t.position), s.bind(3, t.phase), s.bind(4, t.step),
        s.bind(5, t.modality), s.bind(6, t.tokenId), s.bind(7, t.patch);
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const ImageRow& i) {
    s.bind(1, run), s.bind(2, i.sourcePath), s.bind(3, i.width), s.bind(4, i.height),
        s.bind(5, i.origWidth), s.bind(6, i.origHeight);
    s.bindBlob(7, i.png.data(), i.png.size());
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const PatchGridRow& g) {
    s.bind(1, run), s.bind(2, g.gridH), s.bind(3, g.gridW), s.bind(4, g.patch),
        s.bind(5, g.inputSize), s.bind(6, g.firstPosition);
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const StepOutputRow& o) {
    s.bind(1, run), s.bind(2, o.step), s.bind(3, o.token);
    s.bindBlob(4, o.logits.data(), o.logits.size() * sizeof(float));
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const RunMetricRow& m) {
    // NaN would read back as NULL, i.e. 0, and ±inf is no figure: neither is written.
    if (!std::isfinite(m.value)) return false;
    s.bind(1, run), s.bind(2, m.name), s.bind(3, m.value), s.bind(4, m.unit), s.bind(5, m.kind),
        s.bind(6, m.note);
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const RepetitionRow& x) {
    s.bind(1, run), s.bind(2, toString(x.arm)), s.bind(3, x.rep), s.bind(4, x.phase),
        s.bind(5, x.ns), s.bind(6, int64_t(x.control));
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const VisionFeatureRow& v) {
    s.bind(1, run), s.bind(2, v.rows), s.bind(3, v.cols);
    s.bindBlob(4, v.data.data(), v.data.size() * sizeof(float));
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const DeviceRow& d) {
    s.bind(1, run), s.bind(2, d.name), s.bind(3, d.peakFlops), s.bind(4, d.peakBytesPerS),
        s.bind(5, d.source), s.bind(6, d.memoryTotalBytes), s.bind(7, d.memoryAvailableBytes);
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const AttnMapRow& a) {
    s.bind(1, run), s.bind(2, a.layer), s.bind(3, a.head), s.bind(4, a.rows), s.bind(5, a.cols);
    s.bindBlob(6, a.data.data(), a.data.size() * sizeof(float));
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const EvalSetRow& e) {
    s.bind(1, run), s.bind(2, e.path), s.bind(3, e.sha256), s.bind(4, e.items);
    return true;
}

bool bindRow(sql::Stmt& s, int64_t run, const EvalItemRow& e) {
    s.bind(1, run), s.bind(2, e.item), s.bind(3, e.id), s.bind(4, e.kind), s.bind(5, e.prompt);
    s.bind(6, nlohmann::json(e.answers).dump()), s.bind(7, validUtf8(e.output));
    s.bind(8, e.correct ? std::optional<int64_t>(*e.correct) : std::nullopt);
    s.bind(9, e.klMean), s.bind(10, e.klMax), s.bind(11, e.top1Agreement), s.bind(12, e.tokenMatch);
    s.bind(13, e.visualTokens), s.bind(14, nlohmann::json(e.keptPatches).dump());
    return true;
}

} // namespace mvp::rowbind
