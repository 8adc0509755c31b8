#include "core/report/Report.h"

#include "core/session/SessionReader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>

namespace mvp {

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}
std::string ms(int64_t ns) { return fmt("%.2f", double(ns) / 1e6); }
std::string pct(double share) { return fmt("%.1f%%", share * 100.0); }
std::string padRight(std::string s, size_t n) {
    if (s.size() < n) s.append(n - s.size(), ' ');
    return s;
}
std::string padLeft(const std::string& s, size_t n) {
    return s.size() < n ? std::string(n - s.size(), ' ') + s : s;
}

Result<RunReport> buildRun(SessionReader& reader, const RunInfo& run) {
    RunReport r;
    r.run = run;
    auto phases = reader.phases(run.id);
    auto modules = reader.modules(run.id);
    auto spans = reader.spans(run.id);
    auto routing = reader.routing(run.id);
    auto grid = reader.patchGrid(run.id);
    auto attention = reader.patchMetrics(run.id, "attention");
    auto ops = reader.ops(run.id);
    for (const Error* e : {phases ? nullptr : &phases.error(), modules ? nullptr : &modules.error(),
                           spans ? nullptr : &spans.error(), routing ? nullptr : &routing.error(),
                           grid ? nullptr : &grid.error(), attention ? nullptr : &attention.error(),
                           ops ? nullptr : &ops.error()})
        if (e) return *e;

    r.phases = summarisePhases(*phases);
    const int64_t wall = run.wallNs > 0 ? run.wallNs : r.phases.wallNs;
    r.modules = buildModuleCosts(*modules, *spans, wall);
    r.ops = int64_t(ops->size());
    for (const auto& n : r.modules.nodes)
        if (!n.module.parent) r.parameters += n.module.params;

    std::map<int, ExpertLoad> loads;
    int maxExpert = -1;
    for (const auto& x : *routing) maxExpert = std::max(maxExpert, x.expert);
    for (const auto& x : *routing) {
        auto& l = loads[x.layer];
        l.layer = x.layer;
        l.tokens.resize(size_t(maxExpert + 1));
        l.tokens[size_t(x.expert)] += 1;
        l.slotCount += 1;
    }
    for (auto& [_, l] : loads) r.experts.push_back(l);

    if (*grid && !attention->empty()) {
        const auto& g = **grid;
        std::vector<double> sum(size_t(g.gridH) * g.gridW, 0.0);
        for (const auto& m : *attention)
            if (m.patch >= 0 && size_t(m.patch) < sum.size()) sum[size_t(m.patch)] += m.value;
        std::vector<int> order(sum.size());
        std::iota(order.begin(), order.end(), 0);
        const size_t k = std::min<size_t>(5, order.size());
        std::partial_sort(order.begin(), order.begin() + long(k), order.end(),
                          [&](int a, int b) { return sum[size_t(a)] > sum[size_t(b)]; });
        for (size_t i = 0; i < k; ++i) {
            const int p = order[i];
            r.hotPatches.push_back(HotPatch{p, p / g.gridW, p % g.gridW, sum[size_t(p)]});
        }
    }

    if (run.status == RunStatus::Incomplete)
        r.notes.push_back("the run is incomplete (its capture was stopped or killed): figures cover what was recorded");
    if (run.status == RunStatus::Failed) r.notes.push_back("the run failed: " + run.error);
    if (run.blas.rfind("reference BLAS", 0) == 0)
        r.notes.push_back("libtorch is calling the reference BLAS, ~30x slower than OpenBLAS: install libopenblas0-pthread");
    if (!run.probes) r.notes.push_back("captured without probes (--no-probes): phases only, no modules, ops or routing");
    if (run.probes && r.experts.empty()) r.notes.push_back("no MoE routing recorded (the model has no MoE layers?)");
    if (!*grid) r.notes.push_back("no image patch grid recorded");
    return r;
}

} // namespace

Result<SessionReport> buildReport(SessionReader& reader) {
    SessionReport rep;
    rep.path = reader.path();
    rep.schemaVersion = reader.schemaVersion();
    auto runs = reader.runs();
    if (!runs) return runs.error();
    for (const auto& run : *runs) {
        auto r = buildRun(reader, run);
        if (!r) return r.error();
        rep.runs.push_back(std::move(r.value()));
    }
    return rep;
}

