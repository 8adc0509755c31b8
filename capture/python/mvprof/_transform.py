"""The transform protocol of a what-if (what whatif() runs, and the
published methods implement): how it prepares the model, what it does to a
router's or the projector's output, its own hooks, and the metrics it stores.
Its hooks see a pass through its Markers (_passes.py), recorded (a Profile)
or only timed (a TimedPass of the A/B repetitions); prepare, started and
finished see the recorded run (Recording)."""

from __future__ import annotations

import re
from typing import List, Pattern, Tuple

import torch

from ._passes import Markers, Recording, TimedPass, role_of


class Transform:
    """A what-if's change to the model. `prepare` runs before the run begins
    (it may return a transformed copy), `started` once it has begun; the
    hooks may replace a router's or the projector's output."""
    name = "transform"
    prunes_visual = False  # decides the visual tokens when the projector runs

    def prepare(self, prof: Recording) -> torch.nn.Module:
        return prof.model

    def started(self, prof: Recording) -> None:
        pass

    def on_router(self, prof: Markers, path: str, output):
        return None

    def on_projector(self, prof: Markers, path: str, output):
        return None

    def attach(self, prof: Markers, model: torch.nn.Module, patterns) -> List:
        """Hooks of its own on `model` for one pass or run (each with .remove())."""
        return []

    def finished(self, prof: Recording) -> None:
        """The recorded run's block ended without an error: metrics it learnt."""


def hooked(model: torch.nn.Module, transform: Transform, prof: TimedPass,
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
