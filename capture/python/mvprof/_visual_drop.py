"""FastV and PyramidDrop on eager models (docs/whatif-methods.md §1;
the cuts and their budgets are the C++ planner's, capture/whatif/TokenDrop.h,
through the C ABI).

A model written by someone else computes its own positions, masks and KV
cache, so mvprof cannot take image tokens out of its sequence. It masks them
instead — FastV's own second implementation (its `fast_v_inplace=False`
attention mask): from a cut's layer on, every softmax over the sequence
inside the decoder's attention-role modules gets the dropped positions'
scores set to the dtype's lowest value, so they receive exactly zero
probability, in the prefill and in every decode step (as if their keys and
values had left the cache). What each kept token computes is then exactly
what the in-place drop gives it when the kept tokens keep their positions —
FastV's case (position_ids = keep_indexs). PyramidDrop renumbers the kept
sequence (position_ids = arange): with masking the kept tokens keep their
original positions, which changes what a rotary-position model computes (a
model without positions in its decoder is unaffected); the run says so.

The masked tokens are still computed, so the run's time and FLOPs are the
full model's: the reduction is *predicted* (`flops.token_layer_ratio`),
and the built-in model's FastV measures it.

Decoder layer l is the l-th attention-role module inside the llm role, in
the model's module order.
"""

from __future__ import annotations

import contextlib
import ctypes
from typing import List, Optional, Sequence, Tuple

import torch
from torch.overrides import TorchFunctionMode

from . import _abi
from ._abi import MvprofError
from ._passes import SOFTMAX_CALLS, role_of, role_paths, within
from ._profile import Profile
from ._transform import Transform

_FASTV, _PDROP = 0, 1  # mvprof_plan_token_drop's methods


def decoder_attention(model: torch.nn.Module, patterns) -> List[Tuple[str, torch.nn.Module]]:
    """The attention-role modules inside the llm role's modules, in module order."""
    llm = role_paths(model, patterns, "llm")
    return [(p, m) for p, m in model.named_modules()
            if p and role_of(patterns, p) == "attention" and within(llm, p)]


class _Plan:
    """The cuts for `visual` image tokens: before layer layers[i], keep[i] stay."""

    def __init__(self, method: int, depth: int, visual: int, k: int, parameter: float) -> None:
        cap = 16
        layers, keep = (ctypes.c_int * cap)(), (ctypes.c_longlong * cap)()
        count, averaged = ctypes.c_int(), ctypes.c_double()
        _abi.check(_abi.library().mvprof_plan_token_drop(
            method, depth, visual, k, parameter, layers, keep, cap, ctypes.byref(count),
            ctypes.byref(averaged)))
        n = min(count.value, cap)
        self.layers, self.keep = list(layers[:n]), list(keep[:n])
        self.layer_averaged = averaged.value


def _top(scores: torch.Tensor, keep: int) -> List[int]:
    """mvprof's top-k (ties: the earlier), ascending: FastV's keep_indexs, sorted."""
    s = scores.detach().double().contiguous().cpu()
    out = (ctypes.c_longlong * max(keep, 1))()
    _abi.check(_abi.library().mvprof_top_scores(
        ctypes.cast(s.data_ptr(), ctypes.POINTER(ctypes.c_double)), s.numel(), keep, out))
    return list(out[:keep])


