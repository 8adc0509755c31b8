#!/usr/bin/python3
"""A small LLaVA-layout vision-language model with a Mixtral-layout MoE
decoder, profiled with the mvprof package: one image + prompt, greedy
decoding with a KV cache, optionally what-ifs, then the report (and the GUI).

The model is eager PyTorch with random weights (fixed seed): torchvision's
VisionTransformer as `vision_tower`, a two-layer `multi_modal_projector`, and
`language_model.layers.N` with `self_attn` and `block_sparse_moe` (`gate`,
`experts.M`) — the Hugging Face names, so mvprof's default roles find every
part without a `roles` argument.

    /usr/bin/python3 llava_moe.py --out run.mvprof [--image photo.jpg] [--whatif w8 w4 …] [--open]
    mvprof-cli launch --out run.mvprof -- /usr/bin/python3 llava_moe.py

Without --out the session is $MVPROF_OUT (as `mvprof-cli launch` sets it).
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
from typing import List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

try:
    import mvprof
except ImportError:  # run from a source checkout: the build's package
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "..", "build", "python"))
    import mvprof

DIM, HEADS, LAYERS, EXPERTS, TOP_K, VOCAB, BOS = 128, 4, 4, 8, 2, 259, 256
IMAGE_SIZE, PATCH = 224, 16
KvCache = List[Optional[Tuple[torch.Tensor, torch.Tensor]]]


class SelfAttention(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.q_proj, self.k_proj = nn.Linear(DIM, DIM), nn.Linear(DIM, DIM)
        self.v_proj, self.o_proj = nn.Linear(DIM, DIM), nn.Linear(DIM, DIM)

    def forward(self, x: torch.Tensor, cache: Optional[Tuple[torch.Tensor, torch.Tensor]]):
        t, d = x.shape[0], DIM // HEADS
        q, k, v = (p(x).view(t, HEADS, d).transpose(0, 1) for p in
                   (self.q_proj, self.k_proj, self.v_proj))
        if cache is not None:
            k, v = torch.cat([cache[0], k], 1), torch.cat([cache[1], v], 1)
        scores = q @ k.transpose(1, 2) / math.sqrt(d)
        past = k.shape[1] - t  # causal: query i sees keys up to past + i
        mask = torch.ones(t, k.shape[1], dtype=torch.bool).triu(past + 1)
        probs = torch.softmax(scores.masked_fill(mask, float("-inf")), -1)
        return self.o_proj((probs @ v).transpose(0, 1).reshape(t, DIM)), (k, v)


class Expert(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.w1 = nn.Linear(DIM, 2 * DIM, bias=False)
        self.w3 = nn.Linear(DIM, 2 * DIM, bias=False)
        self.w2 = nn.Linear(2 * DIM, DIM, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoeBlock(nn.Module):
    """Mixtral's layout: the router `gate` gives logits, softmax → top-k."""

    def __init__(self) -> None:
        super().__init__()
        self.top_k = TOP_K
        self.gate = nn.Linear(DIM, EXPERTS, bias=False)
        self.experts = nn.ModuleList(Expert() for _ in range(EXPERTS))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        weights, chosen = torch.softmax(self.gate(x), -1).topk(self.top_k, -1)
        weights = weights / weights.sum(-1, keepdim=True)
        out = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            rows, slot = (chosen == e).nonzero(as_tuple=True)
            if rows.numel():
                out.index_add_(0, rows, expert(x[rows]) * weights[rows, slot].unsqueeze(-1))
        return out


class DecoderLayer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.input_layernorm, self.post_attention_layernorm = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.self_attn = SelfAttention()
        self.block_sparse_moe = SparseMoeBlock()

    def forward(self, x, cache):
        h, cache = self.self_attn(self.input_layernorm(x), cache)
        x = x + h
        return x + self.block_sparse_moe(self.post_attention_layernorm(x)), cache


class LanguageModel(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, DIM)
        self.layers = nn.ModuleList(DecoderLayer() for _ in range(LAYERS))
        self.norm = nn.LayerNorm(DIM)
        self.lm_head = nn.Linear(DIM, VOCAB)

    def forward(self, inputs_embeds: torch.Tensor, cache: KvCache):
        x = inputs_embeds
        for i, layer in enumerate(self.layers):
            x, cache[i] = layer(x, cache[i])
        return self.lm_head(self.norm(x[-1:]))[0]  # 2-D rows, as int8 kernels want


class VisionTower(nn.Module):
    """torchvision's VisionTransformer, one feature row per patch (CLS dropped)."""

    def __init__(self, vit: torchvision.models.VisionTransformer) -> None:
        super().__init__()
        self.vit = vit

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        x = self.vit._process_input(pixels)
        x = torch.cat([self.vit.class_token.expand(x.shape[0], -1, -1), x], 1)
        return self.vit.encoder(x)[0, 1:]


