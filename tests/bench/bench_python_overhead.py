#!/usr/bin/python3
"""What profiling costs an eager model, separated into what a user pays:

- steady state: ns added per recorded ATen op inside one long run, timed
  from inside the profiler's `with` block (its set-up and teardown outside
  the clock), against the same passes bare;
- set-up: the fixed cost of opening and closing a run around no work;
- libtorch's floor: the same passes under an empty RecordFunction callback
  that asks for the inputs, as mvprof's does (tests/bench/FloorCallback.cpp,
  over ctypes from MVP_BENCH_FLOOR_LIB): what any observer that reads
  inputs pays before doing anything.

For mvprof.profile with its defaults (the attention observer on), with
attention=False, and for torch.profiler (record_shapes, with_flops,
with_modules — Debian's 1.13 falls back to the legacy profiler), all
interleaved in one process, REPS repetitions each (each arm's body timed
three times in a row, the quickest kept, and set against the same
repetition's bare body); medians with quartiles.
Two models: ours — 150 tiny ops in one module, then one attention module
(block.attn, the default roles' attention) of four ops, three module calls
per pass, so that the per-op cost is not the Python module hooks' — and
PyTorch's own TransformerEncoder, whose every module holds a few ops, as a
user's model does (the hooks' cost per op shows there). Visual tokens are
declared, so the attention observer reads the softmax inside attention
modules. Never fails on timing.

    MVP_PYTHON_DIR=build/python MVP_BENCH_FLOOR_LIB=build/lib/libmvp_bench_floor.so \
        /usr/bin/python3 tests/bench/bench_python_overhead.py [REPS] [CALLS]
"""

import ctypes
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import warnings
from typing import Callable, Dict, List, Optional, Tuple

import torch

sys.path.insert(0, os.environ.get("MVP_PYTHON_DIR", "build/python"))
import mvprof  # noqa: E402


def floor_library() -> Optional[ctypes.CDLL]:
    """The empty callback's library, if the build made one (CTest says where)."""
    path = os.environ.get("MVP_BENCH_FLOOR_LIB")
    return ctypes.CDLL(path) if path and os.path.exists(path) else None


class Attn(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x @ x.transpose(0, 1), -1) @ x


class Ops(torch.nn.Module):
    """150 small ops in one module call: what the per-op cost dominates."""

    def __init__(self) -> None:
        super().__init__()
        self.weights = torch.nn.Parameter(torch.rand(50, 16, 16))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for w in self.weights:
            x = torch.relu(x @ w) + 1
        return x


class Tiny(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.ops = Ops()
        self.block = torch.nn.ModuleDict({"attn": Attn()})

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.block["attn"](self.ops(x))


INNER = 3  # timed bodies per repetition and arm, the quickest kept


def quartiles(xs: List[float]) -> str:
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return f"median {q[1]:9.1f} (quartiles {q[0]:.1f}–{q[2]:.1f})"


class Workload:
    """A model, its input, and where its visual tokens sit (for the observer)."""

    def __init__(self, name: str, model: torch.nn.Module, x: torch.Tensor,
                 grid: Tuple[int, int]) -> None:
        self.name, self.model, self.x, self.grid = name, model, x, grid


def workloads() -> List[Workload]:
    """Ours, and one written elsewhere: PyTorch's own transformer encoder,
    whose self_attn modules the default roles call attention and whose
    modules hold a few ops each. In eval mode it would run one fused op per
    layer (its inference fast path); left in training mode with dropout 0 it
    runs the eager ops a Hugging Face decoder runs, on the same numbers."""
    layer = torch.nn.TransformerEncoderLayer(d_model=32, nhead=2, dim_feedforward=64,
                                             dropout=0.0, batch_first=True)
    encoder = torch.nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)
    return [Workload("150 tiny ops + attention (tests/bench)", Tiny().eval(), torch.rand(4, 16),
                     (2, 2)),
            Workload("torch.nn.TransformerEncoder, 4 layers, 8 tokens (PyTorch's)", encoder,
                     torch.rand(1, 8, 32), (2, 2))]


