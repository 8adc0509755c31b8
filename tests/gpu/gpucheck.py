"""What the Python GPU checks share: their arguments (mvprof-cli, the sample
image, its output folder, made here) and whether torch sees a GPU; running
mvprof-cli; a session's packed rows (read by tests/python/session_rows.py);
a what-if's kernel calls, fidelity and speed-ups; the verdict."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from typing import List, Optional, Sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from session_rows import activity_rows, patch_rows, span_rows  # noqa: E402


def start() -> Optional[tuple[str, str, str]]:
    """(cli, image, out) from argv; None, after saying why, without a GPU (exit 77)."""
    cli, image, out = sys.argv[1], sys.argv[2], sys.argv[3]
    import torch

    if not torch.cuda.is_available():
        print("  no CUDA device visible to torch: skipped")
        return None
    os.makedirs(out, exist_ok=True)
    return cli, image, out


def run(cli: str, *args: str) -> str:
    """mvprof-cli's standard output; raises on a non-zero exit."""
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout


def patch_count(db: sqlite3.Connection, run: int, metric: str) -> int:
    """Patches with a value of `metric` in `run`, over its layers (docs/format.md patch_values)."""
    return len(patch_rows(db, metric, run))


def connect(session: str) -> sqlite3.Connection:
    """The session, its packed spans and device activity (v11 span_chunk,
    activity_chunk) unpacked into TEMP tables `span` and `device_activity`
    with v10's columns (names as `interned` ids), so that checks can join
    them in SQL."""
    db = sqlite3.connect(session)
    db.execute("CREATE TEMP TABLE span(run, id, module, parent, phase, step, start_ns, end_ns, "
               "device_ns, flops, bytes, flops_known)")
    db.execute("CREATE TEMP TABLE device_activity(run, id, kind, name, device, stream, thread, "
               "start_ns, end_ns, correlation, op, span, bytes)")
    ids = {text: i for i, text in db.execute("SELECT id, text FROM interned")}
    for (run_id,) in db.execute("SELECT DISTINCT run FROM span_chunk").fetchall():
        db.executemany("INSERT INTO temp.span VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                       [(run_id, *row) for row in span_rows(db, run_id)])
    for (run_id,) in db.execute("SELECT DISTINCT run FROM activity_chunk").fetchall():
        db.executemany("INSERT INTO temp.device_activity VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                       [(run_id, a[0], a[1], ids[a[2]], *a[3:])
                        for a in activity_rows(db, run_id)])
    return db


def op_calls(cli: str, session: str, run_id: int, out: str, prefixes: Sequence[str]) -> int:
    """Calls of ops whose names start with one of `prefixes` in run `run_id`
    (exported as a Chrome trace into `out`)."""
    trace = os.path.join(out, f"run{run_id}.json")
    run(cli, "export", session, "--run", str(run_id), "--chrome-trace", trace, "--force")
    with open(trace) as f:
        events = json.load(f)["traceEvents"]
    return sum(1 for e in events if str(e.get("name", "")).startswith(tuple(prefixes)))


def faithful(fidelity: dict) -> bool:
    """Prints a what-if's fidelity; whether its mean KL is ≤ 0.1. Top-1 is
    printed, not held: a random-weight model's near-flat logits flip it."""
    print(f"  fidelity: top-1 agreement {fidelity.get('top1_agreement')}, "
          f"KL mean {fidelity.get('kl_mean')} (KL held to ≤ 0.1)")
    return fidelity.get("kl_mean", 1) <= 0.1


def speedup(entry: dict) -> str:
    """A comparison entry's speed-up: median [95 % interval], or within noise."""
    s = entry["speedup"]
    noise = " (within noise)" if entry.get("within_noise") else ""
    return f"{s['median']:.2f}× [{s['ci95'][0]:.2f}, {s['ci95'][1]:.2f}]{noise}"


def verdict(failures: List[str], prefix: str = "") -> int:
    """Prints each failure; the check's exit status."""
    for f in failures:
        print(f"FAIL: {prefix}{f}")
    return 1 if failures else 0
