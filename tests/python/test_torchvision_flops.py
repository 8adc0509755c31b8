#!/usr/bin/python3
"""mvprof's FLOPs on models it has never seen, against torch.profiler.

torchvision models (random weights, fixed seed) become the vision tower of
the example VLM (capture/models/examples/torchvision_vlm.py), scripted and
saved as a TorchScript user model; a small einsum-attention tower checks
FLOPs counted through what einsum runs. mvprof-cli captures
each through --model-file; the same archive then runs its encode_image under
torch.profiler(with_flops=True) on an input of the same shape. For every op
kind torch.profiler counts, and for their total, the two must agree within
1 %. Run by CTest with Debian's /usr/bin/python3 (python3-torch 1.13,
python3-torchvision 0.14).

Op kinds: torch.profiler counts aten::conv2d, mm, addmm, bmm, baddbmm, add
and mul at every call it sees. mvprof counts at the innermost call with a
formula, so a convolution is counted at aten::_convolution (inside conv2d →
convolution); the comparison adds mvprof's convolution kinds together.
"""

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from typing import Dict, List

import torch

sys.path.insert(0, os.path.join(os.environ.get("MVP_SOURCE_DIR", os.path.join(
    os.path.dirname(__file__), "..", "..")), "capture", "models", "examples"))
import torchvision_vlm as example  # noqa: E402  the towers and the VLM around them

CONV_KINDS = ["aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::convolution",
              "aten::_convolution"]
TOLERANCE = 0.01


class EinsumTower(torch.nn.Module):
    """Patch embedding and one attention written with einsum: FLOPs happen in
    the bmm calls einsum makes, which neither side sees as einsum's own."""

    def __init__(self) -> None:
        super().__init__()
        self.patch = torch.nn.Conv2d(3, 96, 16, stride=16)
        self.qkv = torch.nn.Linear(96, 288)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        x = self.patch(pixels).flatten(2).transpose(1, 2)[0]  # [196, 96]
        q, k, v = self.qkv(x).view(-1, 3, 4, 24).unbind(1)  # [196, 4, 24] each
        a = torch.softmax(torch.einsum("qhd,khd->hqk", q, k), dim=-1)
        return torch.einsum("hqk,khd->qhd", a, v).reshape(-1, 96)


TOWERS = dict(example.TOWERS, einsum=(EinsumTower, 96, 16))


