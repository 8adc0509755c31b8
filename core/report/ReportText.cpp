// The text and Markdown reports: the same sections, for a terminal and for a document.
#include "core/Format.h"
#include "core/report/Report.h"
#include "core/report/EvalText.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace mvp {

namespace {

std::string ms(int64_t ns) {
    return fmt("%.2f", double(ns) / 1e6);
}
std::string pct(double share) {
    return fmt("%.1f%%", share * 100.0);
}
// Columns a UTF-8 string takes ("–" is three bytes, one column).
size_t columns(const std::string& s) {
    return size_t(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}
std::string padRight(std::string s, size_t n) {
    if (columns(s) < n) s.append(n - columns(s), ' ');
    return s;
}
std::string padLeft(const std::string& s, size_t n) {
    return columns(s) < n ? std::string(n - columns(s), ' ') + s : s;
}
// A module's GFLOP, or "–" when none of its ops has a FLOP formula.
std::string gflop(const ModuleCost& n) {
    return n.flopsKnown ? fmt("%.3f", double(n.flops) / 1e9) : std::string("–");
}
std::string quoted(const std::string& s) {
    return nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

std::vector<const ModuleCost*> topModules(const ModuleCostTree& t, size_t n) {
    std::vector<const ModuleCost*> top;
    for (const auto& m : t.nodes)
        if (m.calls > 0) top.push_back(&m);
    std::sort(top.begin(), top.end(), [](auto* a, auto* b) { return a->selfNs > b->selfNs; });
    if (top.size() > n) top.resize(n);
    return top;
}

// "demo.safetensors (sha256 1f2e…)" or "random, seed 0 (no --weights)".
std::string weightsText(const RunAnalysis& a) {
    if (!a.weightsFile.empty())
        return a.weightsFile + " (sha256 " + a.weightsSha256.substr(0, 12) + "…)";
    if (a.weightsSeed)
        return "random, seed " + std::to_string(*a.weightsSeed) +
               " (no --weights: outputs are not meaningful)";
    return {};
}

std::string runHeaderText(const RunAnalysis& a) {
    std::string o;
    const auto& i = a.run;
    o += "\nRun " + std::to_string(i.id) + " [" + i.label + "] " + toString(i.status) + "\n";
    o += "  model      " + i.model + " (" + fmt("%.2f", double(a.parameters) / 1e6) +
         " M parameters)\n";
    if (const auto w = weightsText(a); !w.empty()) o += "  weights    " + w + "\n";
    if (!a.importedFrom.empty()) {
        o += "  source     " + a.importedFrom + "\n";
        o += "  device     " + i.device + "\n";
        o += "  wall time  " + ms(a.modules.wallNs) + " ms (measured by the trace's profiler)\n";
    } else {
        o += "  device     " + i.device + ", " + i.dtype + ", " + std::to_string(i.threads) +
             " threads\n";
        o += "  BLAS       " + i.blas + "\n";
        o += "  image      " + i.imagePath + "\n";
        o +=
            "  prompt     " + quoted(i.prompt) + ", " + std::to_string(i.steps) + " decode steps\n";
        o += "  output     " + quoted(i.outputText) + "\n";
        o += "  wall time  " + ms(a.modules.wallNs) + " ms (measured)\n";
        o += "  peak RSS   " + fmt("%.1f", double(i.peakRssBytes) / (1 << 20)) +
             " MiB (measured, whole process)\n";
    }
    o += "  energy     " +
         (a.energyJ ? fmt("%.3g", *a.energyJ) + " J per inference (measured; " + a.energyNote + ")"
                    : a.energyNote) +
         "\n";
    if (!a.gpuMemoryNote.empty())
        o += "  GPU memory " +
             (a.gpuPeakBytes
                  ? fmt("%.1f", *a.gpuPeakBytes / (1 << 20)) + " MiB peak held by tensors, " +
                        fmt("%.1f", *a.gpuStartBytes / (1 << 20)) +
                        " MiB as the run began (measured, libtorch's allocator)"
                  : a.gpuMemoryNote) +
             "\n";
    if (!a.gpuEnergyNote.empty())
        o += "  GPU energy " +
             (a.gpuEnergyJ ? fmt("%.3g", *a.gpuEnergyJ) + " J per inference (measured; " +
                                 a.gpuEnergyNote + ")"
                           : a.gpuEnergyNote) +
             "\n";
    for (const auto& n : a.notes)
        o += "  note: " + n + "\n";
    return o;
}

std::string phasesText(const RunAnalysis& a) {
    std::string o;
    if (a.phases.phases.empty()) return o;
    o += "\n  Phases (measured)          count        ms   share   GFLOP*  FLOPs known\n";
    for (const auto& p : a.phases.phases)
        o += "    " + padRight(phaseName(p.phase), 22) + padLeft(std::to_string(p.count), 6) +
             padLeft(ms(p.totalNs), 10) + padLeft(pct(p.share), 8) +
             padLeft(fmt("%.3f", double(p.flops) / 1e9), 9) +
             padLeft(p.opNs > 0 ? pct(p.flopsCoverage()) : std::string("–"), 13) + "\n";
    if (!a.phases.phases.empty())
        o += "    phases cover " + pct(a.phases.coverage) +
             " of the wall time; FLOPs known: share of the phase's op time whose ops have a "
             "FLOP formula (derived)\n";
    return o;
}

std::string modulesText(const RunAnalysis& a) {
    std::string o;
    const auto top = topModules(a.modules, 12);
    if (!top.empty()) {
        // GPU time only where the run has GPU activity (CUPTI or a trace's kernels).
        const bool gpu = top.front()->deviceNs.has_value();
        o += "\n  Modules by self time         calls   total ms    self ms   share   GFLOP*      "
             "MB*" +
             std::string(gpu ? "     GPU ms" : "") + "\n";
        for (const auto* n : top)
            o += "    " + padRight(n->module.path, 26) + padLeft(std::to_string(n->calls), 6) +
                 padLeft(ms(n->totalNs), 11) + padLeft(ms(n->selfNs), 11) +
                 padLeft(pct(n->share), 8) + padLeft(gflop(*n), 9) +
                 padLeft(fmt("%.2f", double(n->bytes) / 1e6), 9) +
                 (gpu ? padLeft(ms(n->deviceNs.value_or(0)), 11) : std::string()) + "\n";
        o += "    (times measured; * estimated from op shapes; " + std::to_string(a.ops) +
             " ops recorded" +
             (!gpu ? ""
              : a.modules.deviceTime == DeviceTimeSource::Events
                  ? "; GPU ms: between CUDA events at each call's start and end, children included"
                  : "; GPU ms: kernels, copies and fills launched inside, children included") +
             ")\n";
    }
    return o;
}

std::string opsText(const RunAnalysis& a) {
    std::string o;
    if (a.topOps.empty()) return o;
    o += "\n  Ops by time (top-level)      calls   total ms   share   GFLOP*      MB*\n";
    const double wall = double(std::max<int64_t>(a.modules.wallNs, 1));
    for (const auto& t : a.topOps)
        o += "    " + padRight(t.name, 26) + padLeft(std::to_string(t.calls), 6) +
             padLeft(ms(t.ns), 11) + padLeft(pct(double(t.ns) / wall), 8) +
             padLeft(t.knownNs > 0 || t.flops > 0 ? fmt("%.3f", double(t.flops) / 1e9)
                                                  : std::string("–"),
                     9) +
             padLeft(fmt("%.2f", double(t.bytes) / 1e6), 9) + "\n";
    o += "    (times measured; share of the wall time; * estimated from op shapes)\n";
    return o;
}

std::string expertLoadText(const RunAnalysis& a) {
    std::string o;
    if (!a.moe.empty()) {
        o += "\n  Expert load (routing slots, measured)  tokens    CV  balanced  Jain  MaxVio  "
             "dead  H bits  H/E\n";
        for (const auto& l : a.moe) {
            const auto& s = l.total;
            o += "    layer " + padLeft(std::to_string(l.layer), 3) +
                 padLeft(std::to_string(l.tokenCount), 32) + padLeft(fmt("%.2f", s.cv), 6) +
                 padLeft(fmt("%.2f", s.balancedness), 10) + padLeft(fmt("%.2f", s.jain), 6) +
                 padLeft(fmt("%.2f", s.maxvio), 8) + padLeft(fmt("%.2f", s.deadFraction), 6) +
                 padLeft(fmt("%.2f", s.entropyBits), 8) + padLeft(fmt("%.2f", s.entropyNorm), 5) +
                 "\n";
            o += "      experts:";
            for (const auto& e : l.experts) {
                // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on " " + string.
                o.append(" ").append(std::to_string(e.id)).append("=");
                o.append(std::to_string(e.tokens));
                if (e.state != ExpertState::Normal)
                    o.append("(").append(toString(e.state)).append(")");
            }
            o += "\n      visual CV " + fmt("%.2f", l.visual.cv) + " over " +
                 std::to_string(l.visual.tokens) + " slots, text CV " + fmt("%.2f", l.text.cv) +
                 " over " + std::to_string(l.text.tokens) + "; prefill CV " +
                 fmt("%.2f", l.prefill.cv) + ", decode CV " + fmt("%.2f", l.decode.cv) + " over " +
                 std::to_string(l.decode.tokens) + " slots\n";
            for (const auto& w : l.windows)
                o += "      tokens " + std::to_string(w.first) + "-" + std::to_string(w.last) +
                     ": CV " + fmt("%.2f", w.stats.cv) + ", balanced " +
                     fmt("%.2f", w.stats.balancedness) + "\n";
        }
        int64_t gate = 0, experts = 0;
        for (const auto& g : a.gateExpert)
            gate += g.gateNs, experts += g.expertNs;
        o += "    gate " + ms(gate) + " ms vs experts " + ms(experts) +
             " ms over the run (measured)\n";
    }
    return o;
}

std::string headsText(const RunAnalysis& a) {
    std::string o;
    for (const auto& h : a.heads)
        if (h.valid) {
            o += "\n  Heads of layer " + std::to_string(h.layer) + ": redundancy " +
                 fmt("%.3f", h.redundancy) + " over " + std::to_string(h.heads) +
                 " heads; most similar:";
            for (const auto& p : h.topPairs)
                o += " " + std::to_string(p.a) + "~" + std::to_string(p.b) + " (" +
                     fmt("%.3f", p.cosine) + ")";
            o += "\n";
        }
    return o;
}

std::string rooflineText(const RunAnalysis& a) {
    std::string o;
    if (a.host) {
        o += "\n  Roofline on " + a.host->name + ": " + fmt("%.1f", a.host->peakFlops / 1e9) +
             " GFLOP/s, " + fmt("%.1f", a.host->peakBytesPerS / 1e9) + " GB/s, ridge " +
             fmt("%.1f", a.host->ridge()) + " FLOP/B (" + a.host->source + ")\n";
        size_t shown = 0;
        for (const auto& p : a.opRoofline) {
            if (shown++ == 6) break;
            o += "    " + padRight(p.name, 22) + padLeft(ms(p.ns), 9) + " ms  AI " +
                 padLeft(fmt("%.1f", p.intensity), 7) + "  " + toString(p.bound) + "-bound\n";
        }
    }
    return o;
}

std::string kvText(const RunAnalysis& a) {
    std::string o;
    if (a.kv.sequenceLength > 0)
        o += "\n  KV: " + std::to_string(a.kv.regions) + " hot-attention region(s) use " +
             pct(a.kv.shareRatio) + " of " + std::to_string(a.kv.sequenceLength) + " positions" +
             (a.kv.resampling.empty()
                  ? std::string("; resampling loss needs a what-if that changes the visual "
                                "tokens or the KV cache\n")
                  : "; resampling loss vs the baseline (measured), Δcos mean by layer:" +
                        [&] {
                            std::string s;
                            for (const auto& r : a.kv.resampling)
                                s += " L" + std::to_string(r.layer) + " " +
                                     fmt("%.3g", r.loss.deltaCos.mean);
                            return s;
                        }() +
                        "\n");
    return o;
}

std::string batchText(const RunAnalysis& a) {
    std::string o;
    if (a.batch.valid) {
        o += "\n  Batch advice (predicted; calibrated ×" + fmt("%.1f", a.batch.scale) +
             " on this sample, " + fmt("%.1f", double(a.batch.freeBytes) / (1 << 30)) +
             (a.batch.onGpu ? " GiB free on the GPU, derived: its memory less what tensors held "
                              "as the run began)\n   "
                            : " GiB free)\n   ");
        for (const auto& b : a.batch.buckets)
            if (b.entropyBits == 1.6)
                o += " R" + std::to_string(b.shortSide) + "/L" + std::to_string(b.textTokens) +
                     "=" + std::to_string(b.batch);
        o += "\n";
    }
    return o;
}

std::string findingsText(const RunAnalysis& a) {
    std::string o;
    if (!a.findings.empty()) {
        o += "\n  Findings\n";
        for (const auto& f : a.findings) {
            o += "    [" + std::string(toString(f.severity)) + "] " + f.title + "\n";
            o += "        " + f.suggestion + "\n";
        }
    }
    return o;
}

// An eval run: what it ran over, and its accuracy and latency, or its
// comparison with its eval baseline.
std::string evalRunText(const RunAnalysis& a, const SessionReport::Eval& e) {
    const auto& i = a.run;
    std::string o = "\nRun " + std::to_string(i.id) + " [" + i.label + "] " + toString(i.status) +
                    " — eval run over " + e.set.path + " (sha256 " + e.set.sha256.substr(0, 12) +
                    "…)\n";
    o += "  model      " + i.model + " (" + fmt("%.2f", double(a.parameters) / 1e6) +
         " M parameters)\n";
    if (const auto w = weightsText(a); !w.empty()) o += "  weights    " + w + "\n";
    o += "  device     " + i.device + ", " + i.dtype + ", " + std::to_string(i.threads) +
         " threads\n";
    if (e.comparison) return o + formatEvalText(*e.comparison, e.set.path);
    const auto& s = e.summary;
    o += "  items      " + std::to_string(s.items) + " of " + std::to_string(s.total) +
         (s.unanswered ? ", " + std::to_string(s.unanswered) + " without an answer" : "") + "\n";
    o += "  accuracy   " + fmt("%.3f", s.accuracy.value) + fmt(" [%.3f, ", s.accuracy.low) +
         fmt("%.3f]", s.accuracy.high) + " (measured over " + std::to_string(s.accuracy.items) +
         " items, Wilson 95 %)\n";
    o += "  per item   " + fmt("%.2f ms", s.itemMs.median) + fmt(" [%.2f, ", s.itemMs.low) +
         fmt("%.2f] (measured, median)\n", s.itemMs.high);
    return o;
}

std::string textRun(const RunAnalysis& a) {
    return runHeaderText(a) + phasesText(a) + modulesText(a) + opsText(a) + expertLoadText(a) +
           headsText(a) + rooflineText(a) + kvText(a) + batchText(a) + findingsText(a);
}

std::string markdownRun(const RunAnalysis& a) {
    const auto& i = a.run;
    std::string o =
        "\n## Run " + std::to_string(i.id) + " — " + i.label + " (" + toString(i.status) + ")\n\n";
    o += "- Model: `" + i.model + "`, " + fmt("%.2f", double(a.parameters) / 1e6) +
         " M parameters, " + i.device + ", " + i.dtype + "\n";
    if (const auto w = weightsText(a); !w.empty()) o += "- Weights: " + w + "\n";
    o += "- Wall time: " + ms(a.modules.wallNs) + " ms (measured); peak RSS " +
         fmt("%.1f", double(i.peakRssBytes) / (1 << 20)) + " MiB (measured)\n";
    o += "- BLAS: " + i.blas + "\n";
    for (const auto& n : a.notes)
        o += "- Note: " + n + "\n";
    o += "\n### Findings\n\n";
    if (a.findings.empty()) o += "No findings.\n";
    for (const auto& f : a.findings) {
        o += "- **" + std::string(toString(f.severity)) + "** — " + f.title + "  \n  " + f.detail +
             "  \n  *Suggestion:* " + f.suggestion + "\n";
    }
    o +=
        "\n### Phases (measured)\n\n| phase | count | ms | share |\n| --- | ---: | ---: | ---: |\n";
    for (const auto& p : a.phases.phases)
        o += "| " + phaseName(p.phase) + " | " + std::to_string(p.count) + " | " + ms(p.totalNs) +
             " | " + pct(p.share) + " |\n";
    const auto top = topModules(a.modules, 10);
    if (!top.empty()) {
        o += "\n### Modules by self time\n\n| module | calls | total ms | self ms | GFLOP (est.) "
             "|\n| --- | ---: | ---: | ---: | ---: |\n";
        for (const auto* n : top)
            o += "| `" + n->module.path + "` | " + std::to_string(n->calls) + " | " +
                 ms(n->totalNs) + " | " + ms(n->selfNs) + " | " + gflop(*n) + " |\n";
    }
    if (!a.moe.empty()) {
        o += "\n### Expert balance (measured)\n\n| layer | tokens | CV | balancedness | Jain | "
             "MaxVio | dead | H bits | H/E | hot experts |\n"
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
        for (const auto& l : a.moe) {
            std::string hot;
            for (const auto& e : l.experts)
                if (e.state == ExpertState::Hot || e.state == ExpertState::Overloaded)
                    hot += (hot.empty() ? "" : ", ") + std::to_string(e.id) + " (Δ " +
                           fmt("%.2f", e.z) + ")";
            const auto& s = l.total;
            o += "| " + std::to_string(l.layer) + " | " + std::to_string(l.tokenCount) + " | " +
                 fmt("%.3f", s.cv) + " | " + fmt("%.3f", s.balancedness) + " | " +
                 fmt("%.3f", s.jain) + " | " + fmt("%.3f", s.maxvio) + " | " +
                 fmt("%.2f", s.deadFraction) + " | " + fmt("%.2f", s.entropyBits) + " | " +
                 fmt("%.3f", s.entropyNorm) + " | " + hot + " |\n";
        }
    }
    return o;
}

} // namespace

std::string formatText(const SessionReport& rep) {
    std::string o = "Session " + rep.path + " (format v" + std::to_string(rep.schemaVersion) +
                    "), " + std::to_string(rep.runs.size()) + " run(s)\n";
    if (rep.runs.empty()) o += "  (no runs: the capture stopped before it began)\n";
    for (const auto& r : rep.runs)
        o += rep.evalOf(r.run.id) ? evalRunText(r, *rep.evalOf(r.run.id)) : textRun(r);
    return o;
}

std::string formatMarkdown(const SessionReport& rep) {
    std::string o = "# mvprof report: `" + rep.path +
                    "`\n\nTimes and memory are measured; FLOPs and bytes are estimated "
                    "from op shapes; batch sizes and targets are predicted.\n";
    if (rep.runs.empty()) o += "\nThe session holds no runs.\n";
    for (const auto& r : rep.runs) {
        const auto* e = rep.evalOf(r.run.id);
        if (!e)
            o += markdownRun(r);
        else if (e->comparison)
            o += "\n## Run " + std::to_string(r.run.id) + " — " + r.run.label + " (" +
                 toString(r.run.status) + ")\n\n" + formatEvalMarkdown(*e->comparison, e->set.path);
        else
            o += "\n## Run " + std::to_string(r.run.id) + " — " + r.run.label + " (" +
                 toString(r.run.status) + "): eval baseline over `" + e->set.path + "`, accuracy " +
                 fmt("%.3f", e->summary.accuracy.value) + " (measured over " +
                 std::to_string(e->summary.accuracy.items) + " items)\n";
    }
    return o;
}

} // namespace mvp
