"""A what-if's A/B repetitions in Python (FORMAT.md `repetition`): the
user's pass function run on the baseline's model and on the transformed one,
interleaved A B A B … after a warm-up of each, timed by phase and recording
nothing. Transforms that act through hooks (router logits, the projector's
output) are applied to the B passes by the same hooks, minus the recording."""

from __future__ import annotations

import contextlib
import re
import time
from typing import TYPE_CHECKING, Callable, Dict, Iterator, List, Optional, Pattern, Tuple

import torch

from ._profile import NullProfile, device_settle, role_of

if TYPE_CHECKING:
    from .whatif import Transform

# Phases a decoder-side transform cannot change, and one acting on the
# projector's output (token pruning): the repetitions' noise control.
BEFORE_DECODER = ("preprocess", "h2d", "vision", "projector")
BEFORE_PROJECTOR_OUTPUT = ("preprocess", "h2d", "vision")


class TimedPass(NullProfile):
    """The markers of a Profile that time each phase (perf_counter_ns, a
    phase entered again accumulates; on a GPU from and to the moment its
    queued kernels are done) and record nothing."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__(model)
        self.times: Dict[str, int] = {}
        self._settle = device_settle(model)
        self.kept_patches: Optional[List[int]] = None
        self._layer = 0

    @contextlib.contextmanager
    def phase(self, name: str, step: int = 0) -> Iterator[None]:
        self._mark_phase(name)
        self._settle()
        start = time.perf_counter_ns()
        try:
            yield
        finally:
            self._settle()
            self.times[name] = self.times.get(name, 0) + time.perf_counter_ns() - start

    def current_layer(self) -> int:
        """The layer of the router being applied: the first number in its path."""
        return self._layer


def _hooked(model: torch.nn.Module, transform: "Transform", prof: TimedPass,
            patterns: List[Tuple[str, Pattern[str]]]) -> List[torch.utils.hooks.RemovableHandle]:
    """Forward hooks applying `transform` to the router and projector outputs,
    and whatever the transform attaches itself (FastV's attention masks)."""
    handles = []
    for path, module in model.named_modules():
        r = role_of(patterns, path) if path else ""
        if r == "router":
            def on_router(m, i, out, p=path):
                number = re.search(r"\d+", p)
                prof._layer = int(number.group()) if number else 0
                return transform.on_router(prof, p, out)
            handles.append(module.register_forward_hook(on_router))
        elif r == "projector":
            handles.append(module.register_forward_hook(
                lambda m, i, out, p=path: transform.on_projector(prof, p, out)))
    return handles + transform.attach(prof, model, patterns)


def _pass(model: torch.nn.Module, run: Callable[[NullProfile], object],
          transform: Optional["Transform"], patterns) -> Dict[str, int]:
    prof = TimedPass(model)
    handles = _hooked(model, transform, prof, patterns) if transform is not None else []
    try:
        with torch.no_grad():
            run(prof)
    finally:
        for h in handles:
            h.remove()
    return prof.times


def repetitions(baseline: torch.nn.Module, transformed: torch.nn.Module,
                transform: "Transform", run: Callable[[NullProfile], object], reps: int,
                patterns) -> List[Tuple[int, int, str, int, bool]]:
    """(arm, rep, phase, ns, control) rows: arm 0 the baseline's model, 1 the
    what-if's. A transform that keeps the model (hooks only) gets its hooks
    on the B passes alone."""
    hooks = transform if transformed is baseline else None
    control = BEFORE_PROJECTOR_OUTPUT if transform.prunes_visual else BEFORE_DECODER
    _pass(baseline, run, None, patterns)            # warm-up, A
    _pass(transformed, run, hooks, patterns)        # warm-up, B
    rows: List[Tuple[int, int, str, int, bool]] = []
    for rep in range(reps):
        for arm, model, h in ((0, baseline, None), (1, transformed, hooks)):
            for phase, ns in _pass(model, run, h, patterns).items():
                rows.append((arm, rep, phase, ns, phase in control))
    return rows