def measure(w: Workload, reps: int, calls: int, floor: Optional[ctypes.CDLL],
            with_setup: bool) -> None:
    session = os.path.join(tempfile.mkdtemp(), "bench.mvprof")

    def body() -> None:
        for _ in range(calls):
            w.model(w.x)

    def fastest(work: Callable[[], None]) -> float:
        """The quickest of INNER timed calls of `work`: a preempted one drops out."""
        times = []
        for _ in range(INNER):
            t = time.perf_counter()
            work()
            times.append(time.perf_counter() - t)
        return min(times)

    def mvprof_run(attention: bool, work: Callable[[], None]) -> Callable[[], float]:
        def run() -> float:
            with mvprof.profile(session, w.model, force=True, attention=attention) as prof:
                prof.visual_tokens(start=0, grid=w.grid, patch=16, input_size=16 * w.grid[0])
                with prof.phase("prefill"):
                    return fastest(work)
        return run

    def torch_run(work: Callable[[], None]) -> Callable[[], float]:
        def run() -> float:
            with torch.profiler.profile(record_shapes=True, with_flops=True, with_modules=True):
                return fastest(work)
        return run

    def floor_run() -> float:
        floor.mvp_bench_floor_on()
        try:
            return fastest(body)
        finally:
            floor.mvp_bench_floor_off()

    def whole(run: Callable[[], float]) -> Callable[[], float]:
        """The with-block's whole time around no work: opening and closing a run."""
        def timed() -> float:
            t = time.perf_counter()
            run()
            return time.perf_counter() - t
        return timed

    nothing = lambda: None  # noqa: E731
    steady: Dict[str, Callable[[], float]] = {
        "bare": lambda: fastest(body),
        "mvprof": mvprof_run(True, body),
        "mvprof, attention=False": mvprof_run(False, body),
        "torch.profiler": torch_run(body),
    }
    if floor:
        steady["libtorch floor"] = floor_run
    setup: Dict[str, Callable[[], float]] = {
        "mvprof": whole(mvprof_run(True, nothing)),
        "mvprof, attention=False": whole(mvprof_run(False, nothing)),
        "torch.profiler": whole(torch_run(nothing)),
    } if with_setup else {}
    with torch.inference_mode():
        for f in list(steady.values()) + list(setup.values()):  # warm-up
            f()
        body_s: Dict[str, List[float]] = {k: [] for k in steady}
        setup_s: Dict[str, List[float]] = {k: [] for k in setup}
        for _ in range(reps):  # interleaved
            for k, f in steady.items():
                body_s[k].append(f())
            for k, f in setup.items():
                setup_s[k].append(f())
        steady["mvprof"]()  # the session's last run: the recorded op count
    db = sqlite3.connect(session)
    ops = db.execute("SELECT rows FROM op_chunk WHERE run = (SELECT MAX(id) FROM run)"
                     ).fetchall()
    ops = sum(r for (r,) in ops) // INNER
    observed = db.execute("SELECT value FROM run_metric WHERE name = 'capture.observed_ops'"
                          " AND run = (SELECT MAX(id) FROM run)").fetchone()
    db.close()
    print(f"python profiling overhead, {w.name}: {reps} interleaved repetitions; each timed "
          f"body runs {calls} forward passes, {ops} top-level ATen ops recorded "
          f"({int(observed[0]) // INNER if observed else '?'} of them read by the attention "
          f"observer)")
    print(f"  bare body: {quartiles([t * 1e3 for t in body_s['bare']])} ms (measured)")
    added: Dict[str, List[float]] = {}
    for k in [k for k in steady if k != "bare"]:
        # Each repetition's body against that repetition's bare one: drift cancels.
        added[k] = [(t - b) / ops * 1e9 for t, b in zip(body_s[k], body_s["bare"])]
        print(f"  steady state, {k:24} ns added per op: {quartiles(added[k])} (measured)")
    for k, xs in setup_s.items():
        print(f"  set-up + teardown, {k:24} ms per run: {quartiles([t * 1e3 for t in xs])}"
              f" (measured)")
    theirs = statistics.median(added["torch.profiler"])
    for k in ("mvprof", "mvprof, attention=False"):
        ours = statistics.median(added[k])
        line = f"  steady state: {k} adds {ours / theirs:.2f}× torch.profiler's per-op cost"
        if floor:
            line += f", {ours / statistics.median(added['libtorch floor']):.2f}× libtorch's floor"
        print(line + " (derived from the medians)")
    if not floor:
        print("  libtorch floor: not measured (MVP_BENCH_FLOOR_LIB names no library)")


def main() -> int:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 40  # forward passes per timed body
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")  # the models have no router: not this bench's business
    floor = floor_library()
    for i, w in enumerate(workloads()):
        measure(w, reps, calls, floor, with_setup=i == 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
