"""Hardware counters of an eager model on a GPU (`profile(..., hw_counters=run)`):
once the recorded run's last phase is over, the pass `run(p)` — the script's
pass, as warmup takes it — is replayed under CUPTI's range profiler as often as
its metrics and the module tree's depth need, a range named by the module's
path around every module call, so each module gets its counted FLOPs, DRAM
bytes and kernel time (the run metrics hw.<path>.*; the roofline plots them).
The replays record nothing and are no part of the run's time. A replay that
raises leaves the run complete, its hw.counters 0 with the error."""

from __future__ import annotations

import ctypes
import traceback
from typing import TYPE_CHECKING, Callable, List

import torch

from ._abi import b
from ._profile import NullProfile, device_settle

if TYPE_CHECKING:
    from ._profile import Profile


def _range_hooks(prof: "Profile") -> List[torch.utils.hooks.RemovableHandle]:
    """A range per module call, as the recorded run's spans: every named
    module but the root."""
    handles = []
    for path, module in prof.model.named_modules():
        if not path:
            continue
        handles.append(module.register_forward_pre_hook(
            lambda m, i, p=path: prof.call("mvprof_counter_push", b(p))))
        handles.append(module.register_forward_hook(
            lambda m, i, o: prof.call("mvprof_counter_pop")))
    return handles


def count_hardware(prof: "Profile", run: Callable[[NullProfile], object]) -> None:
    """Replays `run` through a NullProfile until the counters are read, and
    stores them with `prof`'s run (which must still be open)."""
    available = ctypes.c_int(0)
    prof.call("mvprof_counters_begin", ctypes.byref(available))
    if not available.value:
        return  # the run's hw.counters says why
    settle = device_settle(prof.model)
    failure = None
    handles = _range_hooks(prof)
    try:
        done = ctypes.c_int(0)
        while not done.value:
            prof.call("mvprof_counter_pass", 1, None)
            try:
                with torch.no_grad():
                    run(NullProfile(prof.model))
                settle()  # the pass's kernels finish inside its ranges' pass
            except Exception as e:  # the user's pass: the run stays, its counters say why
                failure = traceback.format_exception_only(type(e), e)[-1].strip()
                break
            prof.call("mvprof_counter_pass", 0, ctypes.byref(done))
    finally:
        for h in handles:
            h.remove()
        prof.call("mvprof_counters_end", b(failure))