def save_user_model(name: str, folder: str) -> str:
    """The example VLM with this tower, scripted and saved; returns the manifest's path."""
    build, width, patch = TOWERS[name]
    torch.manual_seed(0)
    model = example.Vlm(build(), width).eval()
    return example.save(model, folder, name, patch,
                        extra={"mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225]})


def profiler_flops(archive: str) -> Dict[str, int]:
    """torch.profiler's FLOPs per op name for one encode_image call, each
    call counted once. One intra-op thread: with two, torch.profiler's
    aten::mul count for Swin-T changed between processes. And now and then
    (in about one process of two here, more often on a loaded machine) it
    records an op twice: a second aten::mul 5 µs into the first and ending
    1 µs after it, both children of encode_image — Swin-T's `q * scale`
    counted 7 times in a stage of 6 blocks. An event that starts inside an
    earlier one of the same name on its thread (however it ends: times are
    rounded to µs) is that call again and is not counted; calls one after
    the other all count."""
    torch.set_num_threads(1)
    model = torch.jit.load(archive).eval()
    pixels = torch.rand(1, 3, 224, 224)
    with torch.inference_mode():
        for _ in range(2):  # the profiling executor settles on its second call
            model.encode_image(pixels)
        with torch.profiler.profile(with_flops=True, record_shapes=True) as prof:
            model.encode_image(pixels)
    flops: Dict[str, int] = {}
    open_until: Dict[tuple, int] = {}  # (thread, name) → end of the last call counted
    for e in sorted(prof.events(), key=lambda e: (e.time_range.start, -e.time_range.end)):
        key = (e.thread, e.name)
        if e.time_range.start < open_until.get(key, -1):
            continue  # inside a call of the same name: the same call
        open_until[key] = e.time_range.end
        if e.flops:
            flops[e.name] = flops.get(e.name, 0) + int(e.flops)
    return flops


def reference_in_fresh_process(archive: str) -> Dict[str, int]:
    """profiler_flops in a new interpreter (this script with --reference)."""
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--reference", archive],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def mvprof_flops(cli: str, manifest: str, image: str, session: str) -> Dict[str, int]:
    """mvprof's FLOPs per innermost op for the vision phase of a capture."""
    subprocess.run([cli, "capture", "--model-file", manifest, "--image", image, "--steps", "1",
                    "--out", session, "--force"], check=True, stdout=subprocess.DEVNULL)
    with sqlite3.connect(session) as db:
        rows = db.execute("SELECT name, flops FROM leaf_flops WHERE phase='vision'").fetchall()
    return {name: int(flops) for name, flops in rows}


def report_phase(cli: str, session: str, phase: str) -> dict:
    out = subprocess.run([cli, "report", session, "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    run = json.loads(out)["runs"][0]
    return next(p for p in run["phases"] if p["phase"] == phase)


def compare(name: str, ours: Dict[str, int], theirs: Dict[str, int]) -> List[str]:
    """Per-kind and total agreement; returns the failures."""
    failures = []
    total_ours = total_theirs = 0
    for kind, flops in sorted(theirs.items()):
        mine = sum(ours.get(k, 0) for k in CONV_KINDS) if kind == "aten::conv2d" \
            else ours.get(kind, 0)
        total_ours += mine
        total_theirs += flops
        err = abs(mine - flops) / flops
        print(f"  {name:10} {kind:22} torch.profiler {flops:>15,}  mvprof {mine:>15,}"
              f"  {err * 100:6.3f} %")
        if err > TOLERANCE:
            failures.append(f"{name} {kind}: mvprof {mine} vs torch.profiler {flops}")
    err = abs(total_ours - total_theirs) / total_theirs
    print(f"  {name:10} {'total':22} torch.profiler {total_theirs:>15,}  mvprof {total_ours:>15,}"
          f"  {err * 100:6.3f} %")
    if err > TOLERANCE:
        failures.append(f"{name} total: mvprof {total_ours} vs torch.profiler {total_theirs}")
    return failures


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.environ.get("MVP_CLI"))
    ap.add_argument("--image", default=os.environ.get("MVP_SAMPLE_IMAGE"))
    ap.add_argument("--models", default=",".join(TOWERS))
    ap.add_argument("--reference", help="print torch.profiler's FLOPs of this archive as JSON")
    args = ap.parse_args()
    if args.reference:
        print(json.dumps(profiler_flops(args.reference)))
        return 0
    failures: List[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for name in args.models.split(","):
            manifest = save_user_model(name, folder)
            theirs = profiler_flops(manifest[:-5] + ".pt")
            session = os.path.join(folder, name + ".mvprof")
            ours = mvprof_flops(args.cli, manifest, args.image, session)
            problems = compare(name, ours, theirs)
            # torch.profiler's own count has differed between processes
            # (Swin-T's aten::mul, before profiler_flops counted a call
            # recorded twice once): a disagreement is still re-checked against
            # up to four fresh processes' counts, and fails only if mvprof
            # matches none.
            for retry in range(4):
                if not problems:
                    break
                print(f"  {name}: torch.profiler again in a fresh process ({problems[0]})")
                theirs = reference_in_fresh_process(manifest[:-5] + ".pt")
                problems = compare(name, ours, theirs)
            failures += problems
            phase = report_phase(args.cli, session, "vision")
            # The report's phase total counts every kind mvprof has a formula
            # for (softmax, norms, activations too): at least torch's kinds.
            if phase["flops_estimated"] < 0.99 * sum(theirs.values()):
                failures.append(f"{name}: report's vision FLOPs {phase['flops_estimated']}")
            if not 0.5 < phase["flops_coverage"] <= 1.0:
                failures.append(f"{name}: vision FLOP coverage {phase['flops_coverage']}")
            print(f"  {name:10} report: vision {phase['flops_estimated'] / 1e9:.3f} GFLOP, "
                  f"coverage {phase['flops_coverage'] * 100:.1f} % of op time")
            os.remove(manifest[:-5] + ".pt")  # hundreds of MB each
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
