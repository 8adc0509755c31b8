#!/usr/bin/python3
"""The mvprof Python package on eager models: torchvision's ViT-B/16 in
front of the example's Mixtral-layout decoder (experts and router are
modules), and the same decoder with batched einsum experts (one module
holding every expert's weights), profiled with mvprof.profile in this process.

Checks, against PyTorch itself:
- routing rows equal the top-k of the router logits PyTorch computed in the
  same run (seen by the test's own forward hooks), with modality by position;
- module spans nest inside their parents and inside the phases;
- the vision phase's FLOPs equal torch.profiler's with_flops count per op kind;
- the report's MoE section splits by modality and by phase;
- with einsum experts: routing = PyTorch's top-k, and the bmm/mm FLOPs the
  einsums ran = torch.profiler's; a router returning its top-k (DeepSeek's
  gate) is recorded as those choices;
- an exception in the user's forward propagates unchanged and the run is
  stored as failed with its last line; a session path that cannot be written
  is a clear MvprofError;
- a dimension past int32's range keeps its size in the op's shapes;
- the attention observer copies op outputs only inside attention modules.
Run by CTest with Debian's /usr/bin/python3; the package comes from
$MVP_PYTHON_DIR (<build>/python).
"""

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import warnings
from typing import Dict, List, Tuple

import torch

sys.path.insert(0, os.environ["MVP_PYTHON_DIR"])
sys.path.insert(0, os.path.join(os.environ["MVP_SOURCE_DIR"], "capture", "models", "examples"))
import mvprof  # noqa: E402
from session_rows import metric_names, patch_rows, routing_rows, span_rows  # noqa: E402
import torchvision_vlm as example  # noqa: E402

STEPS = 2
PROMPT = [256] + list(b"What is this?")


def build() -> torch.nn.Module:
    torch.manual_seed(0)
    tower, width, _ = example.TOWERS["vit_b_16"]
    return example.Vlm(tower(), width).eval()


def run(prof, model, pixels) -> None:
    with prof.phase("vision"):
        feats = model.encode_image(pixels)
    with prof.phase("projector"):
        visual = model.project(feats)
    prof.visual_tokens(start=1, grid=(14, 14), patch=16, input_size=224)
    ids = list(PROMPT)
    with prof.phase("prefill"):
        nxt = int(model(torch.tensor(ids), visual, 1).argmax())
    for step in range(1, STEPS + 1):
        ids.append(nxt)
        with prof.phase("decode", step):  # the whole sequence again: no KV cache
            nxt = int(model(torch.tensor(ids), visual, 1).argmax())


def expected_routing(outputs: List[Tuple[int, torch.Tensor]]) -> Dict[Tuple[int, int], List[int]]:
    """PyTorch's top-k per (layer, position), new positions of each pass only."""
    routed: Dict[Tuple[int, int], List[int]] = {}
    for layer, logits in outputs:
        chosen = torch.softmax(logits, -1).topk(example.TOP_K, -1).indices
        for pos in range(chosen.shape[0]):
            routed.setdefault((layer, pos), chosen[pos].tolist())
    return routed


class EinsumExperts(torch.nn.Module):
    """All experts in two batched weights, applied by einsum to the chosen ones
    (no module per expert: the layout of fused-MoE implementations)."""

    def __init__(self) -> None:
        super().__init__()
        d, h = example.DIM, 2 * example.DIM
        self.w1 = torch.nn.Parameter(torch.randn(example.EXPERTS, d, h) / d ** 0.5)
        self.w2 = torch.nn.Parameter(torch.randn(example.EXPERTS, h, d) / h ** 0.5)

    def forward(self, x: torch.Tensor, chosen: torch.Tensor, weights: torch.Tensor):
        h = torch.nn.functional.silu(torch.einsum("td,tkdh->tkh", x, self.w1[chosen]))
        out = torch.einsum("tkh,tkhd->tkd", h, self.w2[chosen])
        return (out * weights.unsqueeze(-1)).sum(1)


