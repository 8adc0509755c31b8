#!/usr/bin/python3
"""FastV, PyramidDrop and VisionZip on an eager model the package has never seen
(capture/python/examples/llava_moe.py: 4 decoder layers, a KV cache, no
positions in its decoder), checked against the test's own in-place drop:

- the test runs the model layer by layer itself, computes each scoring
  layer's attention from its q/k projections (softmax, causal), keeps the
  top tokens by torch.topk and *removes* the others from the sequence and
  from the deeper layers' caches — the papers' in-place drop. Every step's
  logits of mvprof's masked what-if equal those (so its KL and top-1 agree
  with the test's), and the kept sets it stored (patch metric tokens.kept)
  are the test's;
- the counts: FastV K=2 R=0.5 keeps round(0.5·196) = 98 from layer 2 (so
  (2·196 + 2·98)/4 = 147 image tokens per layer on average); PyramidDrop
  λ=0.5 keeps int(196·0.5^s) = 98, 49, 24 from layers 1, 2, 3; the predicted
  token-layer ratio worked from those counts and the prompt's length;
- A/B repetitions with the mask on the what-if's timed passes;
- refusals: K beyond the depth, no attention role inside the llm, and an
  attention without a softmax (a fused kernel): the run fails with the reason;
- VisionZip 64 (54 dominant + 10 contextual) on the example's torchvision
  ViT (nn.MultiheadAttention, a CLS token the tower drops): the patches sent
  and every step's logits equal VisionZip's clip_encoder.py steps done here
  on torch's own attention weights (need_weights=True); a budget of every
  token is refused before anything is written; the same (32 sent) with that
  block's attention as eager code (q @ kᵀ, softmax), read as it runs.
Run by CTest with Debian's /usr/bin/python3.
"""

import math
import os
import sqlite3
import sys
import tempfile
from typing import Dict, List, Optional, Sequence, Tuple

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_rows import patch_rows  # noqa: E402
import test_python_whatif as common  # noqa: E402  (Spy, run, warmup, diff, check_fidelity)

