"""The built-in model's other what-ifs on a GPU (#14; the design note's
table is check_design_table's): ref:small captured on CUDA in bfloat16, then
each what-if run against it there, A/B (--reps 2) — cold-expert freezing,
dynamic expert skipping, static expert pruning, vision-MLP channel pruning
(sensitivity by autograd on the GPU), the downsample baseline, FastV,
PyramidDrop, DART, VisionZip, ToMe and the published KV-cache methods
(StreamingLLM, H2O, SnapKV, KIVI), whose selections read the GPU's
attention on the host and index the model's tensors on the device. Each
must complete on the GPU, with its transform's own figure (experts frozen,
β per layer, experts kept, channels removed, the encoder's tokens, tokens
kept per cut, dominant tokens, tokens merged, positions kept, KIVI's bits)
and a fidelity; prints each speed-up with its interval and a SUMMARY line.
Exit 1 on a failed what-if; 77 without a GPU.

    python3 check_whatifs_cuda.py MVPROF_CLI IMAGE OUT_DIR
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import gpucheck
from gpucheck import run, speedup

BASE = ["--model", "ref:small", "--device", "cuda", "--dtype", "bfloat16", "--steps", "6"]
# Each what-if, and the run metric (a name's start) it must leave: its own figure.
WHATIFS = [
    ("freeze-cold", ["--freeze-cold", "--freeze-window", "16", "--freeze-min", "2"],
     "freeze.experts"),
    ("skip-experts", ["--skip-experts"], "skip.beta.layer_"),
    ("keep-experts", ["--keep-experts", "2"], "experts.kept.layer_"),
    ("prune-channels", ["--prune-channels", "0.25"], "channels.removed"),
    ("downsample", ["--downsample", "16"], "downsample.tokens"),
    ("fastv", ["--fastv", "0.5"], "tokens.kept.layer_"),
    ("pdrop", ["--pdrop", "0.5"], "tokens.kept.layer_"),
    ("dart", ["--dart", "32"], "tokens.kept.layer_"),
    ("visionzip", ["--visionzip", "64"], "visionzip.dominant"),
    ("tome", ["--tome", "8"], "tome.merged"),
    ("kv streaming", ["--kv-method", "streaming"], "kv.budget_positions"),
    ("kv h2o", ["--kv-method", "h2o"], "kv.budget_positions"),
    ("kv snapkv", ["--kv-method", "snapkv"], "kv.budget_positions"),
    ("kv kivi", ["--kv-method", "kivi"], "kv.kivi.bits"),
]


def run_state(session: str, run_id: int, figure: str) -> tuple[str, dict]:
    """The what-if run's status and its metrics whose names start with `figure`."""
    with sqlite3.connect(session) as db:
        status = db.execute("SELECT status FROM run WHERE id = ?", (run_id,)).fetchone()
        found = dict(db.execute("SELECT name, value FROM run_metric WHERE run = ? AND "
                                "substr(name, 1, ?) = ?", (run_id, len(figure), figure)))
    return (status[0] if status else "missing"), found


def main() -> int:
    args = gpucheck.start()
    if args is None:
        return 77
    cli, image, out = args
    failures = []
    done = []
    session = os.path.join(out, "whatifs.mvprof")  # one baseline, each what-if against it
    run(cli, "capture", *BASE, "--image", image, "--out", session, "--force")
    for name, flags, figure in WHATIFS:
        try:
            c = json.loads(run(cli, "whatif", session, *flags, "--run", "1", "--reps", "2",
                               "--format", "json"))
        except subprocess.CalledProcessError as e:
            failures.append(f"{name}: mvprof-cli exited {e.returncode}: "
                            f"{(e.stderr or '').strip()[:300]}")
            continue
        status, found = run_state(session, c["run"], figure)
        fidelity = c.get("fidelity_measured") or {}
        print(f"  {name}: run {status}, {found}, total {speedup(c['total'])}, "
              f"KL mean {fidelity.get('kl_mean')}")
        if status != "complete":
            failures.append(f"{name}: run {status}")
        elif not found:
            failures.append(f"{name}: no {figure}* run metric")
        elif not fidelity:
            failures.append(f"{name}: no fidelity measured")
        else:
            done.append(f"{name} {speedup(c['total'])}")
    print(f"SUMMARY other what-ifs on CUDA (ref:small, bf16): {len(done)} of "
          f"{len(WHATIFS)} ran: " + "; ".join(done))
    return gpucheck.verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
