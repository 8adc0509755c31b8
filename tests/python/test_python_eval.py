#!/usr/bin/python3
"""mvprof.evaluate — a what-if over an eval set on an eager model — on the
runnable example (capture/python/examples/llava_moe.py), every stored
figure checked against what the test computes itself:

- each arm's stored output is the first token the test's own unrecorded
  pass of that model produced, and "correct" follows the answers the test
  wrote (right, wrong, none); the report's accuracy and Wilson interval
  equal the test's formula over those rows;
- the what-if's per-item KL mean and top-1 agreement equal torch's, from
  the logits each arm's pass returned;
- PruneVisual's kept patches per item are the round(0.4·N) projector rows
  of largest L2 norm (torch.norm over that item's image), and the visual
  tokens seen are N and round(0.4·N);
- each item's baseline heatmap is PyTorch's answer attention (softmax
  wrapped), its what-if heatmap 0 exactly at the dropped patches;
- FreezeCold through a baseline capture's routing, the set given as dicts,
  heatmaps=False storing none;
- bad input loses nothing: a missing image (an error naming the line, no run
  written), a generate that fails on item 2 (both runs failed, naming it,
  items 0–1 kept; it fails inside item 2's observation pass), Ctrl-C there
  (incomplete, items kept), a generate
  that returns no text.
Run by CTest with Debian's /usr/bin/python3.
"""

import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from typing import Dict, List

import torch
import torch.nn.functional as F

sys.path.insert(0, os.environ["MVP_PYTHON_DIR"])
sys.path.insert(0, os.path.join(os.environ["MVP_SOURCE_DIR"], "capture", "python", "examples"))
sys.path.insert(0, os.path.dirname(__file__))
import mvprof  # noqa: E402
import llava_moe as example  # noqa: E402
from checks import check, status  # noqa: E402

STEPS = 3
CLI = os.environ["MVP_CLI"]
SAMPLES = os.path.dirname(os.environ["MVP_SAMPLE_IMAGE"])
PROMPTS = ["What is this?", "Describe it."]


class Spy:
    """The pass's markers, keeping the logits each output() was handed."""

    def __init__(self, p, log: List[List[torch.Tensor]]) -> None:
        self.p, self.logits = p, []
        log.append(self.logits)

    def __getattr__(self, name):
        return getattr(self.p, name)

    def output(self, logits, token=None):
        self.logits.append(logits.detach().reshape(-1)[-example.VOCAB:].double().clone())
        return self.p.output(logits, token)


def answerer(log: List[List[torch.Tensor]]):
    def answer(p, item) -> str:
        tokens = example.generate(Spy(p, log), p.model, item["image"], item["prompt"], STEPS)
        return str(tokens[0])
    return answer


def write_set(folder: str) -> List[Dict]:
    """Six items over the bundled samples (copied beside the set, paths
    relative to it); answers filled in later."""
    os.makedirs(os.path.join(folder, "images"))
    items = []
    for name in ("astronaut.png", "chelsea.png", "scene.png"):
        shutil.copy(os.path.join(SAMPLES, name), os.path.join(folder, "images", name))
        for prompt in PROMPTS:
            items.append({"id": f"{name[:-4]}-{len(prompt)}", "image": f"images/{name}",
                          "prompt": prompt})
    return items


def first_tokens(model, folder: str, items: List[Dict]) -> List[int]:
    out = []
    with torch.no_grad():
        for it in items:
            p = mvprof.NullProfile(model)
            out.append(example.generate(p, model, os.path.join(folder, it["image"]),
                                        it["prompt"], STEPS)[0])
    return out


def rows(session: str, run: int):
    db = sqlite3.connect(session)
    items = db.execute("SELECT item, output, correct, kl_mean, top1, visual_tokens, kept_patches "
                       "FROM eval_item WHERE run=? ORDER BY item", (run,)).fetchall()
    phases = db.execute("SELECT item, phase, ns FROM eval_item_phase WHERE run=?",
                        (run,)).fetchall()
    info = db.execute("SELECT status, label, baseline_run FROM run WHERE id=?", (run,)).fetchone()
    return items, phases, info


