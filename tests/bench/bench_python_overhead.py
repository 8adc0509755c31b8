#!/usr/bin/python3
"""What profiling costs an eager model, per ATen op: the same forward pass
bare, under mvprof.profile, and under torch.profiler (record_shapes,
with_flops, with_modules — Debian's 1.13 falls back to the legacy profiler),
interleaved in one process. Prints the median time of each, the ns added per
recorded op and the ratio of the two profilers' costs. Never fails on timing.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_python_overhead.py [REPS]
"""

import os
import sqlite3
import statistics
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.environ.get("MVP_PYTHON_DIR", "build/python"))
import mvprof  # noqa: E402


class Tiny(torch.nn.Module):
    """Many small ops: what the per-op cost dominates."""

    def __init__(self) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(16, 16) for _ in range(50))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = torch.relu(layer(x)) + 1
        return x


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> int:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    torch.set_num_threads(1)
    model, x = Tiny().eval(), torch.rand(4, 16)
    folder = tempfile.mkdtemp()
    session = os.path.join(folder, "bench.mvprof")
    calls = 20  # forward passes per measurement

    def bare() -> None:
        for _ in range(calls):
            model(x)

    def with_mvprof() -> None:
        with mvprof.profile(session, model, force=True) as prof:
            with prof.phase("prefill"):
                bare()

    def with_mvprof_no_attention() -> None:
        with mvprof.profile(session, model, force=True, attention=False) as prof:
            with prof.phase("prefill"):
                bare()

    def with_torch() -> None:
        with torch.profiler.profile(record_shapes=True, with_flops=True, with_modules=True):
            bare()

    with torch.inference_mode():
        for f in (bare, with_mvprof, with_mvprof_no_attention, with_torch):  # warm-up
            f()
        times = {"bare": [], "mvprof": [], "mvprof, no attn": [], "torch.profiler": []}
        for _ in range(reps):
            times["bare"].append(timed(bare))
            times["mvprof"].append(timed(with_mvprof))
            times["mvprof, no attn"].append(timed(with_mvprof_no_attention))
            times["torch.profiler"].append(timed(with_torch))
    ops = sqlite3.connect(session).execute(
        "SELECT COALESCE(SUM(rows), 0) FROM op_chunk").fetchone()[0]
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"python profiling overhead, {reps} interleaved repetitions of {calls} forward passes,"
          f" {ops} top-level ATen ops recorded per repetition")
    for k, v in med.items():
        spread = statistics.quantiles(times[k], n=4)
        print(f"  {k:15} median {v * 1e3:8.2f} ms (measured; quartiles {spread[0] * 1e3:.2f}"
              f"–{spread[2] * 1e3:.2f})")
    ours = (med["mvprof"] - med["bare"]) / ops * 1e9
    plain = (med["mvprof, no attn"] - med["bare"]) / ops * 1e9
    theirs = (med["torch.profiler"] - med["bare"]) / ops * 1e9
    print(f"  added per op: mvprof {ours:.0f} ns, torch.profiler {theirs:.0f} ns; "
          f"mvprof costs {ours / theirs:.2f}× of torch.profiler (derived; Python module hooks "
          f"included, {len(list(model.modules())) - 1} modules × {calls} calls)")
    print(f"  without attention capture (attention=False): mvprof {plain:.0f} ns per op, "
          f"{plain / theirs:.2f}× of torch.profiler (derived)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
