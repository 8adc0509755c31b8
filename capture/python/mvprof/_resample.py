"""The resampling loss of a what-if that changes the visual tokens
(DIAGNOSTICS §7) for eager models: one observation pass of the baseline's
model and one of the what-if's (the user's `run`, recording nothing, as for
A/B repetitions), each reading per attention-role module (one decoder layer)
the hidden states it reads at the visual positions during prefill, and each
decode query's attention over those positions (the softmax inside the
module, mean over heads). The C ABI compares the two (core/analysis/Kv.h)."""

from __future__ import annotations

import contextlib
import ctypes
from typing import Callable, Iterator, List, Optional

import torch
from torch.overrides import TorchFunctionMode

from . import _abi
from ._passes import SOFTMAX_CALLS, NullProfile, TimedPass, role_of
from ._transform import Transform, hooked



class ObservePass(TimedPass):
    """A pass's markers that note where the visual tokens sit and which
    phase runs; the hooks below read the attention modules with them."""

    def __init__(self, model: torch.nn.Module, layers: int) -> None:
        super().__init__(model)
        self.current = ""
        self.start: Optional[int] = None
        self.grid = 0
        self.patches: List[int] = []
        self.values: List[Optional[torch.Tensor]] = [None] * layers
        self.attention: List[List[torch.Tensor]] = [[] for _ in range(layers)]
        self.inside: List[int] = []  # attention layers open now, innermost last

    @contextlib.contextmanager
    def phase(self, name: str, step: int = 0) -> Iterator[None]:
        self.current = name
        with super().phase(name, step):
            yield

    def visual_tokens(self, start: int, grid, patch: int = 14, input_size: int = 0) -> None:
        super().visual_tokens(start, grid, patch, input_size)
        rows, cols = grid
        self.start, self.grid = int(start), int(rows * cols)
        self.patches = (list(self.kept_patches) if self.kept_patches is not None
                        else list(range(self.grid)))

    def read_input(self, layer: int, args) -> None:
        """Prefill: the rows the layer's attention reads at the visual positions."""
        if self.current != "prefill" or self.start is None or self.values[layer] is not None:
            return
        if not args or not torch.is_tensor(args[0]) or args[0].dim() < 2:
            return
        x = args[0].detach()
        x = x.reshape(-1, x.shape[-2], x.shape[-1])[0]  # [positions, dim] of the first batch row
        end = self.start + len(self.patches)
        if end <= x.shape[0]:
            self.values[layer] = x[self.start:end].float().contiguous().cpu()

    def read_softmax(self, probs: torch.Tensor) -> None:
        """Decode: each query's attention over the patches (0 where none is held)."""
        if self.current != "decode" or not self.inside or self.start is None:
            return
        if not torch.is_tensor(probs) or probs.dim() < 2:
            return
        end = self.start + len(self.patches)
        if probs.shape[-1] < end:
            return  # not a softmax over the sequence
        p = probs.detach().float().reshape(-1, probs.shape[-2], probs.shape[-1]).mean(0).cpu()
        index = torch.tensor(self.patches, dtype=torch.long)
        for row in p:
            grid = torch.zeros(self.grid, dtype=torch.float64)
            grid[index] = row[self.start:end].double()
            self.attention[self.inside[-1]].append(grid)


class _Softmaxes(TorchFunctionMode):
    """Hands every softmax's result to the pass."""

    def __init__(self, observer: ObservePass) -> None:
        super().__init__()
        self.observer = observer

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func in SOFTMAX_CALLS:
            self.observer.read_softmax(out)
        return out


def _attention_modules(model: torch.nn.Module, patterns) -> List[torch.nn.Module]:
    return [m for path, m in model.named_modules()
            if path and role_of(patterns, path) == "attention"]


def observe(model: torch.nn.Module, run: Callable[[NullProfile], object],
            transform: Optional[Transform], patterns) -> ObservePass:
    """One pass of `run` on `model` (with `transform`'s hooks, if given) observed."""
    layers = _attention_modules(model, patterns)
    prof = ObservePass(model, len(layers))
    handles = hooked(model, transform, prof, patterns) if transform is not None else []
    for i, m in enumerate(layers):
        def before(module, args, layer=i):
            prof.read_input(layer, args)
            prof.inside.append(layer)

        def after(module, args, out):
            prof.inside.pop()
        handles += [m.register_forward_pre_hook(before), m.register_forward_hook(after)]
    try:
        with torch.no_grad(), _Softmaxes(prof):
            run(prof)
    finally:
        for h in handles:
            h.remove()
    return prof


class _Flat:
    """An observation as the C ABI's flat arrays (kept alive with it)."""

    def __init__(self, obs: ObservePass, dim: int) -> None:
        held = [v if v is not None and v.shape[-1] == dim else torch.zeros(0, dim)
                for v in obs.values]
        rows = [int(v.shape[0]) for v in held]
        self.rows = _abi.ints(rows)
        self.patches = _abi.ints([p for n in rows for p in obs.patches[:n]])
        self._values = (torch.cat(held) if held else torch.zeros(1)).float().contiguous()
        self.values = _abi.floats(self._values)
        self.queries = _abi.ints([len(a) for a in obs.attention])
        rows_ = [row for a in obs.attention for row in a]
        self._attention = (torch.cat(rows_) if rows_ else torch.zeros(1, dtype=torch.float64))
        self._attention = self._attention.double().contiguous()
        self.attention = ctypes.cast(self._attention.data_ptr(), ctypes.POINTER(ctypes.c_double))
        self.struct = _abi.VisualObservation(len(held), dim, obs.grid, self.rows, self.patches,
                                             self.values, self.queries, self.attention)


def resampling_observations(baseline: torch.nn.Module, transformed: torch.nn.Module,
                            transform: Transform, run: Callable[[NullProfile], object],
                            patterns) -> Optional[tuple]:
    """Both arms observed and flattened, or None when no layer could be read."""
    hooks = transform if transformed is baseline else None
    base = observe(baseline, run, None, patterns)
    other = observe(transformed, run, hooks, patterns)
    dims = {int(v.shape[-1]) for v in base.values if v is not None}
    if len(dims) != 1 or not base.grid or base.grid != other.grid:
        return None
    dim = dims.pop()
    return _Flat(base, dim), _Flat(other, dim)