class EinsumMoe(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.num_experts_per_tok = example.TOP_K
        self.gate = torch.nn.Linear(example.DIM, example.EXPERTS, bias=False)
        self.experts = EinsumExperts()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weights, chosen = torch.softmax(self.gate(x), -1).topk(self.num_experts_per_tok, -1)
        return self.experts(x, chosen, weights / weights.sum(-1, keepdim=True))


def check_einsum_experts(folder: str, failures: List[str]) -> None:
    """(b) batched einsum experts: routing = PyTorch's top-k, the prefill's
    matmul FLOPs = torch.profiler's."""
    torch.manual_seed(1)
    model = build()
    for block in model.llm.blocks:
        block.moe = EinsumMoe()
    seen: List[Tuple[int, torch.Tensor]] = []
    for layer, block in enumerate(model.llm.blocks):
        block.moe.gate.register_forward_hook(
            lambda m, i, o, l=layer: seen.append((l, o.detach().clone())))
    visual = torch.randn(12, example.DIM)
    session = os.path.join(folder, "einsum.mvprof")
    with torch.inference_mode(), mvprof.profile(session, model, force=True) as prof:
        with prof.phase("prefill"):
            model(torch.tensor(PROMPT), visual, 1)
    db = sqlite3.connect(session)
    got: Dict[Tuple[int, int], List[int]] = {}
    for layer, _, _, token, _, _, expert, _ in routing_rows(db):
        got.setdefault((layer, token), []).append(expert)
    want = expected_routing(seen)
    if got != want or not want:
        failures.append(f"einsum experts routing: {len(got)} vs PyTorch's {len(want)}")
    ours = dict(db.execute("SELECT name, flops FROM leaf_flops WHERE phase='prefill'"))
    with torch.inference_mode(), torch.profiler.profile(with_flops=True) as p:
        model(torch.tensor(PROMPT), visual, 1)
    theirs = {e.key: int(e.flops) for e in p.key_averages() if e.flops}
    for kind in ("aten::bmm", "aten::mm", "aten::addmm"):
        mine, ref = ours.get(kind, 0), theirs.get(kind, 0)
        print(f"  einsum experts {kind:11} torch.profiler {ref:>12,}  mvprof {mine:>12,}")
        if abs(mine - ref) > 0.01 * max(ref, 1) or (kind == "aten::bmm" and ref == 0):
            failures.append(f"einsum experts {kind}: mvprof {mine}, torch.profiler {ref}")


class TupleGate(torch.nn.Module):
    """DeepSeek's layout: the gate returns (top-k indices, top-k weights, aux loss)."""

    def __init__(self) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(example.EXPERTS, example.DIM))

    def forward(self, x: torch.Tensor):
        weights, chosen = torch.softmax(x @ self.weight.t(), -1).topk(example.TOP_K, -1)
        return chosen, weights / weights.sum(-1, keepdim=True), None


def check_tuple_router(folder: str, failures: List[str]) -> None:
    """A router returning its top-k choices: the rows are those choices."""
    torch.manual_seed(2)
    model = torch.nn.Module()
    model.moe = torch.nn.Module()
    model.moe.gate = TupleGate()
    x = torch.randn(9, example.DIM)
    session = os.path.join(folder, "tuple.mvprof")
    with torch.inference_mode(), mvprof.profile(session, model, force=True,
                                                roles={"router": r"^moe\.gate$"}) as prof:
        with prof.phase("prefill"):
            chosen, weights, _ = model.moe.gate(x)
    rows = sorted((t, r, e, w) for _, _, _, t, _, r, e, w in
                  routing_rows(sqlite3.connect(session)))
    want = [(t, r, int(chosen[t, r]), float(weights[t, r])) for t in range(9)
            for r in range(example.TOP_K)]
    if [r[:3] for r in rows] != [w[:3] for w in want] or \
            any(abs(a[3] - b[3]) > 1e-6 for a, b in zip(rows, want)):
        failures.append(f"tuple router: {rows[:4]} vs {want[:4]}")


def check_role_order(folder: str, failures: List[str]) -> None:
    """Container roles anchored at a prefix ("^llm") match every module inside
    them: given before the router's, the router must still be the router
    (its routing recorded), whatever order the roles come in."""
    torch.manual_seed(2)
    model = torch.nn.Module()
    model.llm = torch.nn.Module()
    model.llm.moe = torch.nn.Module()
    model.llm.moe.gate = TupleGate()
    x = torch.randn(5, example.DIM)
    patterns = {"llm": "^llm", "moe": r"\.moe$", "router": r"\.moe\.gate$"}
    for order in (["llm", "moe", "router"], ["router", "llm", "moe"], ["moe", "router", "llm"]):
        session = os.path.join(folder, "order.mvprof")
        with torch.inference_mode(), mvprof.profile(
                session, model, force=True, roles={k: patterns[k] for k in order}) as prof:
            with prof.phase("prefill"):
                model.llm.moe.gate(x)
        db = sqlite3.connect(session)
        roles = dict(db.execute("SELECT path, role FROM module WHERE run=1").fetchall())
        routed = len(routing_rows(db))
        db.close()
        if roles.get("llm.moe.gate") != "router" or routed != 5 * example.TOP_K:
            failures.append(f"roles given in the order {order}: {roles}, {routed} routing rows")