def wilson(right: int, n: int):
    z = 1.959963984540054
    p = right / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def kept_by_norm(model, image: str) -> List[int]:
    with torch.no_grad():
        out = model.multi_modal_projector(model.vision_tower(example.load_pixels(image)))
    n = out.shape[-2]
    return sorted(out.norm(dim=-1).reshape(-1, n).sum(0).topk(max(1, round(0.4 * n)))
                  .indices.tolist())


def check_prune(session: str, model, folder: str, items: List[Dict], ref: List[int]) -> None:
    log: List[List[torch.Tensor]] = []
    e = mvprof.evaluate(session, model, os.path.join(folder, "set.jsonl"), answerer(log),
                        mvprof.PruneVisual(keep=0.4))
    print(f"prune-visual: runs {e.baseline_run}, {e.whatif_run}: {e.baseline_right} and "
          f"{e.whatif_right} right of {e.scored}")
    base, base_phases, base_info = rows(session, e.baseline_run)
    what, what_phases, what_info = rows(session, e.whatif_run)
    check(e.done == e.items == len(items) == len(base) == len(what), "six items in each run")
    check(base_info[:2] == ("complete", "eval baseline") and what_info[0] == "complete"
          and what_info[2] == e.baseline_run, f"runs stored {base_info} {what_info}")
    check([r[1] for r in base] == [str(t) for t in ref], "baseline outputs = the test's pass")
    want = [1 if "answer" in it and it["answer"] == str(t) else (0 if "answer" in it else None)
            for it, t in zip(items, ref)]
    check([r[2] for r in base] == want, f"baseline verdicts {[r[2] for r in base]} = {want}")
    whatif_want = [None if "answer" not in it else int(r[1] == it["answer"])
                   for it, r in zip(items, what)]
    check([r[2] for r in what] == whatif_want, "what-if verdicts follow its outputs")
    check(all(r[3] is None for r in base), "no fidelity in the baseline's rows")
    # log: warm-up A, warm-up B, then per item A observed, A, B observed, B.
    for i, r in enumerate(what):
        a, b = log[3 + 4 * i], log[5 + 4 * i]
        kls = [float(F.kl_div(F.log_softmax(y, -1), F.log_softmax(x, -1), log_target=True,
                              reduction="sum")) for x, y in zip(a, b)]
        agree = sum(int(x.argmax()) == int(y.argmax()) for x, y in zip(a, b)) / len(a)
        mean = sum(kls) / len(kls)
        check(abs(r[3] - mean) <= 1e-4 * mean + 1e-6 and abs(r[4] - agree) < 1e-9,
              f"item {i}: KL {r[3]:.6g} vs torch {mean:.6g}, top-1 {r[4]} vs {agree}")
        kept = kept_by_norm(model, os.path.join(folder, items[i]["image"]))
        check(json.loads(r[6]) == kept and r[5] == len(kept),
              f"item {i}: kept {len(json.loads(r[6]))} patches = the largest norms")
    grid = example.IMAGE_SIZE // example.PATCH
    check(all(r[5] == grid * grid for r in base), f"baseline saw {grid * grid} visual tokens")
    check_heatmaps(session, model, folder, items, (e.baseline_run, e.whatif_run),
                   [json.loads(r[6]) for r in what])
    for name, ph in (("baseline", base_phases), ("what-if", what_phases)):
        per = {(i, p) for i, p, ns in ph if ns > 0}
        check(all((i, p) in per for i in range(len(items)) for p in ("prefill", "decode")),
              f"{name}: every item timed in prefill and decode")
    report = subprocess.run([CLI, "report", session, "--format", "json"], capture_output=True,
                            text=True)
    check(report.returncode == 0, f"report: {report.stderr.strip()}")
    runs = json.loads(report.stdout)["runs"] if report.returncode == 0 else []
    ev = next((r.get("eval") for r in runs if r["id"] == e.whatif_run), None) or {}
    setups = {s["role"]: s for s in ev.get("setups", [])}
    for role, right in (("baseline", e.baseline_right), ("whatif", e.whatif_right)):
        acc = setups.get(role, {}).get("accuracy", {})
        low, high = wilson(right, 5)
        check(acc.get("items") == 5 and abs(acc.get("value", -1) - right / 5) < 1e-12 and
              all(abs(x - y) < 1e-9 for x, y in zip(acc.get("ci95", []), (low, high))),
              f"report: {role} accuracy {acc} = {right}/5, Wilson [{low:.4f}, {high:.4f}]")
    check(ev.get("unanswered") == 1, f"report counts the unanswered item ({ev.get('unanswered')})")


