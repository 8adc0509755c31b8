"""The design note's what-if table, measured on a GPU (#14): a depth-truncated
ref:llava-moe-7b (2 layers) captured on CUDA in float16, then two what-ifs
re-run against it in the same process as the baseline, A/B interleaved
(--reps 5): AWQ 4-bit weights + the merged INT4 KV cache, and the same plus
visual-token pruning (keep 0.4). Prints one row per configuration: total
latency (median and 95 % interval of the A/B repetitions), the speed-up's
interval (or "within noise"), peak GPU memory (derived: the configuration's
weights + what its tensors grew by during the run, libtorch's caching
allocator) beside weight + KV bytes (measured from tensor sizes), QPS at
batch 1 (derived, 1/latency) and
J per inference (NVML, the GPU's counter), with the int4 kernel's use and the
fidelity. Also writes the rows as JSON (OUT_DIR/table.json) and the lines
run.sh puts in its summary ("SUMMARY …").
Exit 1 when a what-if fails or its fidelity collapses, 77 without a GPU.

    python3 check_design_table.py MVPROF_CLI IMAGE OUT_DIR
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import gpucheck
from gpucheck import run

BASE = ["--model", "ref:llava-moe-7b", "--layers", "2", "--device", "cuda",
        "--dtype", "float16", "--steps", "8"]
ROWS = [
    ("AWQ-4bit + KV cache", ["--quant", "w4", "--kv", "int4"]),
    ("+ token pruning", ["--quant", "w4", "--kv", "int4", "--prune-visual", "0.4"]),
]


def interval(t: dict) -> str:
    low, high = t.get("ci95") or (None, None)
    if low is None:
        return f"{t['median']:.1f}"
    return f"{t['median']:.1f} [{low:.1f}, {high:.1f}]"


def bytes_of(c: dict, arm: str) -> float:
    total = 0.0
    for key in ("weight_bytes_measured", "kv_bytes_measured"):
        v = c.get(key, {}).get(arm)
        total += v if isinstance(v, (int, float)) else 0.0
    return total


def peak_gpu(c: dict, arm: str) -> float | None:
    p = c.get("peak_gpu_bytes_derived")
    return p[arm] if isinstance(p, dict) else None


def energy(c: dict, arm: str) -> str:
    e = c.get("energy_j_per_inference_measured")
    return f"{e[arm]:.2f}" if isinstance(e, dict) else "n/a"


def main() -> int:
    args = gpucheck.start()
    if args is None:
        return 77
    cli, image, out = args
    session = os.path.join(out, "table.mvprof")
    run(cli, "capture", *BASE, "--image", image, "--out", session, "--force")
    rows, failures = [], []
    for name, transform in ROWS:
        try:
            c = json.loads(run(cli, "whatif", session, *transform, "--reps", "5",
                               "--format", "json"))
        except subprocess.CalledProcessError as e:
            failures.append(f"{name}: mvprof-cli whatif exited {e.returncode}: "
                            f"{e.stderr.strip()[-300:]}")
            continue
        if not rows:  # the baseline's arm of the first what-if is the FP16 row
            rows.append(("FP16 (baseline)", c["total"]["baseline"], None,
                         bytes_of(c, "baseline"), peak_gpu(c, "baseline"),
                         energy(c, "baseline"), None, None))
        kernels = c.get("transform_details", {}).get("quant.int4_kernels", {})
        rows.append((name, c["total"]["whatif"], c["total"], bytes_of(c, "whatif"),
                     peak_gpu(c, "whatif"), energy(c, "whatif"), kernels.get("value"),
                     c.get("fidelity_measured")))
        if peak_gpu(c, "whatif") is None:
            failures.append(f"{name}: no peak GPU memory ({c.get('peak_gpu_bytes_derived')})")
        fidelity = c.get("fidelity_measured") or {}
        if fidelity.get("top1_agreement", 0) < 0.25:
            failures.append(f"{name}: top-1 agreement {fidelity.get('top1_agreement')}")
    print(f"  {'configuration':22} {'latency ms [95 %]':>24} {'speed-up [95 %]':>24} "
          f"{'peak GPU MB':>11} {'weights+KV MB':>13} {'QPS':>6} {'J/inf':>6}")
    table = []
    for name, t, total, nbytes, peak, joules, kernels, fidelity in rows:
        if total:
            s = total["speedup"]
            speed = ("within noise" if total["within_noise"] else
                     f"{s['median']:.2f} [{s['ci95'][0]:.2f}, {s['ci95'][1]:.2f}]")
        else:
            speed = "1 (reference)"
        qps = 1000.0 / t["median"] if t["median"] > 0 else 0.0
        peak_mb = f"{peak / 1e6:.1f}" if peak is not None else "n/a"
        line = (f"{name:22} {interval(t):>24} {speed:>24} {peak_mb:>11} {nbytes / 1e6:13.1f} "
                f"{qps:6.2f} {joules:>6}")
        print("  " + line)
        print("SUMMARY table: " + line)
        if kernels is not None:
            print(f"    int4 kernel layers: {kernels}; fidelity: {fidelity}")
        table.append({"configuration": name, "latency_ms": t, "speedup": total and total["speedup"],
                      "peak_gpu_bytes_derived": peak, "weight_kv_bytes": nbytes,
                      "qps_derived": qps, "j_per_inference": joules})
    with open(os.path.join(out, "table.json"), "w") as f:
        json.dump(table, f, indent=2)
    if len(rows) < 3:
        failures.append(f"{len(rows)} of the table's 3 rows measured")
    return gpucheck.verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