std::string formatText(const SessionReport& rep) {
    std::string o;
    o += "Session " + rep.path + " (format v" + std::to_string(rep.schemaVersion) + "), " +
         std::to_string(rep.runs.size()) + " run(s)\n";
    if (rep.runs.empty()) o += "  (no runs: the capture stopped before it began)\n";
    for (const auto& r : rep.runs) {
        const auto& i = r.run;
        o += "\nRun " + std::to_string(i.id) + " [" + i.label + "] " + toString(i.status) + "\n";
        o += "  model      " + i.model + " (" + fmt("%.2f", double(r.parameters) / 1e6) + " M parameters)\n";
        o += "  device     " + i.device + ", " + i.dtype + ", " + std::to_string(i.threads) + " threads\n";
        o += "  BLAS       " + i.blas + "\n";
        o += "  image      " + i.imagePath + "\n";
        o += "  prompt     \"" + i.prompt + "\", " + std::to_string(i.steps) + " decode steps\n";
        o += "  output     " + nlohmann::json(i.outputText).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace) + "\n";
        o += "  wall time  " + ms(r.modules.wallNs) + " ms (measured)\n";
        o += "  peak RSS   " + fmt("%.1f", double(i.peakRssBytes) / (1 << 20)) + " MiB (measured, whole process)\n";
        for (const auto& n : r.notes) o += "  note: " + n + "\n";

        o += "\n  Phases (measured)          count        ms   share\n";
        for (const auto& p : r.phases.phases)
            o += "    " + padRight(p.phase, 22) + padLeft(std::to_string(p.count), 6) +
                 padLeft(ms(p.totalNs), 10) + padLeft(pct(p.share), 8) + "\n";
        o += "    phases cover " + pct(r.phases.coverage) + " of the wall time\n";

        std::vector<const ModuleCost*> top;
        for (const auto& n : r.modules.nodes)
            if (n.calls > 0) top.push_back(&n);
        std::sort(top.begin(), top.end(), [](auto* a, auto* b) { return a->selfNs > b->selfNs; });
        if (top.size() > 12) top.resize(12);
        if (!top.empty()) {
            o += "\n  Modules by self time         calls   total ms    self ms   share   GFLOP*      MB*\n";
            for (const auto* n : top)
                o += "    " + padRight(n->module.path, 26) + padLeft(std::to_string(n->calls), 6) +
                     padLeft(ms(n->totalNs), 11) + padLeft(ms(n->selfNs), 11) + padLeft(pct(n->share), 8) +
                     padLeft(fmt("%.3f", double(n->flops) / 1e9), 9) +
                     padLeft(fmt("%.2f", double(n->bytes) / 1e6), 9) + "\n";
            o += "    (times measured; * FLOPs and bytes estimated from op shapes; " + std::to_string(r.ops) +
                 " ops recorded)\n";
        }
        if (!r.experts.empty()) {
            o += "\n  Expert load (routing slots per expert, measured)\n";
            for (const auto& l : r.experts) {
                o += "    layer " + padLeft(std::to_string(l.layer), 3) + ":";
                for (auto t : l.tokens) o += padLeft(std::to_string(t), 6);
                o += "   (" + std::to_string(l.slotCount) + " slots)\n";
            }
        }
        if (!r.hotPatches.empty()) {
            o += "\n  Most-attended patches (attention from text tokens, summed over layers)\n";
            for (const auto& p : r.hotPatches)
                o += "    patch " + padLeft(std::to_string(p.patch), 4) + " (row " + std::to_string(p.row) +
                     ", col " + std::to_string(p.col) + ")  " + fmt("%.4f", p.attention) + "\n";
        }
    }
    return o;
}

std::string formatJson(const SessionReport& rep) {
    using nlohmann::json;
    json j;
    j["session"] = rep.path;
    j["schema_version"] = rep.schemaVersion;
    j["units"] = {{"time", "ms"}, {"memory", "bytes"},
                  {"labels", "times and memory are measured; flops and bytes are estimated from op shapes"}};
    j["runs"] = json::array();
    for (const auto& r : rep.runs) {
        const auto& i = r.run;
        json run{{"id", i.id},         {"label", i.label},       {"model", i.model},
                 {"status", toString(i.status)}, {"device", i.device}, {"dtype", i.dtype},
                 {"blas", i.blas},     {"threads", i.threads},   {"prompt", i.prompt},
                 {"image", i.imagePath}, {"steps", i.steps},     {"output", i.outputText},
                 {"probes", i.probes}, {"parameters", r.parameters},
                 {"wall_ms_measured", double(r.modules.wallNs) / 1e6},
                 {"peak_rss_bytes_measured", i.peakRssBytes}, {"ops_recorded", r.ops},
                 {"notes", r.notes}};
        run["phases"] = json::array();
        for (const auto& p : r.phases.phases)
            run["phases"].push_back({{"phase", p.phase}, {"count", p.count},
                                     {"ms_measured", double(p.totalNs) / 1e6}, {"share", p.share}});
        run["phase_coverage"] = r.phases.coverage;
        run["modules"] = json::array();
        for (const auto& n : r.modules.nodes)
            run["modules"].push_back({{"path", n.module.path}, {"kind", n.module.kind},
                                      {"params", n.module.params}, {"calls", n.calls},
                                      {"total_ms_measured", double(n.totalNs) / 1e6},
                                      {"self_ms_measured", double(n.selfNs) / 1e6}, {"share", n.share},
                                      {"flops_estimated", n.flops}, {"bytes_estimated", n.bytes}});
        run["experts"] = json::array();
        for (const auto& l : r.experts)
            run["experts"].push_back({{"layer", l.layer}, {"tokens_per_expert", l.tokens}, {"slots", l.slotCount}});
        run["hot_patches"] = json::array();
        for (const auto& p : r.hotPatches)
            run["hot_patches"].push_back({{"patch", p.patch}, {"row", p.row}, {"col", p.col},
                                          {"attention", p.attention}});
        j["runs"].push_back(run);
    }
    return j.dump(2, ' ', false, json::error_handler_t::replace);
}

} // namespace mvp
