#!/usr/bin/python3
"""A user's TorchScript VLM-MoE with a role manifest: routing, modality and
attention as PyTorch computes them.

The model is the example's Mixtral-layout decoder
(capture/models/examples/torchvision_vlm.py: experts and router are ordinary
modules, attention is an explicit softmax) behind a small conv vision tower,
scripted. After
mvprof-cli captures it through --model-file with a manifest naming its
roles, the test re-runs the same weights eagerly on the inputs the session
stored (token ids and the projector's output) and checks that:
- every routing row equals PyTorch's softmax → top-k of the router's logits
  (expert ids exactly, weights renormalised over k within 1e-5), for the
  prefill and for each decode step's new token;
- visual positions carry modality "visual" and their patch, text "text";
- the stored attention heatmap equals each text query's mean-over-heads
  probability on each visual position, summed (prefill and decode);
- the JSON report's MoE section has the built-in model's layout, and the
  attention heatmap exports;
- a manifest whose pattern matches no module is refused, naming the pattern
  and the closest module paths.
Run by CTest with Debian's /usr/bin/python3.
"""

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from typing import Dict, List, Tuple

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.environ.get("MVP_SOURCE_DIR", os.path.join(
    os.path.dirname(__file__), "..", "..")), "capture", "models", "examples"))
from torchvision_vlm import EXPERTS, LAYERS, ROLES, TOP_K, Vlm, save  # noqa: E402
from session_rows import patch_rows, routing_rows  # noqa: E402

PATCH, IMAGE = 32, 224
PROMPT = "What is this?"
STEPS = 3


