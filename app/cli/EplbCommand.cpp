// `mvprof-cli eplb`: DeepSeek's EPLB placement for a run's measured expert
// load, its predicted balancedness before and after, and SGLang's
// --init-expert-location file (core/placement/PlacementPlan.h).
#include "app/cli/Commands.h"
#include "app/cli/Parser.h"
#include "core/analysis/RunData.h"
#include "core/placement/PlacementPlan.h"
#include "core/session/SessionReader.h"

#include <cstdio>
#include <fstream>

namespace mvp::cli {

namespace {
constexpr const char* kFooter =
    R"(Counts each expert's routed tokens per MoE layer (measured), places
--replicas physical slots on --gpus GPUs with DeepSeek's EPLB (hierarchical
when --groups divide among --nodes, global otherwise), and prints each
layer's balancedness (mean ÷ max GPU load) before — SGLang's trivial
placement — and after (derived). --out writes {"physical_to_logical_map": …}
(or with --export counts {"logical_count": …}) for SGLang's
--init-expert-location. docs/placement.md.)";

Result<int64_t> chooseRun(SessionReader& reader, std::optional<int64_t> asked) {
    auto runs = reader.runs();
    if (!runs) return runs.error();
    if (runs->empty()) return makeError(ErrorCode::BadInput, "the session holds no run");
    if (!asked) return runs->back().id;
    for (const auto& r : *runs)
        if (r.id == *asked) return r.id;
    return makeError(ErrorCode::BadInput, "the session has no run " + std::to_string(*asked));
}
} // namespace

int eplbCommand(const std::vector<std::string>& argv) {
    CommandLine cli("eplb",
                    "mvprof-cli eplb SESSION --replicas N --gpus N [options] — an expert "
                    "placement for a run's load",
                    kFooter);
    EplbShape shape;
    std::string phase = "all", modality = "all", out, format = "text", exported = "map";
    int64_t run = 0;
    cli.app.add_option("--replicas", shape.replicas, "physical expert slots in all [required]")
        ->required()
        ->check(atLeast(1));
    cli.app.add_option("--gpus", shape.gpus, "GPUs [required]")->required()->check(atLeast(1));
    cli.app.add_option("--groups", shape.groups, "expert groups (default 1)")->check(atLeast(1));
    cli.app.add_option("--nodes", shape.nodes, "nodes (default 1)")->check(atLeast(1));
    cli.app.add_option("--run", run, "the run whose load to place (default: the last)");
    cli.app.add_option("--phase", phase, "prefill, decode or all (default)")
        ->check(oneOf({"prefill", "decode", "all"}));
    cli.app.add_option("--modality", modality, "visual, text or all (default)")
        ->check(oneOf({"visual", "text", "all"}));
    cli.app.add_option("--out", out, "write SGLang's --init-expert-location JSON here");
    cli.app
        .add_option("--export", exported,
                    "what --out holds: map (default: physical_to_logical_map, this placement) "
                    "or counts (logical_count, the measured load, for SGLang to place itself)")
        ->check(oneOf({"map", "counts"}));
    cli.app.add_option("--format", format, "text (default) or json (the placement file's content)")
        ->check(oneOf({"text", "json"}));
    if (auto exit = cli.parse(argv)) return *exit;
    if (cli.positional.size() != 1)
        return fail(2, "eplb needs exactly one session file (see --help)");

    auto reader = SessionReader::open(cli.positional[0]);
    if (!reader) return fail(reader.error().exitCode(), reader.error().message);
    auto id = chooseRun(**reader, cli.given("--run") ? std::optional(run) : std::nullopt);
    if (!id) return fail(2, id.error().message);
    auto data = loadRunData(**reader, *id);
    if (!data) return fail(data.error().exitCode(), data.error().message);
    LoadFilter filter;
    if (phase != "all") filter.phase = phaseFromString(phase);
    if (modality != "all") filter.modality = modalityFromString(modality);
    auto plan = planPlacement(expertLoadOf(data->routing, data->experts, filter), shape);
    if (!plan)
        return fail(2, "run " + std::to_string(*id) + ": " + plan.error().message);
    const std::string json =
        exported == "counts" ? sglangLogicalCountJson(plan->load) : sglangPlacementJson(*plan);
    if (!out.empty()) {
        std::ofstream f(out, std::ios::binary | std::ios::trunc);
        if (!(f << json) || !f.flush()) return fail(2, "could not write " + out);
    }
    const std::string text = format == "json" ? json : formatPlanText(*plan);
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (!out.empty() && format == "text") std::printf("Wrote %s\n", out.c_str());
    return 0;
}

} // namespace mvp::cli
