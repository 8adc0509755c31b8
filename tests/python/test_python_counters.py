#!/usr/bin/python3
"""Hardware counters of an eager model (`profile(..., hw_counters=run)`,
_counters.py), checked without a GPU:
- a model on the CPU is refused by name before anything is written;
- through the C ABI, a run on "cuda:0" whose counters cannot be read here
  (no driver for CUPTI) says so in hw.counters and stays complete; a CPU
  run's counters are refused, and a run whose counters began takes no more
  phases;
- the replay loop against a stand-in for the C ABI that asks for three
  passes: each pass runs the user's pass once, a range pushed per module
  call named by its path (nested calls, a module called twice) and popped as
  it ends, the hooks gone afterwards; a pass that raises ends the passes,
  its error becomes the counters' failure and the run goes on; a what-if's
  own hooks run on every replay, inside the module's range, and a what-if
  counts as its baseline did.
Run by CTest with Debian's /usr/bin/python3; the package comes from
$MVP_PYTHON_DIR (<build>/python).
"""

import ctypes
import os
import sqlite3
import sys
import tempfile
from typing import List, Optional

import torch

sys.path.insert(0, os.environ["MVP_PYTHON_DIR"])
import mvprof  # noqa: E402
from mvprof import _abi, _counters  # noqa: E402
from checks import check, status  # noqa: E402



def a_cpu_model_is_refused() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.mvprof")
        try:
            mvprof.profile(path, torch.nn.Linear(2, 2), hw_counters=lambda p: None)
            refused = ""
        except mvprof.MvprofError as e:
            refused = str(e)
        check("GPU" in refused and "cpu" in refused, f"a CPU model's counters: {refused!r}")
        check(not os.path.exists(path), "nothing written for a refused profile")


def counters_through_the_abi(path: str, device: bytes) -> tuple:
    """A run on `device` in the session at `path` whose counters are begun
    after its phase: (rc of mvprof_counters_begin, its error, available, rc
    of a later mvprof_begin_phase, its error)."""
    lib, session = _abi.library(), ctypes.c_void_p()
    _abi.check(lib.mvprof_open(path.encode(), 0, ctypes.byref(session)))
    try:
        info = _abi.RunInfo(model=b"python:Linear", device=device, dtype=b"float32",
                            record_ops=1, record_attention=0)
        run = ctypes.c_longlong()
        _abi.check(lib.mvprof_begin_run(session, ctypes.byref(info), ctypes.byref(run)))
        _abi.check(lib.mvprof_begin_phase(session, b"prefill", 0))
        with torch.inference_mode():
            torch.nn.functional.linear(torch.ones(2, 8), torch.ones(4, 8))
        available = ctypes.c_int(-1)
        began = lib.mvprof_counters_begin(session, ctypes.byref(available))
        error = lib.mvprof_last_error().decode()
        later = lib.mvprof_begin_phase(session, b"decode", 1)
        later_error = lib.mvprof_last_error().decode()
        _abi.check(lib.mvprof_end_run(session, 0, None))
        return began, error, available.value, later, later_error
    finally:
        _abi.check(lib.mvprof_close(session))


def the_abi_says_why_there_are_no_counters() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.mvprof")
        began, _, available, later, later_error = counters_through_the_abi(path, b"cuda:0")
        check(began == 0 and available == 0, f"cuda:0 without a GPU: begun {began}, "
              f"available {available}")
        check(later != 0 and "recording has ended" in later_error,
              f"no phase after the counters began: {later_error!r}")
        cpu_began, cpu_error, _, _, _ = counters_through_the_abi(path, b"cpu")
        check(cpu_began != 0 and "CUDA" in cpu_error, f"a CPU run's counters: {cpu_error!r}")
        with sqlite3.connect(path) as db:
            rows = {run: (value, note) for run, value, note in db.execute(
                "SELECT run, value, note FROM run_metric WHERE name = 'hw.counters'")}
            status = dict(db.execute("SELECT id, status FROM run"))
    value, note = rows.get(1, (None, ""))
    check(value == 0 and note.startswith("n/a: ") and len(note) > 12,
          f"the cuda:0 run's hw.counters says why: {value} ({note})")
    check(2 not in rows, "the CPU run has no hw.counters")
    check(status.get(1) == "complete", f"the run stays complete: {status.get(1)}")