def check_wide_shapes(folder: str, failures: List[str]) -> None:
    """Shapes that do not fit an op record's inline dims keep their exact values
    in the op's shapes, as the Chrome trace export shows them: a dimension past
    int32's range (an expanded view of 3e9 elements), more tensors than the
    record holds (a cat of 10) and more dimensions (a cat of three rank-6
    tensors), each called twice (the second call is the probe's memo hit),
    beside a call whose shapes fit."""
    linear = torch.nn.Linear(4, 4)
    session = os.path.join(folder, "wide.mvprof")
    wide = 3_000_000_000
    many = [torch.ones(1, i + 1) for i in range(10)]
    deep = [torch.ones(1, 2, 1, 3, 1, i + 1) for i in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no router: not this check's business
        with torch.inference_mode(), mvprof.profile(session, linear, force=True) as prof:
            with prof.phase("prefill"):
                torch.ones(1).expand(wide).narrow(0, 0, 2)
                for _ in range(2):
                    torch.cat(many, 1)
                    torch.cat(deep, 5)
                torch.mm(torch.ones(2, 3), torch.ones(3, 4))
    trace = os.path.join(folder, "wide.json")
    subprocess.run([os.environ["MVP_CLI"], "export", session, "--chrome-trace", trace],
                   check=True, stdout=subprocess.DEVNULL)
    with open(trace) as f:
        events = json.load(f)["traceEvents"]

    def dims_of(name: str) -> list:
        return [e.get("args", {}).get("Input Dims") for e in events if e.get("name") == name]

    expected = {
        "aten::narrow": [[[wide]]],
        "aten::cat": [[list(t.shape) for t in many], [list(t.shape) for t in deep]] * 2,
        "aten::mm": [[[2, 3], [3, 4]]],
    }
    for name, want in expected.items():
        got = dims_of(name)
        if got != want:
            failures.append(f"shapes of {name}: Input Dims {got}, torch says {want}")
    print(f"  wide shapes: aten::narrow Input Dims {dims_of('aten::narrow')}, "
          f"{len(dims_of('aten::cat'))} cats of 10 tensors / 18 dims")


class Attending(torch.nn.Module):
    """Fifty linear layers, then, with `attn`, one attention module
    (block.attn: the default roles' attention) of four top-level ops
    (transpose, matmul, softmax, matmul)."""

    class Attn(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.softmax(x @ x.transpose(0, 1), -1) @ x

    def __init__(self, attn: bool) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(8, 8) for _ in range(50))
        self.block = torch.nn.ModuleDict({"attn": Attending.Attn()} if attn else {})

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.block["attn"](x) if "attn" in self.block else x


def check_observer_scope(folder: str, failures: List[str]) -> None:
    """The attention observer (on by default) reads op outputs only inside
    modules of the attention role, only the softmax's, and only once visual
    tokens are declared: on a model with an attention module, its one
    softmax; none on a model without one; none before visual tokens are
    declared (capture.observed_ops against the recorded op count)."""
    for attn, visual in ((False, True), (True, True), (True, False)):
        session = os.path.join(folder, f"scope-{attn}-{visual}.mvprof")
        model = Attending(attn)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # no router: not this check's business
            with torch.inference_mode(), mvprof.profile(session, model, force=True) as prof:
                if visual:
                    prof.visual_tokens(start=0, grid=(2, 2), patch=16, input_size=32)
                with prof.phase("prefill"):
                    model(torch.rand(4, 8))
        db = sqlite3.connect(session)
        observed = db.execute("SELECT value FROM run_metric WHERE name = 'capture.observed_ops'"
                              ).fetchone()
        ops = db.execute("SELECT COALESCE(SUM(rows), 0) FROM op_chunk").fetchone()[0]
        db.close()
        expected = 1 if attn and visual else 0
        ok = observed is not None and ops >= 150 and observed[0] == expected
        print(f"  observer scope, attention module {attn}, visual tokens {visual}: "
              f"{observed and observed[0]} ops observed of {ops} recorded")
        if not ok:
            failures.append(f"observer scope (attention module {attn}, visual tokens {visual}): "
                            f"{observed and observed[0]} of {ops} ops observed, {expected} "
                            "expected")


def check_overflowing_attention(folder: str, failures: List[str]) -> None:
    """An attention whose scores overflow (softmax of inf: NaN) leaves the
    heatmap out and says so; the run is still stored, complete."""
    model = Attending(True)
    session = os.path.join(folder, "overflow.mvprof")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.inference_mode(), mvprof.profile(session, model, force=True) as prof:
            prof.visual_tokens(start=0, grid=(2, 2), patch=16, input_size=32)
            with prof.phase("prefill"):
                model.block["attn"](torch.full((4, 8), float("inf")))
    db = sqlite3.connect(session)
    status = db.execute("SELECT status FROM run").fetchone()[0]
    values = sum(len(patch_rows(db, m)) for m in metric_names(db) if "attention" in m)
    observed = db.execute("SELECT value FROM run_metric WHERE name = 'roles.attention_observed'"
                          ).fetchone()
    db.close()
    print(f"  overflowing attention: run {status}, {values} attention values, "
          f"observed {observed and observed[0]}")
    if status != "complete" or values != 0 or not observed or observed[0] != 0:
        failures.append(f"overflowing attention: run {status}, {values} attention values, "
                        f"roles.attention_observed {observed}")


def check_inputs(folder: str, failures: List[str]) -> None:
    """An image given as bytes is stored; bad images and a missing library are
    clear MvprofErrors, and nothing is left half-written."""
    linear = torch.nn.Linear(4, 4)
    session = os.path.join(folder, "inputs.mvprof")
    with open(os.environ["MVP_SAMPLE_IMAGE"], "rb") as f:
        data = f.read()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no router: not this check's business
        with mvprof.profile(session, linear, image=data, force=True) as prof:
            with prof.phase("prefill"):
                linear(torch.ones(1, 4))
            # A module handle the run never declared: refused, naming the call to make.
            try:
                prof.call("mvprof_enter_module", 999)
                failures.append("an undeclared module handle was accepted")
            except mvprof.MvprofError as e:
                print(f"  undeclared module handle: {e}")
                if "mvprof_declare_module" not in str(e):
                    failures.append(f"undeclared module handle: {e}")
        size = sqlite3.connect(session).execute("SELECT orig_width, orig_height FROM image"
                                                ).fetchone()
        if not size or size[0] <= 0:
            failures.append(f"image bytes: stored {size}")
        for bad in (b"not an image", "/no/such/photo.png"):
            try:
                with mvprof.profile(session, linear, image=bad):
                    pass
                failures.append(f"image {bad!r} accepted")
            except mvprof.MvprofError as e:
                print(f"  bad image {bad!r}: {e}")
    runs = sqlite3.connect(session).execute("SELECT COUNT(*), MIN(status) FROM run").fetchone()
    if runs != (1, "complete"):
        failures.append(f"refused images left runs behind: {runs}")
    # The package imported where its library is not: a message naming the fix.
    code = ("import mvprof, torch\n"
            "try:\n    mvprof.profile('x.mvprof', torch.nn.Linear(1, 1)).__enter__()\n"
            "except mvprof.MvprofError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=folder, env={**os.environ, "MVPROF_LIBRARY": "/no/libmvprof.so",
                                          "PYTHONPATH": os.environ["MVP_PYTHON_DIR"]})
    if "MVPROF_LIBRARY" not in out.stdout or "install" not in out.stdout:
        failures.append(f"missing library: {out.stdout!r} {out.stderr[-200:]!r}")
    print(f"  missing library: {out.stdout.strip()[:100]}…")