class Vision(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.patch = nn.Conv2d(3, 48, PATCH, stride=PATCH)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        return self.patch(pixels).flatten(2).transpose(1, 2)[0]  # [49, 48]


def write_model(folder: str, roles: Dict[str, str]) -> Tuple[Vlm, str]:
    torch.manual_seed(0)
    model = Vlm(Vision(), 48).eval()
    return model, save(model, folder, "moe-vlm", PATCH, roles)


def cli(args: argparse.Namespace, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([args.cli, *argv], capture_output=True, text=True, check=check)


def session_rows(path: str):
    with sqlite3.connect(path) as db:
        tokens = db.execute("SELECT position, phase, step, modality, token_id, patch FROM token"
                            " ORDER BY position").fetchall()
        routing = routing_rows(db)
        rows, cols, blob = db.execute("SELECT rows, cols, data FROM vision_feature").fetchone()
        metrics = {m: patch_rows(db, m) for m in ("attention", "answer_attention")}
        chosen = [t for (t,) in db.execute("SELECT token FROM step_output ORDER BY step")]
    visual = torch.frombuffer(bytearray(blob), dtype=torch.float32).view(rows, cols)
    return tokens, routing, visual, metrics, chosen


EOS = 257  # the byte tokenizer's (capture/config/Config.h)


def answer_steps(chosen: List[int]) -> int:
    """The decode passes whose queries generated the answer: up to its EOS."""
    return chosen.index(EOS) if EOS in chosen else max(0, len(chosen) - 1)


def expected_rows(model: Vlm, tokens, visual: torch.Tensor, answer_passes: int):
    """PyTorch's own routing, attention and answer attention (the prefill's
    last query, then the first `answer_passes` decode passes' queries) for the
    stored inputs, pass by pass."""
    patches = visual.shape[0]
    first = 1  # visual tokens follow BOS
    text = [t for t in tokens if t[3] == "text"]
    prefill_ids = [t[4] for t in text if t[1] == "prefill"]
    decode_ids = [t[4] for t in text if t[1] == "decode"]
    routing: Dict[Tuple[int, int], Tuple[List[int], List[float]]] = {}
    attention = torch.zeros(LAYERS, patches, dtype=torch.float64)
    answer = torch.zeros(LAYERS, patches, dtype=torch.float64)
    captured: Dict[int, torch.Tensor] = {}
    attn_in: Dict[int, torch.Tensor] = {}
    hooks = []
    for l, block in enumerate(model.llm.blocks):
        hooks.append(block.moe.gate.register_forward_hook(
            lambda m, i, o, l=l: captured.__setitem__(l, o.detach())))
        hooks.append(block.attn.register_forward_pre_hook(
            lambda m, i, l=l: attn_in.__setitem__(l, i[0].detach())))
    with torch.inference_mode():
        for step in range(len(decode_ids) + 1):
            ids = prefill_ids + decode_ids[:step]
            model(torch.tensor(ids), visual, first)
            seq = len(ids) + patches
            new = range(seq) if step == 0 else [seq - 1]
            for l in range(LAYERS):
                probs = torch.softmax(captured[l], dim=-1)
                w, e = probs.topk(TOP_K, dim=-1)
                w = w / w.sum(-1, keepdim=True)
                for pos in new:
                    routing[(l, pos)] = (e[pos].tolist(), w[pos].tolist())
                p = model.llm.blocks[l].attn.probs(attn_in[l]).double().mean(0)  # [T, T]
                for q in new:
                    if not first <= q < first + patches:
                        attention[l] += p[q, first:first + patches]
                if step <= answer_passes:
                    answer[l] += p[seq - 1, first:first + patches]
    for h in hooks:
        h.remove()
    return routing, attention, answer


def check(args: argparse.Namespace, folder: str) -> List[str]:
    failures: List[str] = []
    model, manifest = write_model(folder, ROLES)
    session = os.path.join(folder, "run.mvprof")
    cli(args, "capture", "--model-file", manifest, "--image", args.image, "--prompt", PROMPT,
        "--steps", str(STEPS), "--out", session)
    tokens, routing, visual, metrics, chosen = session_rows(session)
    patches = visual.shape[0]
    if patches != (IMAGE // PATCH) ** 2:
        failures.append(f"{patches} visual tokens stored")
    for pos, phase, step, modality, token_id, patch in tokens:
        is_visual = 1 <= pos <= patches
        if modality != ("visual" if is_visual else "text") or (is_visual and patch != pos - 1):
            failures.append(f"token {pos}: {modality}, patch {patch}")

    expected, attention, answer = expected_rows(model, tokens, visual, answer_steps(chosen))
    seen = {}
    for layer, phase, step, token, modality, rank, expert, weight in routing:
        seen.setdefault((layer, token), ([], []))
        seen[(layer, token)][0].append(expert)
        seen[(layer, token)][1].append(weight)
        if modality != ("visual" if 1 <= token <= patches else "text"):
            failures.append(f"routing row layer {layer} token {token}: modality {modality}")
    if set(seen) != set(expected):
        failures.append(f"routing rows for {len(seen)} (layer, token) pairs, PyTorch routed "
                        f"{len(expected)}")
    for key, (experts, weights) in expected.items():
        got = seen.get(key)
        if not got or got[0] != experts or any(abs(a - b) > 1e-5 for a, b in zip(got[1], weights)):
            failures.append(f"layer {key[0]} token {key[1]}: mvprof {got}, PyTorch "
                            f"{(experts, weights)}")
    print(f"  routing: {len(routing)} rows, {len(expected)} tokens × layers checked")

    for name, reference in (("attention", attention), ("answer_attention", answer)):
        stored = torch.zeros(LAYERS, patches, dtype=torch.float64)
        for layer, patch, value in metrics[name]:
            stored[layer, patch] = value
        err = (stored - reference).abs().max().item()
        print(f"  {name}: max |mvprof − PyTorch| = {err:.2e} over {LAYERS}×{patches} patches")
        if not metrics[name] or err > 1e-5:
            failures.append(f"{name} heatmap differs from PyTorch's by {err}")

    report = json.loads(cli(args, "report", session, "--format", "json").stdout)
    layers = report["runs"][0]["moe"]["layers"]
    ref = os.path.join(folder, "ref.mvprof")
    cli(args, "capture", "--model", "ref:tiny", "--image", args.image, "--steps", "1",
        "--out", ref)
    ref_layers = json.loads(cli(args, "report", ref, "--format", "json").stdout)["runs"][0][
        "moe"]["layers"]
    if len(layers) != LAYERS or set(layers[0]) != set(ref_layers[0]):
        failures.append(f"MoE section: {len(layers)} layers, keys {sorted(layers[0]) if layers else []}")
    heat = os.path.join(folder, "heat.png")
    r = cli(args, "export", session, "--heatmap", heat, "--metric", "attention", check=False)
    if r.returncode != 0 or not os.path.getsize(heat):
        failures.append("attention heatmap export: " + r.stderr.strip())

    # Expert modules found under their MoE block although TorchScript reports
    # a ModuleList loop's callees without their outer frames.
    with sqlite3.connect(session) as db:
        experts = db.execute("SELECT path, layer, expert FROM module WHERE run=1 AND"
                             " role='expert' ORDER BY layer, expert").fetchall()
    want = [(f"llm.blocks.{l}.moe.experts.{e}", l, e) for l in range(LAYERS) for e in range(EXPERTS)]
    if experts != want:
        failures.append(f"expert modules {experts}")
    if not report["runs"][0]["moe"]["gate_vs_expert"]:
        failures.append("no gate-vs-expert times")
    failures += check_observer_scope(args, session, folder)

    failures += check_quantisation(args, session, model)
    failures += check_eval(args, session, folder, model, manifest)

    # A pattern that matches nothing is refused before anything is written.
    _, bad = write_model(folder, dict(ROLES, router=r"\.moe\.router$"))
    out = os.path.join(folder, "bad.mvprof")
    r = cli(args, "capture", "--model-file", bad, "--image", args.image, "--out", out,
            check=False)
    if r.returncode != 2 or "roles.router" not in r.stderr or "moe.gate" not in r.stderr \
            or os.path.exists(out):
        failures.append(f"unmatched pattern: exit {r.returncode}, {r.stderr.strip()}")
    print("  unmatched pattern:", r.stderr.strip())
    return failures


def observed_ops(session: str) -> Tuple[float, int]:
    """capture.observed_ops of the session's first run, and its recorded ops."""
    with sqlite3.connect(session) as db:
        observed = db.execute("SELECT value FROM run_metric WHERE run=1 AND"
                              " name='capture.observed_ops'").fetchone()
        recorded = db.execute("SELECT SUM(rows) FROM op_chunk WHERE run=1").fetchone()[0]
    return (observed[0] if observed else -1.0), recorded


def check_observer_scope(args: argparse.Namespace, session: str, folder: str) -> List[str]:
    """The role observer reads the outputs of the ops inside router and
    attention modules only: some on the model with them, none on the same
    model whose manifest names neither role."""
    failures: List[str] = []
    observed, recorded = observed_ops(session)
    print(f"  observer: {observed:.0f} of {recorded} ops read")
    if not 0 < observed < recorded / 2:
        failures.append(f"observer read {observed} of {recorded} ops")
    roles = {k: v for k, v in ROLES.items() if k not in ("router", "attention")}
    os.makedirs(os.path.join(folder, "unwatched"))
    _, manifest = write_model(os.path.join(folder, "unwatched"), roles)
    out = os.path.join(folder, "unwatched.mvprof")
    cli(args, "capture", "--model-file", manifest, "--image", args.image, "--prompt", PROMPT,
        "--steps", "1", "--out", out)
    observed, recorded = observed_ops(out)
    print(f"  observer without router and attention roles: {observed:.0f} of {recorded} ops read")
    if observed != 0:
        failures.append(f"observer read {observed} of {recorded} ops without watched roles")
    return failures


def check_eval(args: argparse.Namespace, session: str, folder: str, model: Vlm,
               manifest: str) -> List[str]:
    """An eval what-if (W8 over 8 generated scenes) on the TorchScript model:
    every item's row stored for the baseline and the what-if, in one
    process; the JSON's accuracy is the stored rows' share right, and the
    what-if's rows carry fidelity against the baseline's items. Each item
    and arm has its answer_attention heatmap on the model's grid; the
    baseline's first equals PyTorch's, summed over layers, for a capture of
    that item's image and prompt."""
    failures: List[str] = []
    scenes = os.path.join(folder, "scenes")
    cli(args, "make-set", "--n", "8", "--out", scenes)
    r = cli(args, "whatif", session, "--eval", os.path.join(scenes, "set.jsonl"), "--quant",
            "w8", "--format", "json", check=False)
    if r.returncode != 0:
        return [f"eval what-if on the TorchScript model: exit {r.returncode}, {r.stderr.strip()}"]
    c = json.loads(r.stdout)
    with sqlite3.connect(session) as db:
        runs = [row[0] for row in db.execute("SELECT run FROM eval_set ORDER BY run")]
        if len(runs) != 2:
            return [f"eval runs stored: {runs}"]
        setups = {setup["run"]: setup for setup in c["setups"]}
        for role, run in zip(("baseline", "whatif"), runs):
            rows = db.execute("SELECT correct, kl_mean, output FROM eval_item WHERE run=?"
                              " ORDER BY item", (run,)).fetchall()
            right = sum(1 for correct, _, _ in rows if correct == 1)
            setup = setups.get(run, {})
            accuracy = setup.get("accuracy") if setup.get("role") == role else None
            if len(rows) != 8 or accuracy is None or accuracy["items"] != 8 \
                    or abs(accuracy["value"] - right / 8) > 1e-12:
                failures.append(f"eval run {run}: {len(rows)} rows, {right} right, JSON {accuracy}")
            if role == "whatif" and any(kl is None or kl < 0 for _, kl, _ in rows):
                failures.append(f"eval what-if rows without fidelity: {rows}")
        heatmaps = db.execute("SELECT run, item, image, grid_h, grid_w, answer_attention"
                              " FROM eval_item_heatmap ORDER BY run, item").fetchall()
    side = IMAGE // PATCH
    if [(run, item) for run, item, *_ in heatmaps] != [(r, i) for r in runs for i in range(8)] \
            or any((h, w, len(blob)) != (side, side, side * side * 4)
                   for _, _, _, h, w, blob in heatmaps):
        failures.append(f"eval heatmaps: {[(run, item, h, w) for run, item, _, h, w, _ in heatmaps]}")
    else:
        failures += check_item_heatmap(args, folder, model, manifest, scenes, heatmaps[0])
    print(f"  eval W8: runs {runs}, 8 items and {len(heatmaps)} heatmaps stored")
    return failures


def check_item_heatmap(args: argparse.Namespace, folder: str, model: Vlm, manifest: str,
                       scenes: str, heatmap) -> List[str]:
    """The eval baseline's heatmap of item 0 against PyTorch's answer
    attention, summed over layers, on the inputs a capture of that item's
    image and prompt stores."""
    _, item, image, _, _, blob = heatmap
    with open(os.path.join(scenes, "set.jsonl")) as f:
        first = json.loads(f.readline())
    one = os.path.join(folder, "item0.mvprof")
    cli(args, "capture", "--model-file", manifest, "--image", image, "--prompt",
        first["prompt"], "--steps", str(STEPS), "--out", one)
    tokens, _, visual, _, chosen = session_rows(one)
    _, _, answer = expected_rows(model, tokens, visual, answer_steps(chosen))
    stored = torch.frombuffer(bytearray(blob), dtype=torch.float32).double()
    err = (stored - answer.sum(0)).abs().max().item()
    print(f"  eval item {item} heatmap: max |mvprof − PyTorch| = {err:.2e}")
    if os.path.realpath(image) != os.path.realpath(os.path.join(scenes, first["image"])) \
            or err > 1e-5:
        return [f"eval item heatmap of {image} differs from PyTorch's by {err}"]
    return []


def check_quantisation(args: argparse.Namespace, session: str, model: Vlm) -> List[str]:
    """W8 of the LLM's linears: stored as a what-if with measured fidelity and
    the format's exact size; other what-ifs are refused, writing nothing."""
    failures: List[str] = []
    r = cli(args, "whatif", session, "--quant", "w8", "--group", "32", "--format", "json")
    c = json.loads(r.stdout)
    # Every Linear of the LLM but the routers, which stay in float32.
    routers = {id(b.moe.gate) for b in model.llm.blocks}
    linears = [m for m in model.llm.modules() if isinstance(m, nn.Linear) and id(m) not in routers]
    # Per row: one byte per value (padded to the group) and a float16 scale
    # and minimum per group of 32.
    size = sum(m.out_features * (-(-m.in_features // 32) * (32 + 4)) for m in linears)
    details = c["transform_details"]
    if details["quant.layers"]["value"] != len(linears):
        failures.append(f"quantised {details['quant.layers']['value']} of {len(linears)} linears")
    if details["quant.bytes"]["value"] != size:
        failures.append(f"W8 size {details['quant.bytes']['value']}, the format's is {size}")
    fid = c["fidelity_measured"]
    if not (0 <= fid["kl_mean"] < 0.1 and fid["steps"] == STEPS + 1 and fid["top1_agreement"] > 0.5):
        failures.append(f"W8 fidelity {fid}")
    if "whatif" not in c["latency_ms_predicted"] or c["latency_ms_measured"]["whatif"] <= 0:
        failures.append(f"W8 latency {c['latency_ms_measured']}, {c['latency_ms_predicted']}")
    print(f"  W8: {len(linears)} linears, {size} bytes, KL {fid['kl_mean']:.2e}, "
          f"top-1 {fid['top1_agreement']:.2f}")
    with sqlite3.connect(session) as db:
        before = db.execute("SELECT COUNT(*) FROM run").fetchone()[0]
    for flag in (["--kv", "int4"], ["--freeze-cold"], ["--prune-visual", "0.5"],
                 ["--fastv", "0.5"], ["--pdrop", "0.5"], ["--dart", "16"], ["--visionzip", "16"],
                 ["--tome", "4"], ["--downsample", "16"], ["--kv-method", "h2o"]):
        r = cli(args, "whatif", session, *flag, check=False)
        if r.returncode != 2 or "user model" not in r.stderr or "\n" in r.stderr.strip():
            failures.append(f"whatif {flag[0]} on a user model: exit {r.returncode}, {r.stderr}")
    with sqlite3.connect(session) as db:
        if db.execute("SELECT COUNT(*) FROM run").fetchone()[0] != before:
            failures.append("a refused what-if wrote a run")
    return failures


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.environ.get("MVP_CLI"))
    ap.add_argument("--image", default=os.environ.get("MVP_SAMPLE_IMAGE"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        failures = check(args, folder)
    for f in failures[:20]:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