class Inner(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a, self.b = torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.a(self.b(self.a(x)))


class StandIn:
    """The C ABI's counters as a Profile's `call` sees them: three passes
    wanted; pushes and pops logged per pass."""

    def __init__(self, model: torch.nn.Module, transform=None) -> None:
        self.model, self.transform, self.patterns = model, transform, []
        self.log: List[str] = []
        self.passes: List[List[str]] = []
        self.depth, self.balanced = 0, True
        self.failure: Optional[str] = "not ended"

    def call(self, name: str, *args) -> None:
        self.log.append(name)
        if name == "mvprof_counters_begin":
            args[0]._obj.value = 1
        elif name == "mvprof_counter_pass" and args[0] == 1:
            self.passes.append([])
        elif name == "mvprof_counter_pass":
            args[1]._obj.value = int(len(self.passes) == 3)
            self.balanced = self.balanced and self.depth == 0
        elif name == "mvprof_counter_push":
            self.passes[-1].append(args[0].decode())
            self.log.append("push " + args[0].decode())
            self.depth += 1
        elif name == "mvprof_counter_pop":
            self.log.append("pop")
            self.depth -= 1
            self.balanced = self.balanced and self.depth >= 0
        elif name == "mvprof_counters_end":
            self.failure = None if args[0] is None else args[0].decode()


def the_replay_pushes_a_range_per_module_call() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), Inner())
    abi = StandIn(model)
    runs = []

    def run(p) -> None:
        runs.append(p)
        with p.phase("prefill"):
            p.model(torch.ones(1, 4))

    _counters.count_hardware(abi, run)
    want = ["0", "1", "1.a", "1.b", "1.a"]
    check(len(runs) == 3 and all(p.model is model for p in runs),
          f"three passes of the user's pass on the model: {len(runs)}")
    check(abi.passes == [want] * 3, f"each pass's ranges, by path in call order: {abi.passes}")
    check(abi.balanced and abi.depth == 0, "every range popped within its pass")
    check(abi.failure is None and abi.log[-1] == "mvprof_counters_end",
          f"the counters ended once, without a failure: {abi.log[-3:]}")
    hooks = sum(len(m._forward_hooks) + len(m._forward_pre_hooks) for m in model.modules())
    check(hooks == 0, f"no hooks left on the model: {hooks}")

    failing = StandIn(model)
    calls = []

    def breaks(p) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise ValueError("the user's pass broke")
        p.model(torch.ones(1, 4))

    _counters.count_hardware(failing, breaks)
    check(len(failing.passes) == 2 and failing.failure is not None and
          "the user's pass broke" in failing.failure,
          f"a pass that raises ends the passes, its error the failure: {failing.failure!r}")
    ends = [n for n in failing.log if n == "mvprof_counter_pass"]
    check(len(ends) == 3, f"the broken pass is not ended as if it had run: {len(ends)} calls")



class Marks(mvprof.Transform):
    """A what-if whose own hooks on module "0" log when they run."""

    def attach(self, prof, model, patterns):
        log = self.log
        return [model[0].register_forward_pre_hook(lambda m, i: log.append("transform pre")),
                model[0].register_forward_hook(lambda m, i, o: log.append("transform post"))]


def a_whatifs_hooks_run_inside_the_ranges() -> None:
    """A what-if's replay runs its transform's hooks, inside the module's range."""
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), Inner())
    marks = Marks()
    abi = StandIn(model, marks)
    marks.log = abi.log
    _counters.count_hardware(abi, lambda p: p.model(torch.ones(1, 4)))
    first = abi.log.index("push 0")
    inside = abi.log[first:first + 4]
    check(inside == ["push 0", "transform pre", "transform post", "mvprof_counter_pop"],
          f"the transform's hooks inside module 0's range: {inside}")
    check(abi.log.count("transform pre") == 3, "the transform's hooks on every pass")
    hooks = sum(len(m._forward_hooks) + len(m._forward_pre_hooks) for m in model.modules())
    check(hooks == 0, f"no hooks left after a what-if's replays: {hooks}")
    base = mvprof.profile(os.path.join(tempfile.gettempdir(), "unused.mvprof"),
                          torch.nn.Linear(2, 2))
    base.run_id, base.hw_counters = 1, tiny_pass  # as if a GPU run had counted
    try:  # the baseline's pass, and with it the refusal of a CPU model
        mvprof.whatif(base, torch.nn.Linear(2, 2), mvprof.W8())
        inherited = ""
    except mvprof.MvprofError as e:
        inherited = str(e)
    off = mvprof.whatif(base, torch.nn.Linear(2, 2), mvprof.W8(), hw_counters=False)
    check("hw_counters" in inherited and off.hw_counters is None,
          f"a what-if counts as its baseline did unless told not to: {inherited!r}")


def tiny_pass(p) -> None:
    p.model(torch.ones(1, 2))


if __name__ == "__main__":
    a_cpu_model_is_refused()
    the_abi_says_why_there_are_no_counters()
    the_replay_pushes_a_range_per_module_call()
    a_whatifs_hooks_run_inside_the_ranges()
    sys.exit(status())
