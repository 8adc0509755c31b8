"""The Python readers of a session's packed rows (tests/python/session_rows.py,
and tests/gpu/gpucheck.connect, which the GPU checks query through) against
a trace this test writes: a Kineto trace of launches, kernels, copies and
fills under nested annotations, imported with `mvprof-cli import`. Every
activity and span read back must be an event of the trace, field for field
(times in ns from the earliest slice), so a decoder that drifts from
docs/format.md fails here, on CPU, before a GPU check misreads a session.
Run with /usr/bin/python3; skips (77) without MVP_CLI.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gpu"))
from session_rows import activity_rows, span_rows  # noqa: E402

import gpucheck  # noqa: E402

SKIP = 77
PID, TID = 4242, 17
STEPS, LAUNCHES = 3, 40


def trace_events() -> list[dict]:
    """Steps of LAUNCHES ops each, every op launching a kernel (External id
    and correlation), every fifth a copy (correlation only) and a fill
    (External id only); times in integer ns, written as µs with fractions."""
    def us(ns: int) -> str:
        return f"{ns // 1000}.{ns % 1000:03d}"

    def slice_(cat: str, name: str, start: int, dur: int, pid, tid, args=None) -> dict:
        return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
                "ts": us(start), "dur": us(dur), "args": args or {}}

    ev, t, ext, corr = [], 1_000_000, 1, 500
    for step in range(STEPS):
        step_start = t
        ev.append(slice_("python_function", "nn.Module: Net_0", t + 100, 0, PID, TID))
        net = ev[-1]
        for i in range(LAUNCHES):
            op_start = t + 1_000
            ev.append(slice_("cpu_op", "aten::addmm", op_start, 3_000, PID, TID,
                             {"Input Dims": [[64], [32, 128], [128, 64], [], []],
                              "Input type": ["float"] * 3 + ["Scalar"] * 2,
                              "External id": ext}))
            ev.append(slice_("cuda_runtime", "cudaLaunchKernel", op_start + 500, 1_250, PID, TID,
                             {"correlation": corr, "External id": ext, "cbid": 211}))
            ev.append(slice_("kernel", f"sgemm_{i % 3}", op_start + 2_000, 4_125 + i, 0, 7,
                             {"External id": ext, "correlation": corr, "device": 0,
                              "stream": 7}))
            corr += 1
            if i % 5 == 0:
                ev.append(slice_("cuda_runtime", "cudaMemcpyAsync", op_start + 2_500, 300, PID,
                                 TID, {"correlation": corr}))
                ev.append(slice_("gpu_memcpy", "Memcpy DtoH (Device -> Pinned)", op_start + 7_000,
                                 1_500, 1, 9, {"correlation": corr, "device": 1, "stream": 9,
                                               "bytes": 8192 * (i + 1)}))
                ev.append(slice_("gpu_memset", "Memset (Device)", op_start + 9_000, 500, 0, 7,
                                 {"External id": ext, "device": 0, "stream": 7,
                                  "bytes": 256}))
                corr += 1
            ext += 1
            t += 12_000
        net["dur"] = us(t - step_start - 200)
        ev.insert(ev.index(net), slice_("user_annotation", f"ProfilerStep#{step}", step_start,
                                        t - step_start, PID, TID))
        t += 5_000
    return ev


def ns(text: str) -> int:
    whole, frac = text.split(".")
    return int(whole) * 1000 + int(frac)


KIND = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset",
        "cuda_runtime": "runtime"}


def expected_activity(events: list[dict], origin: int) -> Counter:
    out: Counter = Counter()
    for e in events:
        if e["cat"] not in KIND:
            continue
        a = e["args"]
        gpu = e["cat"] != "cuda_runtime"
        start = ns(e["ts"]) - origin
        out[(KIND[e["cat"]], e["name"], a["device"] if gpu else -1, a["stream"] if gpu else -1,
             -1 if gpu else TID, start, start + ns(e["dur"]), a.get("correlation"),
             a.get("bytes", 0))] += 1
    return out


def check(cli: str, tmp: str) -> list[str]:
    failures: list[str] = []
    events = trace_events()
    path = os.path.join(tmp, "trace.json")
    with open(path, "w") as f:
        json.dump({"schemaVersion": 1, "traceEvents": events}, f)
    session = os.path.join(tmp, "trace.mvprof")
    subprocess.run([cli, "import", path, "--out", session], check=True, capture_output=True)
    origin = min(ns(e["ts"]) for e in events)
    db = sqlite3.connect(session)

    acts = activity_rows(db, 1)
    got = Counter((kind, name, device, stream, thread, start, end, correlation, nbytes)
                  for _, kind, name, device, stream, thread, start, end, correlation, _, _, nbytes
                  in acts)
    want = expected_activity(events, origin)
    if got != want:
        failures.append(f"activity: {sum(got.values())} rows, {sum(want.values())} in the trace;"
                        f" first differences {list((got - want).items())[:2]} /"
                        f" {list((want - got).items())[:2]}")
    if [a[0] for a in acts] != list(range(1, len(acts) + 1)):
        failures.append("activity ids are not 1 … n in order")
    # Kernels and fills carry the op's External id; copies reach it through
    # their API call's correlation id, made inside the op.
    launched = [a for a in acts if a[1] != "runtime"]
    if not launched or any(a[9] is None for a in launched):
        failures.append("GPU work launched inside an op has no op")
    print(f"  activity: {len(acts)} rows, every one an event of the trace")

    spans = span_rows(db, 1)
    annotated = Counter((ns(e["ts"]) - origin, ns(e["ts"]) - origin + ns(e["dur"]))
                        for e in events if e["cat"] in ("user_annotation", "python_function"))
    if Counter((s[5], s[6]) for s in spans) != annotated:
        failures.append(f"spans: {len(spans)} read, {sum(annotated.values())} annotations")
    by_id = {s[0]: s for s in spans}
    for s in spans:
        parent = by_id.get(s[2]) if s[2] is not None else None
        if s[2] is not None and (parent is None or not parent[5] <= s[5] <= s[6] <= parent[6]):
            failures.append(f"span {s[0]} is not inside its parent {s[2]}")
    print(f"  spans: {len(spans)} read, each an annotation of the trace, inside its parent")

    # The GPU checks' way in: the same rows as TEMP tables, joined in SQL.
    with gpucheck.connect(session) as g:
        count, linked = g.execute("SELECT COUNT(*), COUNT(op) FROM device_activity WHERE kind "
                                  "IN ('kernel','memcpy','memset')").fetchone()
        named = g.execute("SELECT COUNT(*) FROM device_activity a JOIN interned i ON "
                          "i.id = a.name WHERE i.text LIKE 'sgemm_%'").fetchone()[0]
        inside = g.execute("SELECT COUNT(*) FROM device_activity a JOIN span s ON s.run = a.run "
                           "AND s.id = a.span").fetchone()[0]
    gpu = sum(n for k, n in want.items() if k[0] != "runtime")
    if (count, named) != (gpu, STEPS * LAUNCHES) or linked != len(launched) or inside == 0:
        failures.append(f"gpucheck.connect: {count} GPU rows ({gpu}), {named} GEMMs "
                        f"({STEPS * LAUNCHES}), {linked} linked ({len(launched)}), {inside} in spans")
    print(f"  gpucheck.connect: {count} GPU rows, {linked} linked to an op, {inside} in a span")
    return failures


def main() -> int:
    cli = os.environ.get("MVP_CLI")
    if not cli:
        print("MVP_CLI not set: skipped")
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        failures = check(cli, tmp)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