class LlavaMoe(nn.Module):
    def __init__(self, tower: str) -> None:
        super().__init__()
        vit = (torchvision.models.vit_b_16(weights=None) if tower == "vit_b_16" else
               torchvision.models.VisionTransformer(IMAGE_SIZE, PATCH, num_layers=4, num_heads=4,
                                                    hidden_dim=256, mlp_dim=1024))
        self.vision_tower = VisionTower(vit)
        self.multi_modal_projector = nn.Sequential(nn.Linear(vit.hidden_dim, DIM), nn.GELU(),
                                                   nn.Linear(DIM, DIM))
        self.language_model = LanguageModel()


def load_pixels(path: str) -> torch.Tensor:
    img = torchvision.io.read_image(path, torchvision.io.ImageReadMode.RGB).float() / 255
    img = F.interpolate(img[None], size=(IMAGE_SIZE, IMAGE_SIZE), mode="bilinear",
                        align_corners=False)
    mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
    return (img - mean) / std


def generate(prof: "mvprof.Profile", model: LlavaMoe, image: str, prompt: str,
             steps: int) -> List[int]:
    """One image + prompt, greedy with a KV cache: every phase marked."""
    with prof.phase("preprocess"):
        pixels = load_pixels(image)
    with prof.phase("vision"):
        features = model.vision_tower(pixels)
    with prof.phase("projector"):
        visual = model.multi_modal_projector(features)
    grid = IMAGE_SIZE // PATCH
    prof.visual_tokens(start=1, grid=(grid, grid), patch=PATCH, input_size=IMAGE_SIZE)
    lm = model.language_model
    text = torch.tensor(list(prompt.encode()))
    cache: KvCache = [None] * LAYERS
    with prof.phase("prefill"):
        embeds = torch.cat([lm.embed_tokens(torch.tensor([BOS])), visual, lm.embed_tokens(text)])
        token = prof.output(lm(embeds, cache))
    out = [token]
    for step in range(1, steps + 1):
        with prof.phase("decode", step):
            token = prof.output(lm(lm.embed_tokens(torch.tensor([token])), cache))
        out.append(token)
    return out


TRANSFORMS = {"w8": lambda: mvprof.W8(), "w4": lambda: mvprof.W4(),
              "freeze-cold": lambda: mvprof.FreezeCold(window=32),
              "prune-visual": lambda: mvprof.PruneVisual(keep=0.4),
              "fastv": lambda: mvprof.FastV(k=2, r=0.5), "pdrop": lambda: mvprof.PyramidDrop(0.5),
              "visionzip": lambda: mvprof.VisionZip(64)}


def default_image() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    for p in (os.path.join(here, "..", "..", "..", "resources", "samples", "astronaut.png"),
              "/usr/share/mvprof/samples/astronaut.png"):
        if os.path.exists(p):
            return os.path.abspath(p)
    raise SystemExit("no --image given and the bundled sample is not installed")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="session file (default: $MVPROF_OUT)")
    ap.add_argument("--image", default=None)
    ap.add_argument("--prompt", default="What is in this picture?")
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--tower", choices=["small", "vit_b_16"], default="small")
    ap.add_argument("--whatif", nargs="*", choices=sorted(TRANSFORMS), default=[])
    ap.add_argument("--open", action="store_true", help="open the session in mvprof's GUI")
    args = ap.parse_args()
    image = args.image or default_image()
    torch.manual_seed(0)
    model = LlavaMoe(args.tower).eval()
    # Every run gets one unrecorded pass first, so no run pays first-call costs.
    warmup = lambda p: generate(p, p.model, image, args.prompt, args.steps)  # noqa: E731
    with torch.inference_mode():
        with mvprof.profile(args.out, model, image=image, prompt=args.prompt,
                            force=args.out is not None, warmup=warmup) as base:
            tokens = generate(base, model, image, args.prompt, args.steps)
        print(f"baseline run {base.run_id}: {bytes(t for t in tokens if t < 256)!r}")
        for name in args.whatif:
            with mvprof.whatif(base, model, TRANSFORMS[name](), warmup=warmup) as w:
                generate(w, w.model, image, args.prompt, args.steps)
            print(f"what-if {name}: run {w.run_id}")
    here = os.path.dirname(os.path.abspath(__file__))
    cli = shutil.which("mvprof-cli") or os.environ.get("MVP_CLI") or next(
        (p for p in [os.path.join(here, "..", "..", "..", "build", "bin", "mvprof-cli")]
         if os.path.exists(p)), None)
    if cli:
        subprocess.run([cli, "report", base.path], check=False)
    if args.open:
        gui = shutil.which("mvprof")
        if not gui:
            print("the mvprof GUI is not on PATH: open", base.path, "in it", file=sys.stderr)
            return 1
        subprocess.Popen([gui, base.path])
    return 0


if __name__ == "__main__":
    sys.exit(main())
