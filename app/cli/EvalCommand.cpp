// `mvprof-cli eval`: a model's accuracy over an eval set (capture/run/Eval.h),
// with Wilson intervals overall and per item kind, and the per-item latency.
#include "app/cli/Cancel.h"
#include "app/cli/Commands.h"
#include "app/cli/ModelOptions.h"
#include "capture/run/Eval.h"
#include "core/compare/Intervals.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace mvp::cli {

namespace {

nlohmann::json accuracyJson(const Proportion& p) {
    return {{"value", p.value}, {"ci95", {p.low, p.high}}, {"items", p.items}, {"right", p.right}};
}

Interval itemLatencyMs(const EvalOutcome& o) {
    std::vector<double> ms;
    for (const auto& i : o.items)
        ms.push_back(double(i.ns) / 1e6);
    return medianInterval(ms);
}

void printJson(const EvalOutcome& o, const std::string& set, const CaptureOptions& options) {
    nlohmann::json byKind = nlohmann::json::object();
    for (const auto& k : o.kinds())
        byKind[k] = accuracyJson(o.accuracy(k));
    const Interval latency = itemLatencyMs(o);
    nlohmann::json items = nlohmann::json::array();
    for (const auto& i : o.items)
        items.push_back({{"id", i.id},
                         {"kind", i.kind},
                         {"output", i.output},
                         {"correct", i.correct ? nlohmann::json(*i.correct) : nullptr},
                         {"ms", double(i.ns) / 1e6}});
    const nlohmann::json j{
        {"set", set},
        {"model", options.modelFile.empty() ? options.model : options.modelFile},
        {"items", o.total},
        {"complete", o.complete()},
        {"unanswered", o.unanswered()},
        {"accuracy", accuracyJson(o.accuracy())},
        {"accuracy_by_kind", byKind},
        {"item_ms", {{"median", latency.median}, {"ci95", {latency.low, latency.high}}}},
        {"outputs", items}};
    std::printf("%s\n", j.dump(1).c_str());
}

void printAccuracy(const char* label, const Proportion& p) {
    std::printf("  %-12s %5d items  %.3f [%.3f, %.3f]\n", label, p.items, p.value, p.low, p.high);
}

void printText(const EvalOutcome& o, const std::string& set, const CaptureOptions& options) {
    std::printf("Eval set %s: %zu of %d items%s, %s\n", set.c_str(), o.items.size(), o.total,
                o.complete() ? "" : " (stopped part-way)",
                options.modelFile.empty() ? options.model.c_str() : options.modelFile.c_str());
    std::printf("Accuracy (measured; Wilson 95 %% interval):\n");
    printAccuracy("all", o.accuracy());
    for (const auto& k : o.kinds())
        printAccuracy(k.c_str(), o.accuracy(k));
    if (o.unanswered() > 0)
        std::printf("  %d items have no answer and are not scored\n", o.unanswered());
    const Interval latency = itemLatencyMs(o);
    std::printf("Per item (measured, all phases): median %.2f ms [%.2f, %.2f]\n", latency.median,
                latency.low, latency.high);
}

} // namespace

int evalCommand(const std::vector<std::string>& argv) {
    CommandLine cli("eval",
                    "mvprof-cli eval --set SET.jsonl [--model P | --model-file M] [options] — "
                    "a model's accuracy over an eval set",
                    "Runs every item (docs/eval.md) through one loaded model, unrecorded: the "
                    "output up to EOS is scored against the item's answers (case, surrounding "
                    "punctuation and whitespace ignored; the answer is the first word(s)). "
                    "SIGINT stops between items and reports those done.");
    CaptureOptions o;
    o.steps = 8;
    std::string setPath, format = "text";
    addModelOptions(cli.app, o);
    cli.app.add_option("--set", setPath, "the eval set, a JSONL file [required]");
    cli.app.add_option("--steps", o.steps, "decode steps after prefill (default 8)")
        ->check(atLeast(0));
    cli.app
        .add_option("--threads", o.threads,
                    "libtorch intra-op threads (default: libtorch's choice)")
        ->check(atLeast(0));
    cli.app.add_option("--format", format, "text (default) or json")
        ->check(oneOf({"text", "json"}));
    if (auto exit = cli.parse(argv)) return *exit;
    if (!cli.positional.empty())
        return fail(2, "unexpected argument '" + cli.positional[0] + "' (see --help)");
    if (setPath.empty()) return fail(2, "no eval set: pass --set SET.jsonl");
    auto set = readEvalSet(setPath);
    if (!set) return fail(set.error().exitCode(), set.error().message);
    o.cancel = installCancelHandlers();
    auto outcome = evaluateSet(o, *set);
    if (!outcome) return fail(outcome.error().exitCode(), outcome.error().message);
    if (format == "json")
        printJson(*outcome, setPath, o);
    else
        printText(*outcome, setPath, o);
    if (!outcome->complete()) return fail(1, "stopped before the last item");
    return 0;
}

} // namespace mvp::cli
