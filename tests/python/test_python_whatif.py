#!/usr/bin/python3
"""What-ifs of the mvprof Python package on the runnable example
(capture/python/examples/llava_moe.py: torchvision's VisionTransformer, a
Mixtral-layout MoE decoder with a KV cache), each checked against PyTorch:

- W8 (quantize_dynamic): the what-if ran torch's int8 kernels (one
  quantized::linear_dynamic op per quantised Linear call, counted by the
  test's hooks); the comparison's KL and top-1 agreement equal the ones the
  test computes from the logits both runs returned; the weight bytes equal
  the float32 model's parameter bytes with each quantised weight at one byte
  (plus its scale and zero point);
- W4: the stored quantised size equals the format's (4-bit codes, float16
  scale and minimum per group of 128), the latency is predicted and the
  fidelity equals the test's;
- FreezeCold: the experts frozen follow the windows rule over the baseline's
  routing (recomputed here), and the what-if's routing equals PyTorch's
  top-k of the router logits with those experts masked: no token reaches a
  frozen expert;
- PruneVisual: the visual tokens kept are the round(0.4·N) projector rows of
  largest L2 norm (torch.norm here), and their features are the baseline's;
- the attention heatmap of this KV-cache model equals the mass PyTorch's
  softmax put on the visual positions, per layer;
- PruneVisual's resampling loss (run=): 0 when every token is kept, 0 at
  layer 0 under pruning, and per layer the Δcos the test computes itself
  from what each attention module read;
- A/B repetitions (reps=, run=): the stored rows per arm, rep and phase with
  the noise-control phases marked, the comparison's intervals built on
  them, and a hook-only transform (PruneVisual) applied to the what-if's
  passes alone;
- refusals: no llm role for W8, a what-if into another session, the CLI's
  whatif on a Python run;
- mvprof-cli launch: progress lines and a done event, a failing script
  (exit 1, what it wrote kept), a script that writes nothing (exit 2), and
  SIGTERM mid-run (the run kept as incomplete).
Run by CTest with Debian's /usr/bin/python3.
"""

import copy
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
from typing import Dict, List, Set, Tuple

import torch
import torch.nn.functional as F

sys.path.insert(0, os.environ["MVP_PYTHON_DIR"])
sys.path.insert(0, os.path.join(os.environ["MVP_SOURCE_DIR"], "capture", "python", "examples"))
import mvprof  # noqa: E402
from session_rows import patch_rows, routing_rows  # noqa: E402
import llava_moe as example  # noqa: E402

STEPS = 3
PROMPT = "What is this?"
IMAGE = os.environ["MVP_SAMPLE_IMAGE"]
CLI = os.environ["MVP_CLI"]
failures: List[str] = []


def check(ok: bool, what: str) -> None:
    if not ok:
        failures.append(what)


class Spy:
    """A Profile that also keeps the logits each pass returned."""

    def __init__(self, prof) -> None:
        self.prof, self.logits = prof, []

    def __getattr__(self, name):
        return getattr(self.prof, name)

    def output(self, logits, token=None):
        self.logits.append(logits.detach().reshape(-1)[-example.VOCAB:].double().clone())
        return self.prof.output(logits, token)


def run(prof) -> Spy:
    spy = Spy(prof)
    example.generate(spy, prof.model, IMAGE, PROMPT, STEPS)
    return spy


def warmup(p) -> None:
    example.generate(p, p.model, IMAGE, PROMPT, STEPS)


def diff(session: str, run: int) -> dict:
    out = subprocess.run([CLI, "diff", session, "1", str(run), "--format", "json"],
                         capture_output=True, text=True)
    check(out.returncode == 0, f"diff 1 {run}: {out.stderr}")
    return json.loads(out.stdout) if out.returncode == 0 else {}


def check_fidelity(name: str, c: dict, base: List[torch.Tensor], other: List[torch.Tensor]) -> None:
    """mvprof's KL(baseline ‖ what-if) and top-1 agreement against torch's."""
    kls = [float(F.kl_div(F.log_softmax(b2, -1), F.log_softmax(b1, -1), log_target=True,
                          reduction="sum")) for b1, b2 in zip(base, other)]
    agree = sum(int(b1.argmax()) == int(b2.argmax()) for b1, b2 in zip(base, other)) / len(base)
    f = c.get("fidelity_measured", {})
    if not isinstance(f, dict):
        failures.append(f"{name}: no fidelity ({f})")
        return
    mean = sum(kls) / len(kls)
    print(f"  {name}: KL mean mvprof {f['kl_mean']:.6g}, torch {mean:.6g}; top-1 "
          f"{f['top1_agreement']:.2f} vs {agree:.2f}")
    check(f["steps"] == STEPS + 1, f"{name}: {f['steps']} fidelity steps")
    check(abs(f["kl_mean"] - mean) <= 1e-4 * mean + 1e-7, f"{name}: KL {f['kl_mean']} vs {mean}")
    check(abs(f["top1_agreement"] - agree) < 1e-9, f"{name}: top-1 {f['top1_agreement']}")


