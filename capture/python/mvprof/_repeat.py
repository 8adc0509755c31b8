"""A what-if's A/B repetitions in Python (docs/format.md `repetition`): the
user's pass function run on the baseline's model and on the transformed one,
interleaved A B A B … after a warm-up of each, timed by phase and recording
nothing. Transforms that act through hooks (router logits, the projector's
output) are applied to the B passes by the same hooks, minus the recording."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import torch

from ._passes import NullProfile, TimedPass
from ._transform import Transform, hooked

# Phases a decoder-side transform cannot change, and one acting on the
# projector's output (token pruning): the repetitions' noise control.
BEFORE_DECODER = ("preprocess", "h2d", "vision", "projector")
BEFORE_PROJECTOR_OUTPUT = ("preprocess", "h2d", "vision")


def _pass(model: torch.nn.Module, run: Callable[[NullProfile], object],
          transform: Optional[Transform], patterns) -> Dict[str, int]:
    prof = TimedPass(model)
    handles = hooked(model, transform, prof, patterns) if transform is not None else []
    try:
        with torch.no_grad():
            run(prof)
    finally:
        for h in handles:
            h.remove()
    return prof.times


def repetitions(baseline: torch.nn.Module, transformed: torch.nn.Module,
                transform: Transform, run: Callable[[NullProfile], object], reps: int,
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
