"""Hardware counters of an eager model on a GPU (`profile(..., hw_counters=run)`):
once the recorded run's last phase is over, the pass `run(p)` — the script's
pass, as warmup takes it — is replayed under CUPTI's range profiler as often as
its metrics and the module tree's depth need, a range named by the module's
path around every module call, so each module gets its counted FLOPs, DRAM
bytes and kernel time (the run metrics hw.<path>.*; the roofline plots them).
A what-if's replays run its model with its hooks, inside the ranges
(`whatif(..., hw_counters=run)`, its baseline's by default). The replays
record nothing and are no part of the run's time. A replay that raises
leaves the run complete, its hw.counters 0 with the error."""

from __future__ import annotations

import ctypes
import traceback
from typing import Callable, List, Optional, Protocol

import torch

from ._abi import b
from ._passes import NullProfile, Recording, TimedPass, device_settle
from ._transform import Transform, hooked

Handles = List[torch.utils.hooks.RemovableHandle]


class CountedRun(Recording, Protocol):
    """The recorded run whose pass is replayed (a Profile): its model and
    transform run again inside the ranges."""

    transform: Optional[Transform]


def _pass_hooks(prof: CountedRun, p: TimedPass) -> Handles:
    """For one replay: a range per module call, named by its path (every
    named module but the root, as the recorded run's spans), and a what-if's
    own hooks (router masks, the projector's pruning, attention masks) inside
    the ranges: its pre-hooks after the range's push, its hooks before the pop."""
    pops: Handles = []
    handles: Handles = []
    modules = [(path, m) for path, m in prof.model.named_modules() if path]
    for path, module in modules:
        handles.append(module.register_forward_pre_hook(
            lambda m, i, path=path: prof.call("mvprof_counter_push", b(path))))
    if prof.transform is not None:
        handles += hooked(prof.model, prof.transform, p, prof.patterns)
    for _, module in modules:
        pops.append(module.register_forward_hook(lambda m, i, o: prof.call("mvprof_counter_pop")))
    return handles + pops


def _replay(prof: CountedRun, run: Callable[[NullProfile], object]) -> None:
    p = TimedPass(prof.model)  # the markers of an unrecorded pass
    handles = _pass_hooks(prof, p)
    try:
        with torch.no_grad():
            run(p)
    finally:
        for h in handles:
            h.remove()


def count_hardware(prof: CountedRun, run: Callable[[NullProfile], object]) -> None:
    """Replays `run` until the counters are read, and stores them with
    `prof`'s run (which must still be open)."""
    available = ctypes.c_int(0)
    prof.call("mvprof_counters_begin", ctypes.byref(available))
    if not available.value:
        return  # the run's hw.counters says why
    settle = device_settle(prof.model)
    failure = None
    try:
        done = ctypes.c_int(0)
        while not done.value:
            prof.call("mvprof_counter_pass", 1, None)
            try:
                _replay(prof, run)
                settle()  # the pass's kernels finish inside its ranges' pass
            except Exception as e:  # the user's pass: the run stays, its counters say why
                failure = traceback.format_exception_only(type(e), e)[-1].strip()
                break
            prof.call("mvprof_counter_pass", 0, ctypes.byref(done))
    finally:
        prof.call("mvprof_counters_end", b(failure))