def main() -> int:
    failures: List[str] = []
    torch.set_num_threads(1)
    model = build()
    pixels = torch.rand(1, 3, 224, 224)
    seen: List[Tuple[int, torch.Tensor]] = []
    for layer, block in enumerate(model.llm.blocks):
        block.moe.gate.register_forward_hook(
            lambda m, i, o, l=layer: seen.append((l, o.detach().clone())))
    with tempfile.TemporaryDirectory() as folder:
        session = os.path.join(folder, "eager.mvprof")
        with torch.inference_mode():
            with mvprof.profile(session, model, prompt="What is this?", force=True) as prof:
                run(prof, model, pixels)
        db = sqlite3.connect(session)
        rows = [(layer, token, rank, expert, modality)
                for layer, _, _, token, modality, rank, expert, _ in routing_rows(db)]
        got: Dict[Tuple[int, int], List[int]] = {}
        for layer, token, rank, expert, modality in rows:
            got.setdefault((layer, token), []).append(expert)
            if modality != ("visual" if 1 <= token <= 196 else "text"):
                failures.append(f"routing layer {layer} token {token}: {modality}")
        want = expected_routing(seen)
        if got != want:
            bad = [k for k in want if got.get(k) != want[k]][:5]
            failures.append(f"routing: {len(got)} (layer, token) pairs vs PyTorch's {len(want)};"
                            f" first differences {bad}")
        print(f"  routing: {len(rows)} rows, {len(want)} (layer, token) pairs checked")

        spans = {i: (p, s, e, ph) for i, _, p, ph, _, s, e, *_ in span_rows(db, 1)}
        phases = {(p, st): (s, e) for p, st, s, e in db.execute(
            "SELECT phase, step, start_ns, end_ns FROM phase WHERE run=1")}
        for i, (parent, start, end, phase) in spans.items():
            if parent is not None and not (spans[parent][1] <= start and end <= spans[parent][2]):
                failures.append(f"span {i} is not inside its parent {parent}")
        if not spans or len(phases) != 3 + STEPS:
            failures.append(f"{len(spans)} spans, {len(phases)} phases")
        experts = db.execute("SELECT COUNT(*) FROM module WHERE run=1 AND role='expert'"
                             " AND layer IS NOT NULL AND expert IS NOT NULL").fetchone()[0]
        if experts != example.LAYERS * example.EXPERTS:
            failures.append(f"{experts} expert modules with layer and index")

        ours = dict(db.execute("SELECT name, flops FROM leaf_flops WHERE run=1 AND "
                               "phase='vision'").fetchall())
        with torch.inference_mode(), torch.profiler.profile(with_flops=True) as p:
            model.encode_image(pixels)
        theirs = {e.key: int(e.flops) for e in p.key_averages() if e.flops}
        for kind, flops in theirs.items():
            mine = sum(ours.get(k, 0) for k in ("aten::_convolution", "aten::convolution",
                                                  "aten::conv2d")) \
                if kind == "aten::conv2d" else ours.get(kind, 0)
            print(f"  vision {kind:14} torch.profiler {flops:>15,}  mvprof {mine:>15,}")
            if abs(mine - flops) > 0.01 * flops:
                failures.append(f"vision {kind}: mvprof {mine}, torch.profiler {flops}")

        report = json.loads(subprocess.run([os.environ["MVP_CLI"], "report", session,
                                            "--format", "json"], capture_output=True,
                                           text=True, check=True).stdout)
        layers = report["runs"][0]["moe"]["layers"]
        if len(layers) != example.LAYERS or any(
                set(l["by_modality"]) != {"visual", "text"} or
                set(l["by_phase"]) != {"prefill", "decode"} for l in layers):
            failures.append(f"MoE section: {json.dumps(layers)[:200]}")

        # The user's exception propagates; the run is stored as failed.
        bad = os.path.join(folder, "failed.mvprof")
        try:
            with mvprof.profile(bad, model, force=True) as prof:
                with prof.phase("vision"):
                    model.encode_image(torch.rand(1, 3, 100, 100))
            failures.append("a wrong input size did not raise")
        except Exception as e:  # noqa: BLE001 - whatever the model raised
            status, error = sqlite3.connect(bad).execute(
                "SELECT status, error FROM run").fetchone()
            if status != "failed" or not error or type(e).__name__ not in error:
                failures.append(f"failed run stored as {status}: {error!r}")
            print(f"  failing forward: {type(e).__name__} propagated, run {status}: {error[:70]}")
        # No router by the given roles: a warning naming the candidates, and
        # ops and modules still recorded.
        plain = os.path.join(folder, "norouter.mvprof")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with torch.inference_mode(), mvprof.profile(plain, model, force=True,
                                                        roles={"llm": "^llm$"}) as prof:
                with prof.phase("prefill"):
                    model(torch.tensor(PROMPT), torch.zeros(4, 64), 1)
        message = " ".join(str(w.message) for w in caught)
        ndb = sqlite3.connect(plain)
        counts = ndb.execute("SELECT (SELECT COALESCE(SUM(rows), 0) FROM op_chunk),"
                             " (SELECT COUNT(*) FROM module)").fetchone() + (len(routing_rows(ndb)),)
        if "llm.blocks.0.moe.gate" not in message or counts[0] == 0 or counts[1] == 0 \
                or counts[2] != 0:
            failures.append(f"no router: warning {message!r}, ops/modules/routing {counts}")
        print(f"  no router: {message[:110]}…")
        check_einsum_experts(folder, failures)
        check_inputs(folder, failures)
        check_wide_shapes(folder, failures)
        check_observer_scope(folder, failures)
        check_overflowing_attention(folder, failures)
        check_tuple_router(folder, failures)
        check_role_order(folder, failures)
        try:
            mvprof.profile("/proc/no/such/dir/x.mvprof", model).__enter__()
            failures.append("an unwritable path was accepted")
        except mvprof.MvprofError as e:
            print(f"  unwritable path: {e}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