mvprof, example = common.mvprof, common.example
IMAGE, PROMPT, STEPS = common.IMAGE, common.PROMPT, common.STEPS
check, failures = common.check, common.failures
GRID = (example.IMAGE_SIZE // example.PATCH) ** 2  # 196 image tokens from position 1


def attention_probs(layer, x: torch.Tensor) -> torch.Tensor:
    """[heads, t, t]: the example's causal self-attention on the layer's input."""
    h = layer.input_layernorm(x)
    a, t, d = layer.self_attn, x.shape[0], example.DIM // example.HEADS
    q = a.q_proj(h).view(t, example.HEADS, d).transpose(0, 1)
    k = a.k_proj(h).view(t, example.HEADS, d).transpose(0, 1)
    scores = q @ k.transpose(1, 2) / math.sqrt(d)
    return torch.softmax(scores.masked_fill(torch.ones(t, t, dtype=torch.bool).triu(1),
                                            float("-inf")), -1)


def in_place(model, cuts: Dict[int, int], own_layer: bool) -> Tuple[List[torch.Tensor],
                                                                    Dict[int, List[int]]]:
    """The drop done by hand: before layer l in `cuts`, the image rows still
    held are cut to cuts[l] by the last query's attention (mean over heads)
    in layer l (own_layer, PyramidDrop) or l − 1 (FastV). Returns each step's
    logits and the image indices each cut kept."""
    lm = model.language_model
    visual = model.multi_modal_projector(model.vision_tower(example.load_pixels(IMAGE)))
    text = torch.tensor(list(PROMPT.encode()))
    x = torch.cat([lm.embed_tokens(torch.tensor([example.BOS])), visual, lm.embed_tokens(text)])
    image = list(range(GRID))           # image indices the sequence still holds
    rows = list(range(x.shape[0]))      # original positions of x's rows
    cache, kept, logits = [None] * example.LAYERS, {}, []
    previous: Optional[torch.Tensor] = None
    for l, layer in enumerate(lm.layers):
        if l in cuts:
            probs = attention_probs(layer, x) if own_layer else previous
            at = [rows.index(1 + i) for i in image]
            scores = probs[:, -1, at].mean(0)
            top = sorted(scores.topk(cuts[l]).indices.tolist())
            image = [image[i] for i in top]
            keep = [r for r, pos in enumerate(rows) if not 1 <= pos <= GRID or pos - 1 in image]
            x, rows = x[keep], [rows[r] for r in keep]
            kept[l] = list(image)
        previous = attention_probs(layer, x)
        x, cache[l] = layer(x, None)
    logits.append(lm.lm_head(lm.norm(x[-1:]))[0].double())
    for _ in range(STEPS):
        x = lm.embed_tokens(torch.tensor([int(logits[-1].argmax())]))
        for l, layer in enumerate(lm.layers):
            x, cache[l] = layer(x, cache[l])
        logits.append(lm.lm_head(lm.norm(x[-1:]))[0].double())
    return logits, kept


def stored_kept(session: str, run: int) -> Dict[int, List[int]]:
    kept: Dict[int, List[int]] = {}
    for layer, patch, value in patch_rows(sqlite3.connect(session), "tokens.kept", run):
        if value == 1:
            kept.setdefault(layer, []).append(patch)
    return kept


def metrics(session: str, run: int) -> Dict[str, Tuple[float, str]]:
    return {n: (v, k) for n, v, k in sqlite3.connect(session).execute(
        "SELECT name, value, kind FROM run_metric WHERE run=?", (run,))}


def check_method(session: str, model, base, transform, cuts: Dict[int, int],
                 own_layer: bool) -> None:
    name = transform.name
    with mvprof.whatif(base.prof, model, transform, warmup=common.warmup) as w:
        spy = common.run(w)
    want, kept = in_place(model, cuts, own_layer)
    worst = max(float((a - b).abs().max()) for a, b in zip(spy.logits, want))
    print(f"  {name}: kept {[len(k) for k in kept.values()]}; max |logit masked − in place| "
          f"{worst:.2g}")
    check(len(spy.logits) == len(want) and worst < 1e-4,
          f"{name}: logits differ from the in-place drop by {worst}")
    common.check_fidelity(name, common.diff(session, w.run_id), base.logits, want)
    stored = stored_kept(session, w.run_id)
    for layer in range(example.LAYERS):
        cut = max((c for c in cuts if c <= layer), default=None)
        expect = kept[cut] if cut is not None else list(range(GRID))
        check(stored.get(layer) == expect,
              f"{name}: layer {layer} kept {stored.get(layer, [])[:6]}…, the test {expect[:6]}…")
    m = metrics(session, w.run_id)
    for layer, keep in cuts.items():
        check(m.get(f"tokens.kept.layer_{layer}", (None,))[0] == keep,
              f"{name}: tokens.kept.layer_{layer} {m.get(f'tokens.kept.layer_{layer}')}")
    held = [GRID if not any(c <= l for c in cuts) else cuts[max(c for c in cuts if c <= l)]
            for l in range(example.LAYERS)]
    text = 1 + len(PROMPT.encode())
    averaged, ratio = sum(held) / len(held), sum(text + h for h in held) / (4 * (text + GRID))
    got = m.get("flops.token_layer_ratio", (None, ""))
    print(f"  {name}: layer-averaged {m.get('tokens.layer_averaged')}, token-layer ratio {got}")
    check(abs(m.get("tokens.layer_averaged", (0,))[0] - averaged) < 1e-9,
          f"{name}: layer-averaged {m.get('tokens.layer_averaged')} vs {averaged}")
    check(got[1] == "predicted" and abs(got[0] - ratio) < 1e-9,
          f"{name}: token-layer ratio {got} vs {ratio}")


def check_repetitions(session: str, model, base) -> None:
    masked = [0]

    class Counting(mvprof.FastV):
        def attach(self, prof, m, patterns):
            if type(prof).__name__ == "TimedPass":
                masked[0] += 1
            return super().attach(prof, m, patterns)

    with mvprof.whatif(base.prof, model, Counting(k=2, r=0.5), reps=2, run=common.warmup) as w:
        spy = common.run(w)
    want, _ = in_place(model, {2: 98}, False)
    rows = sqlite3.connect(session).execute(
        "SELECT count(*), count(DISTINCT rep) FROM repetition WHERE run=?", (w.run_id,)).fetchone()
    print(f"  fastv reps: {rows[0]} rows over {rows[1]} repetitions; mask on {masked[0]} timed "
          "passes")
    check(rows[1] == 2 and rows[0] > 0, f"fastv repetition rows {rows}")
    check(masked[0] == 3, f"the mask was on {masked[0]} timed passes, not the warm-up and 2")
    worst = max(float((a - b).abs().max()) for a, b in zip(spy.logits, want))
    check(worst < 1e-4, f"fastv with reps: logits off the in-place drop by {worst}")


def fused(probs_free: torch.nn.Module):
    """A self-attention that normalises without a softmax call, as a fused
    kernel would: its probabilities are invisible."""
    a = probs_free

    def forward(x, cache):
        t, d = x.shape[0], example.DIM // example.HEADS
        q, k, v = (p(x).view(t, example.HEADS, d).transpose(0, 1)
                   for p in (a.q_proj, a.k_proj, a.v_proj))
        if cache is not None:
            k, v = torch.cat([cache[0], k], 1), torch.cat([cache[1], v], 1)
        s = q @ k.transpose(1, 2) / math.sqrt(d)
        s = s.masked_fill(torch.ones(t, k.shape[1], dtype=torch.bool).triu(k.shape[1] - t + 1),
                          float("-inf"))
        e = (s - s.amax(-1, keepdim=True)).exp()
        return a.o_proj(((e / e.sum(-1, keepdim=True)) @ v).transpose(0, 1).reshape(t, -1)), (k, v)
    return forward


def check_refusals(session: str, model, base) -> None:
    for what, make, words in [
        ("K beyond the depth", lambda: mvprof.FastV(k=4), "from 1 to 3"),
        ("no attention in the llm", lambda: mvprof.PyramidDrop(0.5), "attention role"),
    ]:
        roles = dict(mvprof.DEFAULT_ROLES, attention=r"\.no_such$") if "attention" in what \
            else None
        try:
            mvprof.whatif(base.prof, model, make(), roles=roles).__enter__()
            failures.append(f"refusal '{what}' accepted")
        except mvprof.MvprofError as e:
            print(f"  refused ({what}): {e}")
            check(words in str(e), f"{what}: {e}")
    attention = model.language_model.layers[1].self_attn
    attention.forward = fused(attention)
    try:
        with mvprof.whatif(base.prof, model, mvprof.FastV(k=2, r=0.5)) as w:
            common.run(w)
        failures.append("FastV ran without layer 1's attention")
    except mvprof.MvprofError as e:
        print(f"  refused (fused attention): {e}")
        check("eager attention" in str(e) and "language_model.layers.1.self_attn" in str(e),
              f"fused attention: {e}")
    finally:
        del attention.forward
    status = sqlite3.connect(session).execute(
        "SELECT status FROM run ORDER BY id DESC LIMIT 1").fetchone()
    check(status is not None and status[0] == "failed", f"the fused-attention run is {status}")
    try:  # a block that never runs the decoder: no cut, the run kept as failed with why
        with mvprof.whatif(base.prof, model, mvprof.FastV(k=2, r=0.5)):
            pass
        failures.append("FastV without a prefill passed")
    except mvprof.MvprofError as e:
        print(f"  refused (no prefill): {e}")
    row = sqlite3.connect(session).execute(
        "SELECT status, error FROM run ORDER BY id DESC LIMIT 1").fetchone()
    check(row is not None and row[0] == "failed" and "made no cut" in row[1],
          f"the run without a prefill: {row}")


def visionzip_by_hand(model, budget: int) -> Tuple[torch.Tensor, List[int]]:
    """VisionZip as dvlab-research/VisionZip's clip_encoder.py does it (batch
    1), on the example's torchvision ViT: its last block's attention as
    nn.MultiheadAttention computes it with need_weights=True, the keys from
    its in_proj weights (mean over heads), the CLS row ranking the patches.
    Returns the projector's input and the patches sent."""
    block = model.vision_tower.vit.encoder.layers[-1]
    mha, seen = block.self_attention, {}
    hook = block.ln_1.register_forward_hook(lambda m, a, out: seen.setdefault("x", out.detach()))
    features = model.vision_tower(example.load_pixels(IMAGE))
    hook.remove()
    x, e, heads = seen["x"], mha.embed_dim, mha.num_heads
    _, weights = mha(x, x, x, need_weights=True, average_attn_weights=False)
    keys = torch.nn.functional.linear(x, mha.in_proj_weight[e:2 * e], mha.in_proj_bias[e:2 * e])
    keys = keys.view(1, x.shape[1], heads, e // heads).mean(2)[0, 1:]
    contextual = round(budget * 10 / 64)
    dominant = budget - contextual
    kept = torch.zeros(GRID, dtype=torch.bool)
    kept[weights[0, :, 0, 1:].sum(0).topk(dominant).indices] = True
    dom, rest = kept.nonzero().flatten(), (~kept).nonzero().flatten()
    metric = keys[rest] / keys[rest].norm(dim=-1, keepdim=True)
    targets = torch.arange(0, len(rest), max(1, len(rest) // contextual))[:contextual]
    is_target = torch.zeros(len(rest), dtype=torch.bool)
    is_target[targets] = True
    assign = torch.nn.functional.one_hot(
        (metric[~is_target] @ metric[targets].T).argmax(1), contextual).to(features.dtype)
    hidden = features[rest]
    merged = (assign.T @ hidden[~is_target]) / assign.sum(0).clamp(min=1)[:, None]
    tokens = torch.cat([features[dom], hidden[targets] + merged])
    return tokens, dom.tolist() + rest[targets].tolist()


def generate_from(model, features: torch.Tensor) -> List[torch.Tensor]:
    """The example's decoding from a given projector input, greedy, KV cache."""
    lm = model.language_model
    visual = model.multi_modal_projector(features)
    text = torch.tensor(list(PROMPT.encode()))
    cache: list = [None] * example.LAYERS
    embeds = torch.cat([lm.embed_tokens(torch.tensor([example.BOS])), visual, lm.embed_tokens(text)])
    logits = [lm(embeds, cache).double()]
    for _ in range(STEPS):
        logits.append(lm(lm.embed_tokens(torch.tensor([int(logits[-1].argmax())])), cache).double())
    return logits


def check_visionzip(session: str, model, base) -> None:
    with mvprof.whatif(base.prof, model, mvprof.VisionZip(64), reps=1, run=common.warmup) as w:
        spy = common.run(w)
    tokens, sent = visionzip_by_hand(model, 64)
    want = generate_from(model, tokens)
    worst = max(float((a - b).abs().max()) for a, b in zip(spy.logits, want))
    got = [p for (p,) in sqlite3.connect(session).execute(
        "SELECT patch FROM token WHERE run=? AND modality='visual' ORDER BY position",
        (w.run_id,))]
    m = metrics(session, w.run_id)
    print(f"  visionzip 64: sent {len(got)} ({m.get('visionzip.dominant')} dominant); max |logit "
          f"mvprof − by hand| {worst:.2g}")
    check(got == sent, f"visionzip sent {got[:8]}…, by hand {sent[:8]}…")
    check(len(spy.logits) == len(want) and worst < 1e-4, f"visionzip logits off by {worst}")
    check(m.get("visionzip.dominant", (0,))[0] == 54 and
          m.get("visionzip.contextual", (0,))[0] == 10 and
          m.get("visionzip.merged", (0,))[0] == GRID - 64, f"visionzip metrics {m}")
    common.check_fidelity("visionzip", common.diff(session, w.run_id), base.logits, want)
    runs = sqlite3.connect(session).execute("SELECT count(*) FROM run").fetchone()[0]
    try:
        mvprof.whatif(base.prof, model, mvprof.VisionZip(GRID)).__enter__()
        failures.append("VisionZip sending every token accepted")
    except mvprof.MvprofError as e:
        print(f"  refused (VisionZip {GRID}): {e}")
        check("from 2 to 195" in str(e), f"VisionZip {GRID}: {e}")
    check(sqlite3.connect(session).execute("SELECT count(*) FROM run").fetchone()[0] == runs,
          "a refused VisionZip wrote a run")


class EagerAttention(torch.nn.Module):
    """An nn.MultiheadAttention's weights run as eager code (q @ kᵀ, softmax),
    as Hugging Face's CLIPAttention does: mvprof reads it as it runs."""

    def __init__(self, mha: torch.nn.MultiheadAttention) -> None:
        super().__init__()
        self.mha = mha

    def forward(self, query, key, value, need_weights=False):
        m, (b, t, e) = self.mha, query.shape
        h, d = m.num_heads, e // m.num_heads
        q, k, v = torch.nn.functional.linear(query, m.in_proj_weight, m.in_proj_bias).chunk(3, -1)
        q, k, v = (z.view(b, t, h, d).transpose(1, 2) for z in (q, k, v))
        probs = torch.nn.functional.softmax(torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d),
                                            dim=-1)
        return m.out_proj((probs @ v).transpose(1, 2).reshape(b, t, e)), None


def check_visionzip_eager(session: str, model, base) -> None:
    block = model.vision_tower.vit.encoder.layers[-1]
    mha = block.self_attention
    block.self_attention = EagerAttention(mha)
    roles = dict(mvprof.DEFAULT_ROLES, attention=r"\.(self_attn|self_attention)$")
    try:
        with mvprof.whatif(base.prof, model, mvprof.VisionZip(32), roles=roles) as w:
            spy = common.run(w)
        block.self_attention = mha  # the by-hand reading takes torch's weights from it
        tokens, sent = visionzip_by_hand(model, 32)
    finally:
        block.self_attention = mha
    want = generate_from(model, tokens)
    worst = max(float((a - b).abs().max()) for a, b in zip(spy.logits, want))
    got = [p for (p,) in sqlite3.connect(session).execute(
        "SELECT patch FROM token WHERE run=? AND modality='visual' ORDER BY position",
        (w.run_id,))]
    print(f"  visionzip 32, eager attention: sent {len(got)}; max |logit − by hand| {worst:.2g}")
    check(got == sent, f"visionzip (eager) sent {got[:8]}…, by hand {sent[:8]}…")
    check(worst < 1e-4, f"visionzip (eager) logits off by {worst}")


def main() -> int:
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = example.LlavaMoe("small").eval()
    with tempfile.TemporaryDirectory() as folder, torch.inference_mode():
        session = os.path.join(folder, "drop.mvprof")
        with mvprof.profile(session, model, image=IMAGE, prompt=PROMPT, force=True,
                            warmup=common.warmup) as prof:
            base = common.run(prof)
        check_method(session, model, base, mvprof.FastV(k=2, r=0.5), {2: 98}, False)
        check_method(session, model, base, mvprof.PyramidDrop(0.5), {1: 98, 2: 49, 3: 24}, True)
        check_repetitions(session, model, base)
        check_visionzip(session, model, base)
        check_visionzip_eager(session, model, base)
        check_refusals(session, model, base)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