class _Pass:
    """One pass's (or recorded run's) cuts: chosen in the prefill, applied to
    every softmax over the sequence at or after each cut's layer."""

    def __init__(self, drop: "DecoderTokenDrop", prof, paths: Sequence[str]) -> None:
        self.drop, self.prof, self.paths = drop, prof, list(paths)
        self.inside: List[int] = []  # decoder layers whose attention is open, innermost last
        # On only inside those modules: a mode costs every torch call a Python round trip.
        self.mode = _Mask(self)
        self.stored_layer = {}       # decoder layer -> mvprof's layer number (recorded run)
        self.serial: Optional[int] = None
        self._reset()

    def _reset(self) -> None:
        self.plan: Optional[_Plan] = None
        self.kept: List[List[int]] = []            # per cut made: image indices, ascending
        self.dropped: List[torch.Tensor] = []      # per cut made: sequence positions masked
        self.prefill_positions = 0

    # -- the attention modules' hooks -----------------------------------------
    def enter(self, layer: int) -> None:
        p = self.prof
        if p.current_phase == "prefill" and p.phase_serial != self.serial:
            self._reset()  # a new pass: choose again
            self.serial = p.phase_serial
        if isinstance(p, Profile) and layer not in self.stored_layer:
            self.stored_layer[layer] = p.current_layer()
        if self.plan is None:
            if p.visual_span is None:
                raise MvprofError(f"{self.drop.name} needs to know where the image tokens are: "
                                  "call prof.visual_tokens(start=..., grid=...) before the prefill")
            self.plan = _Plan(self.drop.method, len(self.paths), p.visual_span[1], self.drop.k,
                              self.drop.parameter)
        if not self.inside:
            self.mode.__enter__()
        self.inside.append(layer)

    def leave(self) -> None:
        layer = self.inside.pop()
        if not self.inside:
            self.mode.__exit__(None, None, None)
        self._check_cut(layer)

    def remove(self) -> None:
        """With the hooks: an attention module that raised left the mode on."""
        if self.inside:
            self.inside.clear()
            self.mode.__exit__(None, None, None)

    def _check_cut(self, layer: int) -> None:
        """The scoring layer of the next cut has run: its cut must be made."""
        c = len(self.kept)
        if c < len(self.plan.layers) and layer >= self.drop.scoring_layer(self.plan.layers[c]):
            start, n = self.prof.visual_span
            raise MvprofError(
                f"{self.drop.name} ranks the image tokens by the attention inside "
                f"{self.paths[layer]} (decoder layer {layer}), but no softmax over the sequence "
                f"(at least {start + n} keys, the image at {start}..{start + n - 1}) ran in it: a "
                "fused kernel (scaled_dot_product_attention) keeps its probabilities to itself — "
                "load the model with eager attention (attn_implementation=\"eager\")")

    # -- softmax ------------------------------------------------------------
    def softmax(self, func, args, kwargs):
        x = args[0]
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        start, n = self.prof.visual_span or (0, 0)
        if (not torch.is_tensor(x) or x.dim() < 2 or dim not in (-1, x.dim() - 1)
                or n == 0 or x.shape[-1] < start + n):
            return func(*args, **kwargs)  # not a softmax over the sequence
        layer, rest = self.inside[-1], args[1:]
        c = len(self.kept)
        scoring = (c < len(self.plan.layers) and x.shape[-2] > 1
                   and layer == self.drop.scoring_layer(self.plan.layers[c]))
        if scoring and self.plan.layers[c] == layer:
            # PyramidDrop: the layer's own attention ranks, then the layer runs cut.
            with self.prof.paused():
                self._cut(func(self._masked(x, layer), *rest, **kwargs), x.shape[-1])
            return func(self._masked(x, layer), *rest, **kwargs)
        out = func(self._masked(x, layer), *rest, **kwargs)
        if scoring:  # FastV: layer K − 1's attention, the cut from layer K on
            with self.prof.paused():
                self._cut(out, x.shape[-1])
        return out

    def _last_cut(self, layer: int) -> Optional[int]:
        """The index of the last cut made at or before `layer`, if any."""
        made = [c for c, cut in enumerate(self.plan.layers[:len(self.kept)]) if cut <= layer]
        return made[-1] if made else None

    def _masked(self, x: torch.Tensor, layer: int) -> torch.Tensor:
        c = self._last_cut(layer)
        if c is None or self.dropped[c].numel() == 0:
            return x
        # The lowest finite score: exp() makes it exactly 0 next to any real
        # score, and a row with nothing else left stays finite (no NaN).
        return x.index_fill(-1, self.dropped[c].to(x.device), torch.finfo(x.dtype).min)

    def _cut(self, probs: torch.Tensor, positions: int) -> None:
        """The last query's attention on the image tokens still held, mean over heads."""
        start, n = self.prof.visual_span
        with torch.no_grad():
            p = probs.detach().float().reshape(-1, probs.shape[-2], probs.shape[-1])
            scores = p[:, -1, start:start + n].mean(0)
            held = self.kept[-1] if self.kept else list(range(n))
            chosen = _top(scores[torch.tensor(held, dtype=torch.long)],
                          self.plan.keep[len(self.kept)])
        kept = [held[i] for i in chosen]
        gone = sorted(set(range(n)) - set(kept))
        self.kept.append(kept)
        self.dropped.append(torch.tensor([start + i for i in gone], dtype=torch.long))
        self.prefill_positions = positions

    # -- what the recorded run learnt -----------------------------------------
    def held_at(self, layer: int) -> List[int]:
        """The image tokens (indices) decoder layer `layer`'s input held."""
        c = self._last_cut(layer)
        return self.kept[c] if c is not None else list(range(self.prof.visual_span[1]))


class _Mask(TorchFunctionMode):
    """Hands every softmax inside a decoder attention module to the pass."""

    def __init__(self, state: _Pass) -> None:
        super().__init__()
        self.state = state

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in SOFTMAX_CALLS:
            return self.state.softmax(func, args, kwargs or {})
        return func(*args, **(kwargs or {}))