def answer_attention(model, image: str, prompt: str) -> torch.Tensor:
    """PyTorch's answer attention of one item, summed over layers: the
    mean-over-heads softmax mass each visual position received from the
    queries that generated the answer (the prefill's last, each decode
    pass's one), seen by wrapping torch.softmax in an unrecorded pass."""
    softmax, seen = torch.softmax, []

    def spy(x, dim, *args, **kwargs):
        out = softmax(x, dim, *args, **kwargs)
        if out.dim() == 3 and out.shape[0] == example.HEADS:  # not a router's [T, E]
            seen.append(out.detach())
        return out
    torch.softmax = spy
    try:
        with torch.no_grad():
            example.generate(mvprof.NullProfile(model), model, image, prompt, STEPS)
    finally:
        torch.softmax = softmax
    grid = (example.IMAGE_SIZE // example.PATCH) ** 2
    total = torch.zeros(grid, dtype=torch.float64)
    for probs in seen:  # prefill: [H, T, T]; decode: [H, 1, T]
        total += probs.double().mean(0)[-1, 1:1 + grid]
    return total


def check_heatmaps(session: str, model, folder: str, items: List[Dict], runs,
                   kept: List[List[int]]) -> None:
    """Each item's two heatmaps on the model's grid: the baseline's is
    PyTorch's answer attention; the what-if's is 0 exactly at the patches
    PruneVisual dropped."""
    side = example.IMAGE_SIZE // example.PATCH
    stored = {(run, item): (h, w, torch.frombuffer(bytearray(blob), dtype=torch.float32))
              for run, item, h, w, blob in sqlite3.connect(session).execute(
                  "SELECT run, item, grid_h, grid_w, answer_attention FROM eval_item_heatmap"
                  " WHERE run IN (?, ?)", runs)}
    check(set(stored) == {(r, i) for r in runs for i in range(len(items))} and
          all(h == w == side for h, w, _ in stored.values()),
          f"a {side}×{side} heatmap per item and arm: {sorted(stored)}")
    worst = 0.0
    for i, it in enumerate(items):
        _, _, base = stored.get((runs[0], i), (0, 0, torch.zeros(side * side)))
        want = answer_attention(model, os.path.join(folder, it["image"]), it["prompt"])
        worst = max(worst, (base.double() - want).abs().max().item())
        _, _, what = stored.get((runs[1], i), (0, 0, torch.zeros(side * side)))
        dropped = sorted(set(range(side * side)) - set(kept[i]))
        check(bool((what[dropped] == 0).all()) and bool((what[kept[i]] > 0).any()),
              f"item {i}: the what-if's heatmap is 0 at its {len(dropped)} dropped patches")
    print(f"  heatmaps: max |mvprof − torch| {worst:.2g} over {len(items)} items")
    check(worst < 1e-5, f"baseline heatmaps differ from PyTorch's answer attention by {worst}")


def check_freeze(session: str, model, folder: str, items: List[Dict]) -> None:
    image = os.path.join(folder, items[0]["image"])
    with mvprof.profile(session, model, image=image, prompt=items[0]["prompt"]) as base:
        example.generate(base, model, image, items[0]["prompt"], 16)
    given = [{**it, "image": os.path.join(folder, it["image"])} for it in items[:2]]
    e = mvprof.evaluate(session, model, given, answerer([]), mvprof.FreezeCold(window=8),
                        baseline=base, heatmaps=False)
    db = sqlite3.connect(session)
    frozen = db.execute("SELECT value FROM run_metric WHERE run=? AND name='cold.frozen_experts'",
                        (e.whatif_run,)).fetchone()
    path, n = db.execute("SELECT path, items FROM eval_set WHERE run=?",
                         (e.whatif_run,)).fetchone()
    parent = db.execute("SELECT baseline_run FROM run WHERE id=?", (e.baseline_run,)).fetchone()
    heatmaps = db.execute("SELECT COUNT(*) FROM eval_item_heatmap WHERE run IN (?, ?)",
                          (e.baseline_run, e.whatif_run)).fetchone()[0]
    check(heatmaps == 0, f"heatmaps=False stores no heatmaps ({heatmaps})")
    print(f"freeze-cold: {frozen} frozen, set {path} ({n} items)")
    check(frozen is not None and e.done == 2 and (path, n) == ("python:items", 2) and
          parent == (base.run_id,), "FreezeCold over dicts, planned from the capture's routing")


def check_bad_input(session: str, model, folder: str, items: List[Dict]) -> None:
    def runs() -> int:
        return sqlite3.connect(session).execute("SELECT COUNT(*) FROM run").fetchone()[0]
    before = runs()
    broken = os.path.join(folder, "broken.jsonl")
    with open(broken, "w") as f:
        f.write(json.dumps(items[0]) + "\n" + json.dumps({**items[1], "image": "no.png"}) + "\n")
    try:
        mvprof.evaluate(session, model, broken, answerer([]), mvprof.W8())
        check(False, "a missing image is refused")
    except mvprof.MvprofError as e:
        check("broken.jsonl:2" in str(e) and runs() == before, f"missing image: {e}")
    path = os.path.join(folder, "set.jsonl")
    for stop, status_want in ((RuntimeError("boom"), "failed"), (KeyboardInterrupt(), "incomplete")):
        calls = [0]

        def failing(p, item):
            calls[0] += 1
            # Two warm-ups, items 0 and 1 (each arm observed, then timed), then
            # item 2's baseline observation: it stops inside an observation pass.
            if calls[0] == 11:
                raise stop
            return answerer([])(p, item)
        try:
            mvprof.evaluate(session, model, path, failing, mvprof.PruneVisual(keep=0.4))
            check(False, f"{type(stop).__name__} propagates")
        except (RuntimeError, KeyboardInterrupt):
            pass
        db = sqlite3.connect(session)
        last = db.execute("SELECT id, status, error FROM run ORDER BY id DESC LIMIT 2").fetchall()
        kept = [db.execute("SELECT COUNT(*) FROM eval_item WHERE run=?", (r[0],)).fetchone()[0]
                for r in last]
        check(all(r[1] == status_want for r in last) and kept == [2, 2] and
              (status_want != "failed" or "item 2" in last[0][2]),
              f"{type(stop).__name__}: {last}, items kept {kept}")
    try:
        mvprof.evaluate(session, model, path, lambda p, item: 7, mvprof.W8())
        check(False, "generate must return text")
    except mvprof.MvprofError as e:
        check("str" in str(e), f"no text: {e}")


def main() -> int:
    torch.manual_seed(0)
    model = example.LlavaMoe("small").eval()
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "set")
        items = write_set(folder)
        ref = first_tokens(model, folder, items)
        for i, it in enumerate(items[:5]):  # right, wrong, right, wrong, right; the last: none
            it["answer"] = str(ref[i]) if i % 2 == 0 else "not-a-token"
        with open(os.path.join(folder, "set.jsonl"), "w") as f:
            f.write("\n".join(json.dumps(it) for it in items) + "\n")
        session = os.path.join(tmp, "eval.mvprof")
        check_prune(session, model, folder, items, ref)
        check_freeze(session, model, folder, items)
        check_bad_input(session, model, folder, items)
    return status()


if __name__ == "__main__":
    sys.exit(main())
