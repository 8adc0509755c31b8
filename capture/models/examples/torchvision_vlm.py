#!/usr/bin/python3
"""Writes a TorchScript VLM-MoE built from torchvision parts, and its mvprof
manifest with roles (docs/user-models.md).

The vision tower is a torchvision model (ViT-B/16 by default, or ResNet-18 /
Swin-T; random weights, fixed seed) with one feature row per patch; the
projector is a Linear; the decoder is written here in the Mixtral layout:
per layer an explicit-softmax attention and a sparse MoE block whose router
(`moe.gate`) and experts (`moe.experts.N`) are ordinary modules.

    /usr/bin/python3 capture/models/examples/torchvision_vlm.py OUT_DIR [--tower vit_b_16]
    mvprof-cli capture --model-file OUT_DIR/vit_b_16-moe.json --image photo.jpg --out run.mvprof

The tests import these classes: test_torchvision_flops (the towers) and
test_user_roles (the decoder).
"""

import argparse
import json
import math
import os
from typing import Callable, Dict, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

DIM, HEADS, EXPERTS, TOP_K, LAYERS, VOCAB = 64, 4, 4, 2, 2, 320


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


TOWERS: Dict[str, Tuple[Callable[[], nn.Module], int, int]] = {
    # name: (tower builder, feature width, patch side in pixels)
    "vit_b_16": (lambda: VitTower(torchvision.models.vit_b_16(weights=None)), 768, 16),
    "resnet18": (lambda: ResNetTower(torchvision.models.resnet18(weights=None)), 512, 32),
    "swin_t": (lambda: SwinTower(torchvision.models.swin_t(weights=None)), 768, 32),
}


class Attention(nn.Module):
    heads: int
    dim: int

    def __init__(self) -> None:
        super().__init__()
        self.heads, self.dim = HEADS, DIM
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.out = nn.Linear(DIM, DIM)

    def split(self, x: torch.Tensor) -> torch.Tensor:
        # [3, H, T, head dim]
        return self.qkv(x).view(x.shape[0], 3, self.heads, self.dim // self.heads).permute(1, 2, 0, 3)

    @torch.jit.export
    def probs(self, x: torch.Tensor) -> torch.Tensor:
        t = x.shape[0]
        qkv = self.split(x)
        scores = qkv[0] @ qkv[1].transpose(1, 2) / math.sqrt(self.dim // self.heads)
        mask = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)  # a GPU's too
        return torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)  # [H, T, T]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        v = self.split(x)[2]
        return self.out((self.probs(x) @ v).transpose(0, 1).reshape(x.shape[0], self.dim))


class Expert(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.w1 = nn.Linear(DIM, DIM, bias=False)
        self.w2 = nn.Linear(DIM, DIM, bias=False)
        self.w3 = nn.Linear(DIM, DIM, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoe(nn.Module):
    top_k: int  # read by mvprof from the router's parent: the manifest has no "top_k"

    def __init__(self) -> None:
        super().__init__()
        self.top_k = TOP_K
        self.gate = nn.Linear(DIM, EXPERTS, bias=False)
        self.experts = nn.ModuleList([Expert() for _ in range(EXPERTS)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        probs = torch.softmax(self.gate(x), dim=-1)
        weights, chosen = probs.topk(self.top_k, dim=-1)
        weights = weights / weights.sum(-1, keepdim=True)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            hit = chosen == e
            tokens = hit.any(-1).nonzero().squeeze(-1)
            if tokens.numel() > 0:
                w = (weights * hit).sum(-1)[tokens].unsqueeze(-1)
                out.index_add_(0, tokens, expert(x[tokens]) * w)
        return out


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(DIM)
        self.attn = Attention()
        self.norm2 = nn.LayerNorm(DIM)
        self.moe = SparseMoe()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.moe(self.norm2(x))


class Decoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, ids: torch.Tensor, visual: torch.Tensor, at: int) -> torch.Tensor:
        e = self.embed(ids)
        x = torch.cat([e[:at], visual, e[at:]], dim=0)
        for block in self.blocks:
            x = block(x)
        return self.head(x[-1])


class Vlm(nn.Module):
    """The docs/user-models.md contract: encode_image, project, forward."""

    def __init__(self, vision: nn.Module, feature_dim: int) -> None:
        super().__init__()
        self.vision = vision
        self.projector = nn.Linear(feature_dim, DIM)
        self.llm = Decoder()

    @torch.jit.export
    def encode_image(self, pixels: torch.Tensor) -> torch.Tensor:
        return self.vision(pixels)

    @torch.jit.export
    def project(self, features: torch.Tensor) -> torch.Tensor:
        return self.projector(features)

    def forward(self, ids: torch.Tensor, visual: torch.Tensor, visual_at: int) -> torch.Tensor:
        return self.llm(ids, visual, visual_at)


# The roles of this layout: regular expressions over module paths.
ROLES = {"vision": "^vision$", "projector": "^projector$", "llm": "^llm$",
         "attention": r"\.attn$", "moe": r"\.moe$", "router": r"\.moe\.gate$",
         "expert": r"\.experts\.\d+$"}


def save(model: nn.Module, folder: str, name: str, patch: int, roles: Dict[str, str] = ROLES,
         extra: Dict[str, object] = {}) -> str:
    """Scripts `model` into FOLDER/NAME.pt and writes FOLDER/NAME.json; returns the manifest."""
    torch.jit.script(model).save(os.path.join(folder, name + ".pt"))
    manifest = os.path.join(folder, name + ".json")
    with open(manifest, "w") as f:
        json.dump({"format": "mvprof-model", "name": name, "torchscript": name + ".pt",
                   "image_size": 224, "patch": patch, "roles": roles, **extra}, f, indent=2)
    return manifest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", help="folder for the archive and the manifest")
    ap.add_argument("--tower", choices=sorted(TOWERS), default="vit_b_16")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    build, width, patch = TOWERS[args.tower]
    torch.manual_seed(0)
    model = Vlm(build(), width).eval()
    # ImageNet normalisation, as torchvision's models expect.
    print(save(model, args.out, args.tower + "-moe", patch,
               extra={"mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225]}))


if __name__ == "__main__":
    main()