class DecoderTokenDrop(Transform):
    """A published in-LLM visual-token method by attention masking (above)."""

    method = _FASTV
    k = 0
    parameter = 0.0

    def scoring_layer(self, cut: int) -> int:
        """The layer whose attention ranks the image tokens for a cut at `cut`."""
        return cut if self.method == _PDROP else cut - 1

    def prepare(self, prof: Profile) -> torch.nn.Module:
        paths = decoder_attention(prof.model, prof.patterns)
        if not paths:
            raise MvprofError(f"{self.name} reads the decoder's attention: no module of the "
                              "attention role lies inside the llm role (pass roles={'llm': "
                              "r'...', 'attention': r'...'})")
        _Plan(self.method, len(paths), 1, self.k, self.parameter)  # its checks on the depth
        self.recorded: Optional[_Pass] = None
        return prof.model

    def attach(self, prof, model: torch.nn.Module, patterns) -> List:
        modules = decoder_attention(model, patterns)
        state = _Pass(self, prof, [p for p, _ in modules])
        handles: List = []
        for layer, (_, m) in enumerate(modules):
            handles.append(m.register_forward_pre_hook(lambda mod, a, l=layer: state.enter(l)))
            handles.append(m.register_forward_hook(lambda mod, a, o: state.leave()))
        handles.append(state)
        if isinstance(prof, Profile):
            self.recorded = state
        return handles

    def finished(self, prof: Profile) -> None:
        s = self.recorded
        if s is None or s.plan is None or len(s.kept) < len(s.plan.layers):
            raise MvprofError(f"{self.name} made no cut: the run had no prefill over the image "
                              "tokens (mark it with prof.phase('prefill'))")
        n = prof.visual_span[1]
        for cut, kept in zip(s.plan.layers, s.kept):
            prof.metric(f"tokens.kept.layer_{cut}", len(kept), "count",
                        note=f"image tokens {self.name} kept before decoder layer {cut}, of {n}")
        held = [len(s.held_at(layer)) for layer in range(len(s.paths))]
        depth = len(held)
        prof.metric("tokens.layer_averaged", sum(held) / depth, "count",
                    note=f"image tokens the decoder layers received, averaged over its {depth} "
                    "layers: the budget in-LLM methods' papers quote")
        text = s.prefill_positions - n
        prof.metric("flops.token_layer_ratio",
                    sum(text + h for h in held) / (depth * (text + n)), "ratio", kind="predicted",
                    note="prefill tokens summed over the decoder layers ÷ the baseline's: the "
                    "n-linear terms of FastV's C(n) = 4nd² + 2n²d + 2ndm (the attention's n² "
                    "term left out, so it overstates the cost a little); the run itself masked "
                    "the dropped tokens and computed them: its time and FLOPs are the full model's")
        prof.metric("tokens.masked", 1, "count", note=self.mask_note)
        self._store_kept(prof, s, n)

    mask_note = ("dropped tokens masked (zero attention from their cut's layer on, in every "
                 "pass), not removed: the kept tokens compute what the in-place drop gives them")

    def _store_kept(self, prof: Profile, s: _Pass, n: int) -> None:
        """Patch metric tokens.kept: the heatmap's outline of what each layer held."""
        patches = prof.kept_patches if prof.kept_patches is not None else list(range(n))
        for layer in range(len(s.paths)):
            held = set(s.held_at(layer))
            values = [1.0 if i in held else 0.0 for i in range(n)]
            prof.call("mvprof_add_patch_metrics", s.stored_layer.get(layer, layer),
                      _abi.b("tokens.kept"), n, _abi.ints(list(patches)), _abi.doubles(values))


class FastV(DecoderTokenDrop):
    """FastV (Chen et al., ECCV 2024): after decoder layer K − 1, the image
    tokens are ranked by the last token's attention there (mean over heads);
    the top round((1 − R)·N) stay for every deeper layer, at their own
    positions. Needs eager attention (a softmax) in layer K − 1."""

    def __init__(self, k: int = 2, r: float = 0.5) -> None:
        self.method, self.k, self.parameter = _FASTV, int(k), float(r)
        self.name = f"fastv K{self.k} R{self.parameter:.2g} (masked)"


class PyramidDrop(DecoderTokenDrop):
    """PyramidDrop (Xing et al., CVPR 2025): before layers L/4, L/2, 3L/4, the
    image tokens still held are ranked by the last instruction token's
    attention in that layer (mean over heads); int(N·λ^s) stay after stage s.
    Masked, the kept tokens keep their positions (PyramidDrop renumbers them)."""

    def __init__(self, lam: float = 0.5) -> None:
        self.method, self.parameter = _PDROP, float(lam)
        self.name = f"pdrop λ{self.parameter:.2g} (masked)"

    mask_note = DecoderTokenDrop.mask_note + (
        "; PyramidDrop renumbers the kept sequence's positions, the mask keeps the original "
        "ones: a rotary-position decoder computes differently from the paper's drop")