def check_w8(session: str, model, base: Spy) -> None:
    calls = [0]
    with mvprof.whatif(base.prof, model, mvprof.W8(), warmup=warmup) as w:
        quantised = [m for m in w.model.modules()
                     if isinstance(m, torch.ao.nn.quantized.dynamic.Linear)]
        hooks = [m.register_forward_hook(lambda *a: calls.__setitem__(0, calls[0] + 1))
                 for m in quantised]
        spy = run(w)
    for h in hooks:
        h.remove()
    ops = sqlite3.connect(session).execute(
        "SELECT COALESCE(SUM(calls), 0) FROM op_total WHERE run=?"
        " AND name='quantized::linear_dynamic'",
        (w.run_id,)).fetchone()[0]
    print(f"  w8: {len(quantised)} int8 Linear layers, {calls[0]} calls, {ops} int8 op rows")
    check(len(quantised) > 0 and ops == calls[0], f"w8: {ops} int8 ops for {calls[0]} calls")
    c = diff(session, w.run_id)
    fp32 = sum(p.numel() * 4 for p in model.parameters())
    want = fp32 - sum(m.in_features * m.out_features * 3 - 12 for m in quantised)
    got = c.get("weight_bytes_measured", {})
    print(f"  w8: weight bytes {got}, expected what-if {want}")
    check(got.get("baseline") == fp32 and got.get("whatif") == want, f"w8 weight bytes {got}")
    check(c.get("latency_ms_measured", {}).get("whatif", 0) > 0, "w8: no measured latency")
    check("latency_ms_predicted" not in c, "w8 runs int8 kernels: nothing to predict")
    check_fidelity("w8", c, base.logits, spy.logits)


