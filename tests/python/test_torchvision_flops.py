#!/usr/bin/python3
"""mvprof's FLOPs on models it has never seen, against torch.profiler.

torchvision models (random weights, fixed seed) become the vision tower of
a small scripted VLM saved as a TorchScript user model. mvprof-cli captures
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
from typing import Callable, Dict, List, Tuple

import torch
import torch.nn as nn
import torchvision

CONV_KINDS = ["aten::conv1d", "aten::conv2d", "aten::conv3d", "aten::convolution",
              "aten::_convolution"]
TOLERANCE = 0.01


class VitTower(nn.Module):
    """torchvision's ViT without its head: one feature row per patch (CLS dropped)."""

    def __init__(self, vit: torchvision.models.VisionTransformer) -> None:
        super().__init__()
        self.vit = vit

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        x = self.vit._process_input(pixels)
        cls = self.vit.class_token.expand(x.shape[0], -1, -1)
        x = self.vit.encoder(torch.cat([cls, x], dim=1))
        return x[0, 1:]


class ResNetTower(nn.Module):
    """A ResNet's last feature map, one row per 32-px patch."""

    def __init__(self, net: torchvision.models.ResNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        r = self.net
        x = r.maxpool(r.relu(r.bn1(r.conv1(pixels))))
        x = r.layer4(r.layer3(r.layer2(r.layer1(x))))
        return x.flatten(2).transpose(1, 2)[0]


class SwinTower(nn.Module):
    """Swin's last stage, one row per 32-px patch."""

    def __init__(self, net: torchvision.models.SwinTransformer) -> None:
        super().__init__()
        self.net = net

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        x = self.net.norm(self.net.features(pixels))
        return x.reshape(-1, x.shape[-1])


class TinyVlm(nn.Module):
    """The USER_MODELS.md contract around a vision tower: a linear projector
    and a one-layer decoder over byte tokens."""

    def __init__(self, tower: nn.Module, feature_dim: int, dim: int = 64, vocab: int = 320):
        super().__init__()
        self.vision = tower
        self.projector = nn.Linear(feature_dim, dim)
        self.embed = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    @torch.jit.export
    def encode_image(self, pixels: torch.Tensor) -> torch.Tensor:
        return self.vision(pixels)

    @torch.jit.export
    def project(self, features: torch.Tensor) -> torch.Tensor:
        return self.projector(features)

    def forward(self, ids: torch.Tensor, visual: torch.Tensor, visual_at: int) -> torch.Tensor:
        e = self.embed(ids)
        x = torch.cat([e[:visual_at], visual, e[visual_at:]], dim=0)
        return self.head(torch.relu(self.mix(x)))[-1]


MODELS: Dict[str, Tuple[Callable[[], nn.Module], int, int]] = {
    # name: (tower builder, feature width, patch side in pixels)
    "vit_b_16": (lambda: VitTower(torchvision.models.vit_b_16(weights=None)), 768, 16),
    "resnet18": (lambda: ResNetTower(torchvision.models.resnet18(weights=None)), 512, 32),
    "swin_t": (lambda: SwinTower(torchvision.models.swin_t(weights=None)), 768, 32),
}


def save_user_model(name: str, folder: str) -> str:
    """Scripts the model, saves it with its manifest; returns the manifest's path."""
    build, width, patch = MODELS[name]
    torch.manual_seed(0)
    model = TinyVlm(build(), width).eval()
    archive = os.path.join(folder, name + ".pt")
    torch.jit.script(model).save(archive)
    manifest = os.path.join(folder, name + ".json")
    with open(manifest, "w") as f:
        json.dump({"format": "mvprof-model", "name": name, "torchscript": name + ".pt",
                   "image_size": 224, "patch": patch,
                   "mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225]}, f)
    return manifest


def profiler_flops(archive: str) -> Dict[str, int]:
    """torch.profiler's FLOPs per op name for one encode_image call.

    One intra-op thread: with two, torch.profiler's aten::mul count for
    Swin-T changed between processes (+37 632 or +75 264 in about one run of
    three, seen here), while FLOPs do not depend on threads."""
    torch.set_num_threads(1)
    model = torch.jit.load(archive).eval()
    pixels = torch.rand(1, 3, 224, 224)
    with torch.inference_mode():
        for _ in range(2):  # the profiling executor settles on its second call
            model.encode_image(pixels)
        with torch.profiler.profile(with_flops=True, record_shapes=True) as prof:
            model.encode_image(pixels)
    return {e.key: int(e.flops) for e in prof.key_averages() if e.flops}


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
    ap.add_argument("--models", default=",".join(MODELS))
    args = ap.parse_args()
    failures: List[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for name in args.models.split(","):
            manifest = save_user_model(name, folder)
            theirs = profiler_flops(manifest[:-5] + ".pt")
            session = os.path.join(folder, name + ".mvprof")
            ours = mvprof_flops(args.cli, manifest, args.image, session)
            failures += compare(name, ours, theirs)
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
