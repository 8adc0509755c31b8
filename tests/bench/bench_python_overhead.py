#!/usr/bin/python3
"""What profiling costs an eager model, separated into what a user pays:

- steady state: ns added per recorded ATen op inside one long run, timed
  from inside the profiler's `with` block (its set-up and teardown outside
  the clock), against the same passes bare;
- set-up: the fixed cost of opening and closing a run around no work.

For mvprof.profile with its defaults (the attention observer on), with
attention=False, and for torch.profiler (record_shapes, with_flops,
with_modules — Debian's 1.13 falls back to the legacy profiler), all
interleaved in one process, REPS repetitions each; medians with quartiles.
The model: 150 tiny ops in one module, then one attention module
(block.attn, the default roles' attention) of four ops, so that the
observer has something to watch as in a real decoder; three module calls
per pass, so that the per-op cost is not the Python module hooks'. Never
fails on timing.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_python_overhead.py [REPS] [CALLS]
"""

import os
import sqlite3
import statistics
import sys
import tempfile
import time
import warnings
from typing import Callable, Dict, List

import torch

sys.path.insert(0, os.environ.get("MVP_PYTHON_DIR", "build/python"))
import mvprof  # noqa: E402


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


def quartiles(xs: List[float]) -> str:
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return f"median {q[1]:9.1f} (quartiles {q[0]:.1f}–{q[2]:.1f})"


def main() -> int:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 40  # forward passes per timed body
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")  # the model has no router: not this bench's business
    model, x = Tiny().eval(), torch.rand(4, 16)
    session = os.path.join(tempfile.mkdtemp(), "bench.mvprof")

    def body() -> None:
        for _ in range(calls):
            model(x)

    def mvprof_run(attention: bool, work: Callable[[], None]) -> Callable[[], float]:
        def run() -> float:
            with mvprof.profile(session, model, force=True, attention=attention) as prof:
                prof.visual_tokens(start=0, grid=(2, 2), patch=16, input_size=32)
                with prof.phase("prefill"):
                    t = time.perf_counter()
                    work()
                    return time.perf_counter() - t
        return run

    def torch_run(work: Callable[[], None]) -> Callable[[], float]:
        def run() -> float:
            with torch.profiler.profile(record_shapes=True, with_flops=True, with_modules=True):
                t = time.perf_counter()
                work()
                return time.perf_counter() - t
        return run

    def bare() -> float:
        t = time.perf_counter()
        body()
        return time.perf_counter() - t

    def whole(run: Callable[[], float]) -> Callable[[], float]:
        """The with-block's whole time around no work: opening and closing a run."""
        def timed() -> float:
            t = time.perf_counter()
            run()
            return time.perf_counter() - t
        return timed

    nothing = lambda: None  # noqa: E731
    steady: Dict[str, Callable[[], float]] = {
        "bare": bare,
        "mvprof": mvprof_run(True, body),
        "mvprof, attention=False": mvprof_run(False, body),
        "torch.profiler": torch_run(body),
    }
    setup: Dict[str, Callable[[], float]] = {
        "mvprof": whole(mvprof_run(True, nothing)),
        "mvprof, attention=False": whole(mvprof_run(False, nothing)),
        "torch.profiler": whole(torch_run(nothing)),
    }
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
    ops = sum(r for (r,) in ops)
    observed = db.execute("SELECT value FROM run_metric WHERE name = 'capture.observed_ops'"
                          " AND run = (SELECT MAX(id) FROM run)").fetchone()
    db.close()
    bare_med = statistics.median(body_s["bare"])
    print(f"python profiling overhead: {reps} interleaved repetitions; each timed body runs "
          f"{calls} forward passes, {ops} top-level ATen ops recorded "
          f"({int(observed[0]) if observed else '?'} of them and their nested calls observed "
          f"for attention)")
    print(f"  bare body: {quartiles([t * 1e3 for t in body_s['bare']])} ms (measured)")
    added: Dict[str, List[float]] = {}
    for k in ("mvprof", "mvprof, attention=False", "torch.profiler"):
        # Each repetition's body against the bare median: the spread is the profiled runs'.
        added[k] = [(t - bare_med) / ops * 1e9 for t in body_s[k]]
        print(f"  steady state, {k:24} ns added per op: {quartiles(added[k])} (measured)")
    for k, xs in setup_s.items():
        print(f"  set-up + teardown, {k:24} ms per run: {quartiles([t * 1e3 for t in xs])}"
              f" (measured)")
    theirs = statistics.median(added["torch.profiler"])
    for k in ("mvprof", "mvprof, attention=False"):
        ours = statistics.median(added[k])
        print(f"  steady state: {k} adds {ours / theirs:.2f}× of torch.profiler's per-op cost"
              f" (derived from the medians)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