def check_w4(session: str, model, base: Spy) -> None:
    with mvprof.whatif(base.prof, model, mvprof.W4(group=128), warmup=warmup) as w:
        spy = run(w)
    c = diff(session, w.run_id)
    want = 0
    for path, m in model.named_modules():
        if isinstance(m, torch.nn.Linear) and path.startswith("language_model.") \
                and not path.endswith(".gate"):
            n = m.in_features
            group = min(128, n + n % 2)
            groups = math.ceil(n / group)
            want += m.out_features * (groups * group // 2 + groups * 4)
    got = c.get("transform_details", {}).get("quant.bytes", {}).get("value")
    print(f"  w4: quantised bytes {got}, format's {want}; predicted "
          f"{c.get('latency_ms_predicted', {}).get('whatif')} ms")
    check(got == want, f"w4: quant.bytes {got}, expected {want}")
    check("latency_ms_predicted" in c, "w4: no predicted latency")
    check_fidelity("w4", c, base.logits, spy.logits)


def cold_candidates(rows: List[Tuple[int, int, int]], window: int, minimum: int,
                    experts: int) -> Dict[int, Set[int]]:
    """The windows rule over (layer, token, expert) rows."""
    out: Dict[int, Set[int]] = {}
    for layer in sorted({r[0] for r in rows}):
        tokens = sorted({r[1] for r in rows if r[0] == layer})
        index = {t: i for i, t in enumerate(tokens)}
        windows = len(tokens) // window
        counts = [[0] * experts for _ in range(windows)]
        for l, t, e in rows:
            if l == layer and index[t] // window < windows:
                counts[index[t] // window][e] += 1
        out[layer] = {e for e in range(experts) for w in range(windows - 1)
                      if counts[w][e] < minimum and counts[w + 1][e] < minimum}
    return out


def check_freeze(session: str, model, base: Spy) -> None:
    db = sqlite3.connect(session)
    rows = [(layer, token, expert)
            for layer, _, _, token, _, _, expert, _ in routing_rows(db, base.run_id)]
    candidates = cold_candidates(rows, 32, 3, example.EXPERTS)
    seen: List[Tuple[int, torch.Tensor]] = []
    hooks = [layer.block_sparse_moe.gate.register_forward_hook(
        lambda m, i, o, l=n: seen.append((l, o.detach().clone())))
        for n, layer in enumerate(model.language_model.layers)]
    transform = mvprof.FreezeCold(window=32, min_activations=3)
    with mvprof.whatif(base.prof, model, transform) as w:
        run(w)
    for h in hooks:
        h.remove()
    frozen = transform.frozen
    print(f"  freeze-cold: frozen {frozen}, rule's candidates {candidates}")
    check(sum(map(len, frozen.values())) > 0, "freeze-cold froze nothing")
    for layer, experts in frozen.items():
        check(set(experts) <= candidates.get(layer, set()) and
              len(experts) == min(len(candidates[layer]), example.EXPERTS - example.TOP_K),
              f"freeze-cold layer {layer}: {experts} vs candidates {candidates.get(layer)}")
    got: Dict[Tuple[int, int], List[int]] = {}
    for layer, _, _, token, _, _, expert, _ in routing_rows(db, w.run_id):
        got.setdefault((layer, token), []).append(expert)
        check(expert not in frozen.get(layer, []), f"token {token} sent to frozen expert "
                                                   f"{expert} of layer {layer}")
    want: Dict[Tuple[int, int], List[int]] = {}
    offsets: Dict[int, int] = {}
    for layer, logits in seen:
        masked = logits.clone()
        masked[..., frozen.get(layer, [])] = float("-inf")
        chosen = torch.softmax(masked, -1).topk(example.TOP_K, -1).indices
        start = offsets.get(layer, 0)
        for row in range(chosen.shape[0]):
            want[(layer, start + row)] = chosen[row].tolist()
        offsets[layer] = start + chosen.shape[0]
    check(got == want, f"freeze-cold routing: {len(got)} vs PyTorch's {len(want)} "
                       f"(first differences {[k for k in want if got.get(k) != want[k]][:4]})")


def check_prune(session: str, model, base: Spy, features: torch.Tensor) -> None:
    with mvprof.whatif(base.prof, model, mvprof.PruneVisual(keep=0.4)) as w:
        run(w)
    k = round(0.4 * features.shape[0])
    want = sorted(features.norm(dim=-1).topk(k).indices.tolist())
    got = [p for (p,) in sqlite3.connect(session).execute(
        "SELECT patch FROM token WHERE run=? AND modality='visual' ORDER BY position",
        (w.run_id,))]
    c = diff(session, w.run_id)
    cosine = c.get("fidelity_measured", {}).get("vision_cosine")
    print(f"  prune-visual: {len(got)} of {features.shape[0]} tokens kept; cosine {cosine}")
    check(got == want, f"prune-visual kept {got[:8]}…, torch's top-{k} {want[:8]}…")
    check(c.get("visual_tokens") == {"baseline": features.shape[0], "whatif": k},
          f"visual tokens {c.get('visual_tokens')}")
    check(cosine is not None and abs(cosine - 1.0) < 1e-5, f"vision cosine {cosine}")


def attention_inputs(model, transform=None) -> Dict[int, torch.Tensor]:
    """The test's own reading: per decoder layer, what its self_attn reads
    in prefill (its first call), with `transform` pruning the projector's output."""
    seen: Dict[int, torch.Tensor] = {}

    def keep(layer: int):
        def hook(module, args) -> None:
            seen.setdefault(layer, args[0].detach().clone())
        return hook
    hooks = [layer.self_attn.register_forward_pre_hook(keep(l))
             for l, layer in enumerate(model.language_model.layers)]
    marks = mvprof.NullProfile(model)
    if transform is not None:
        hooks.append(model.multi_modal_projector.register_forward_hook(
            lambda m, i, out: transform.on_projector(marks, "multi_modal_projector", out)))
    try:
        example.generate(marks, model, IMAGE, PROMPT, 1)
    finally:
        for h in hooks:
            h.remove()
    return seen


def check_resampling(session: str, model, base: Spy) -> None:
    """PruneVisual's resampling loss (run= given): 0 when every token is
    kept; under pruning 0 at layer 0 (its attention reads the kept tokens'
    own embeddings), and at every layer the mean 1 − cos(v, v′) the test
    computes itself from what each self_attn read."""
    def metrics(run_id: int) -> Dict[str, float]:
        return dict(sqlite3.connect(session).execute(
            "SELECT name, value FROM run_metric WHERE run=? AND name LIKE 'resample.L%'",
            (run_id,)).fetchall())

    with mvprof.whatif(base.prof, model, mvprof.PruneVisual(keep=1.0), run=warmup) as w:
        run(w)
    same = metrics(w.run_id)
    print(f"  resampling, keep all: {len(same)} figures, largest "
          f"{max(same.values(), default=float('nan')):.2e}")
    check(len(same) == 7 * example.LAYERS, f"resampling figures {sorted(same)[:8]}")
    check(all(abs(v) < 1e-6 for v in same.values()), f"keep-all resampling loss {same}")

    prune = mvprof.PruneVisual(keep=0.4)
    with mvprof.whatif(base.prof, model, prune, run=warmup) as w:
        run(w)
    got = metrics(w.run_id)
    kept = [p for (p,) in sqlite3.connect(session).execute(
        "SELECT patch FROM token WHERE run=? AND modality='visual' ORDER BY position",
        (w.run_id,))]
    a = attention_inputs(model)
    b = attention_inputs(model, mvprof.PruneVisual(keep=0.4))
    for layer in range(example.LAYERS):
        v = a[layer][1:][torch.tensor(kept)].double()
        v2 = b[layer][1:1 + len(kept)].double()
        want = float((1 - F.cosine_similarity(v, v2, dim=-1)).mean())
        have = got.get(f"resample.L{layer}.dcos_mean", float("nan"))
        print(f"  resampling L{layer}: dcos {have:.3e} (test {want:.3e}), "
              f"kl {got.get(f'resample.L{layer}.kl_mean', float('nan')):.3e}, "
              f"lost {got.get(f'resample.L{layer}.lost_mass', float('nan')):.3f}")
        check(abs(have - want) < 1e-5 + 1e-3 * want, f"L{layer} dcos {have} vs torch's {want}")
        check(got.get(f"resample.L{layer}.lost_mass", 0) > 0, f"L{layer} no attention lost")
    check(got.get("resample.L0.dcos_mean", 1) < 1e-6, "layer 0 drifted under pruning")
    check(got.get(f"resample.L{example.LAYERS - 1}.dcos_mean", 0) > 1e-6,
          "the last layer did not drift under pruning")


def check_repetitions(session: str, model, base: Spy) -> None:
    """A/B repetitions from Python: N interleaved unrecorded passes of each
    setup stored with the what-if, the comparison's intervals built on them;
    a hook-only transform acts on the what-if's passes alone."""
    with mvprof.whatif(base.prof, model, mvprof.W8(), warmup=warmup, reps=3, run=warmup) as w:
        run(w)
    rows = sqlite3.connect(session).execute(
        "SELECT arm, rep, phase, ns, control FROM repetition WHERE run=?", (w.run_id,)).fetchall()
    phases = {r[2] for r in rows}
    control = {r[2]: r[4] for r in rows}
    print(f"  repetitions: {len(rows)} rows, phases {sorted(phases)}, control {control}")
    check(len(rows) == 3 * 2 * len(phases) and {"vision", "prefill", "decode"} <= phases,
          f"repetition rows {len(rows)} for phases {phases}")
    check(control.get("vision") == 1 and control.get("prefill") == 0 and
          control.get("decode") == 0, f"control phases {control}")
    check(all(r[3] > 0 for r in rows), "a repetition without time")
    c = diff(session, w.run_id)
    decode = next((p for p in c.get("phases", []) if p["phase"] == "decode"), {})
    check(decode.get("baseline", {}).get("reps") == 3 and
          isinstance(decode.get("within_noise"), bool) and len(decode["speedup"]["ci95"]) == 2,
          f"decode A/B entry {decode}")
    check(c.get("timing_method", "").startswith("A/B"), f"timing method {c.get('timing_method')}")

    class CountingPrune(mvprof.PruneVisual):
        timed = 0

        def on_projector(self, prof, path, output):
            if type(prof).__name__ == "TimedPass":
                CountingPrune.timed += 1
            return super().on_projector(prof, path, output)

    with mvprof.whatif(base.prof, model, CountingPrune(keep=0.4), reps=2, run=warmup) as w:
        run(w)
    print(f"  repetitions: pruning applied in {CountingPrune.timed} timed passes")
    check(CountingPrune.timed == 3, f"pruning in {CountingPrune.timed} timed passes, not the "
          "what-if's warm-up and two repetitions")
    try:
        mvprof.whatif(base.prof, model, mvprof.W8(), reps=2)
        check(False, "reps without run= accepted")
    except mvprof.MvprofError as e:
        check("run=" in str(e), f"reps without run: {e}")


def check_attention(folder: str, model) -> None:
    """The attention heatmap of a KV-cache model: per layer, each new text
    query's mean-over-heads softmax mass on each visual position, summed — as
    PyTorch's softmax computed it (seen by wrapping torch.softmax)."""
    softmax, layer_now, seen = torch.softmax, [None], []

    def spy(x, dim, *args, **kwargs):
        out = softmax(x, dim, *args, **kwargs)
        if layer_now[0] is not None:
            seen.append((layer_now[0], out.detach()))
        return out

    hooks = []
    for n, layer in enumerate(model.language_model.layers):
        hooks.append(layer.self_attn.register_forward_pre_hook(
            lambda m, i, n=n: layer_now.__setitem__(0, n)))
        hooks.append(layer.self_attn.register_forward_hook(
            lambda m, i, o: layer_now.__setitem__(0, None)))
    session = os.path.join(folder, "attention.mvprof")
    torch.softmax = spy
    try:
        with torch.inference_mode(), mvprof.profile(session, model, image=IMAGE, force=True) as p:
            run(p)
    finally:
        torch.softmax = softmax
        for h in hooks:
            h.remove()
    grid = (example.IMAGE_SIZE // example.PATCH) ** 2
    # attention: every new text query; answer_attention: the first pass's
    # last query and every later pass's new ones (the host ends generation).
    want: Dict[str, Dict[int, List[float]]] = {"attention": {}, "answer_attention": {}}
    first_new, keys_seen, last_keys, passes = 0, 0, 0, 0
    for layer, probs in seen:
        tq, tk = probs.shape[-2], probs.shape[-1]
        if layer == 0 and tk > last_keys:  # a new pass begins at layer 0
            first_new, last_keys = keys_seen, tk
            passes += 1
        keys_seen = max(keys_seen, tk)
        mean = probs.double().reshape(-1, tq, tk).mean(0)
        sums = want["attention"].setdefault(layer, [0.0] * grid)
        answer = want["answer_attention"].setdefault(layer, [0.0] * grid)
        for q in range(tq):
            pos = tk - tq + q
            if pos >= first_new and not 1 <= pos <= grid:
                for i in range(grid):
                    sums[i] += float(mean[q, 1 + i])
            if (pos == tk - 1) if passes == 1 else pos >= first_new:
                for i in range(grid):
                    answer[i] += float(mean[q, 1 + i])
    for metric, expected in want.items():
        got: Dict[int, List[float]] = {}
        for layer, patch, value in patch_rows(sqlite3.connect(session), metric):
            got.setdefault(layer, []).append(value)
        worst = max((abs(a - b) for l in expected for a, b in zip(expected[l], got.get(l, []))),
                    default=float("inf"))
        print(f"  {metric}: {len(got)} layers × {grid} patches; max |mvprof − torch| {worst:.2g}")
        check(set(got) == set(expected) and all(len(got[l]) == grid for l in got)
              and worst < 1e-6,
              f"{metric} heatmap: layers {sorted(got)} vs {sorted(expected)}, max difference "
              f"{worst}")


def check_refusals(session: str, model, base: Spy, folder: str) -> None:
    for what, call in [
        ("no llm role", lambda: mvprof.whatif(base.prof, model, mvprof.W8(),
                                              roles={"vision": "^vision_tower$"}).__enter__()),
        ("another session", lambda: mvprof.whatif(base.prof, model, mvprof.W8(),
                                                  path=os.path.join(folder, "other.mvprof"))),
        ("no such baseline", lambda: mvprof.whatif(99, model, mvprof.W8(),
                                                   path=session).__enter__()),
        # Off the CPU (a GPU's weights; meta stands in for one here): torch's
        # dynamic int8 kernels are the CPU's, and this torch (1.13) has no
        # int8 matmul for another device.
        ("W8 off the CPU", lambda: mvprof.whatif(base.prof, copy.deepcopy(model).to("meta"),
                                                 mvprof.W8()).__enter__()),
    ]:
        try:
            call()
            failures.append(f"refusal '{what}' accepted")
        except mvprof.MvprofError as e:
            print(f"  refused ({what}): {e}")
            if what == "W8 off the CPU":
                check("meta" in str(e) and "int8 matmul" in str(e),
                      f"W8 off the CPU names the device and what it lacks: {e}")
    out = subprocess.run([CLI, "whatif", session, "--quant", "w8"], capture_output=True, text=True)
    check(out.returncode == 2 and "mvprof.whatif" in out.stderr, f"CLI whatif: {out.stderr}")


def launch_argv(folder: str, script: str, *args: str) -> List[str]:
    out = os.path.join(folder, "launched.mvprof")
    return [CLI, "launch", "--out", out, "--force", "--progress", "jsonl", "--",
            sys.executable, script, *args]


def launch(folder: str, script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(launch_argv(folder, script, *args), capture_output=True, text=True,
                          timeout=240)


def script(folder: str, name: str, loop: str) -> str:
    """A script profiling a Linear under mvprof.profile(None, …), `loop` in its block."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("import sys, time, mvprof, torch\n"
                "m = torch.nn.Linear(2, 2)\n"
                "with mvprof.profile(None, m) as p:\n" + loop)
    return path


def check_launch(folder: str) -> None:
    session = os.path.join(folder, "launched.mvprof")
    example_py = example.__file__
    r = launch(folder, example_py, "--steps", "2")
    events = [json.loads(l) for l in r.stdout.splitlines() if l.startswith("{")]
    phases = [(e["phase"], e["step"]) for e in events if e["event"] == "progress"]
    done = [e for e in events if e["event"] == "done"]
    check(r.returncode == 0, f"launch: exit {r.returncode}: {r.stderr[-300:]}")
    check(phases == [("preprocess", 0), ("vision", 0), ("projector", 0), ("prefill", 0),
                     ("decode", 1), ("decode", 2)], f"launch progress {phases}")
    check(len(done) == 1 and done[0]["run"] == 1 and done[0]["status"] == "complete",
          f"launch done {done}")
    print(f"  launch: {len(phases)} progress lines, done {done}")
    failing = script(folder, "failing.py", "    with p.phase('prefill'):\n"
                                           "        m(torch.ones(1, 2))\n"
                                           "sys.exit(3)\n")
    r = launch(folder, failing)
    runs = sqlite3.connect(session).execute("SELECT status FROM run").fetchall()
    check(r.returncode == 1 and "status 3" in r.stderr and runs == [("complete",)],
          f"failing script: exit {r.returncode}, {r.stderr!r}, runs {runs}")
    nothing = os.path.join(folder, "nothing.py")
    with open(nothing, "w") as f:
        f.write("print('no profile here')\n")
    r = launch(folder, nothing)
    check(r.returncode == 2 and "MVPROF_OUT" in r.stderr, f"script writing nothing: {r.stderr}")
    check_launch_stop(folder, session)


def check_launch_stop(folder: str, session: str) -> None:
    slow = script(folder, "slow.py", "    for step in range(1, 1000):\n"
                                     "        with p.phase('decode', step):\n"
                                     "            m(torch.ones(1, 2)); time.sleep(0.05)\n")
    proc = subprocess.Popen(launch_argv(folder, slow), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.readline()  # the first phase began
    # Attach… lists it: the run announces itself while it writes (LiveRuns.h).
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    live = os.path.join(xdg, "mvprof") if xdg and os.path.isdir(xdg) else \
        f"/tmp/mvprof-{os.getuid()}"
    announced = []
    for name in os.listdir(live) if os.path.isdir(live) else []:
        try:
            with open(os.path.join(live, name)) as f:
                announced.append(json.load(f).get("session"))
        except (OSError, ValueError):
            pass
    check(session in announced, f"the running script's run is not announced in {live}")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    status, error = sqlite3.connect(session).execute("SELECT status, error FROM run").fetchone()
    print(f"  launch stopped: exit {proc.returncode}, run {status} ({error})")
    check(proc.returncode == 1 and "stopped" in err and status == "incomplete",
          f"stopped launch: exit {proc.returncode}, {err!r}, run {status}")


def main() -> int:
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = example.LlavaMoe("small").eval()
    features: List[torch.Tensor] = []
    with tempfile.TemporaryDirectory() as folder:
        session = os.path.join(folder, "whatif.mvprof")
        with torch.inference_mode():
            hook = model.multi_modal_projector.register_forward_hook(
                lambda m, i, o: features.append(o.detach().clone()))
            with mvprof.profile(session, model, image=IMAGE, prompt=PROMPT, force=True,
                                warmup=warmup) as prof:
                base = run(prof)
            hook.remove()
            check_w8(session, model, base)
            check_w4(session, model, base)
            check_freeze(session, model, base)
            check_prune(session, model, base, features[-1])
            check_resampling(session, model, base)
            check_repetitions(session, model, base)
            check_refusals(session, model, base, folder)
        check_attention(folder, model)
        check_launch(folder)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
