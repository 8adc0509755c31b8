"""The built-in models on CUDA (#14 "CUDA runs"): ref:small and a
depth-truncated ref:llava-moe-7b (2 vision and 2 decoder layers) captured
with --device cuda in bfloat16 (ref:small also in float16), each a complete
run whose phases tile its wall time, with ops recorded and the GPU named in
the roofline's device; ref:small's tokens beside a CPU bfloat16 capture of
the same image and prompt (printed: the two devices' kernels round
differently). Each CUDA capture traces its kernels and copies with CUPTI:
at least 95 % of the model's device time attributed to a module span, the
host-to-device copy of the image among its copies, every attributed CUDA
call inside its span on the run's clock, and no records dropped. Then the
tracing's cost: ref:small traced and with --no-gpu-trace, interleaved,
medians printed (no threshold). Prints a short table; exit 1 on a failed
check, 77 when torch.cuda sees no GPU.

    python3 check_cuda_capture.py MVPROF_CLI IMAGE OUT_DIR
"""
from __future__ import annotations

import json
import os
import sqlite3
import statistics
import subprocess
import sys


def capture(cli: str, image: str, out: str, name: str, *args: str) -> dict:
    session = os.path.join(out, name + ".mvprof")
    subprocess.run([cli, "capture", "--image", image, "--out", session, "--force", *args],
                   check=True, stdout=subprocess.DEVNULL)
    report = subprocess.run([cli, "report", session, "--format", "json"], check=True,
                            capture_output=True, text=True).stdout
    return json.loads(report)["runs"][0]


def metrics(session: str) -> dict:
    with sqlite3.connect(session) as db:
        return dict(db.execute("SELECT name, value FROM run_metric WHERE run = 1"))


def trace_failures(name: str, session: str, m: dict) -> list[str]:
    """What the in-capture CUPTI trace got wrong, if anything."""
    if m.get("gpu.trace_available") == 0:
        return [f"{name}: no GPU trace (see the run_metric note)"]
    out = []
    share = m.get("gpu.attributed_share", 0.0)
    if share < 0.95:
        out.append(f"{name}: {share:.3f} of the device time attributed to a module")
    if m.get("cupti.dropped", 0) > 0:
        out.append(f"{name}: CUPTI dropped {m['cupti.dropped']:.0f} records")
    with sqlite3.connect(session) as db:
        htod = db.execute("SELECT count(*) FROM device_activity a JOIN interned i ON i.id = a.name "
                          "WHERE a.run = 1 AND a.kind = 'memcpy' AND i.text LIKE '%HtoD%' "
                          "AND a.span IS NOT NULL").fetchone()[0]
        # An API call attributed to a span ran inside it (5 µs of slack for
        # the clock pairing): the two clocks line up.
        outside = db.execute("SELECT count(*), min(a.start_ns - s.start_ns), "
                             "max(a.end_ns - s.end_ns) FROM device_activity a "
                             "JOIN span s ON s.run = a.run AND s.id = a.span "
                             "WHERE a.run = 1 AND a.kind IN ('runtime', 'driver') AND "
                             "(a.start_ns < s.start_ns - 5000 OR a.end_ns > s.end_ns + 5000)"
                             ).fetchone()
    if htod == 0:
        out.append(f"{name}: no host-to-device copy attributed to a module")
    if outside[0]:
        out.append(f"{name}: {outside[0]} CUDA calls outside their span "
                   f"(start lead {outside[1]} ns, end lag {outside[2]} ns)")
    return out


def tracing_cost(cli: str, image: str, out: str, reps: int = 3) -> None:
    """ref:small traced and untraced, interleaved: the medians of wall time."""
    walls: dict[str, list[float]] = {"traced": [], "untraced": []}
    base = ["--model", "ref:small", "--device", "cuda", "--dtype", "bfloat16"]
    for i in range(reps):
        for arm, extra in (("traced", []), ("untraced", ["--no-gpu-trace"])):
            r = capture(cli, image, out, f"cost-{arm}-{i}", *base, *extra)
            walls[arm].append(r["wall_ms_measured"])
    t, u = statistics.median(walls["traced"]), statistics.median(walls["untraced"])
    print(f"  tracing cost on ref:small ({reps} interleaved each): traced {t:.1f} ms, "
          f"untraced {u:.1f} ms, ratio {t / u:.3f} (spread traced "
          f"{min(walls['traced']):.1f}–{max(walls['traced']):.1f}, untraced "
          f"{min(walls['untraced']):.1f}–{max(walls['untraced']):.1f})")


def main() -> int:
    cli, image, out = sys.argv[1], sys.argv[2], sys.argv[3]
    import torch

    if not torch.cuda.is_available():
        print("  no CUDA device visible to torch: skipped")
        return 77
    os.makedirs(out, exist_ok=True)
    cases = [
        ("small-bf16", ["--model", "ref:small", "--device", "cuda", "--dtype", "bfloat16"]),
        ("small-fp16", ["--model", "ref:small", "--device", "cuda:0", "--dtype", "float16"]),
        ("moe7b-bf16", ["--model", "ref:llava-moe-7b", "--layers", "2", "--device", "cuda",
                        "--dtype", "bfloat16", "--steps", "4"]),
    ]
    failures = []
    runs = {}
    print(f"  {'run':12} {'status':9} {'wall ms':>9} {'coverage':>9} {'ops':>6} "
          f"{'gpu work':>8} {'attrib':>6}  device")
    for name, args in cases:
        try:
            r = capture(cli, image, out, name, *args)
        except subprocess.CalledProcessError as e:
            failures.append(f"{name}: mvprof-cli exited {e.returncode}")
            continue
        runs[name] = r
        device = r.get("roofline", {}).get("host", {}).get("name", "?")
        session = os.path.join(out, name + ".mvprof")
        m = metrics(session)
        print(f"  {name:12} {r['status']:9} {r['wall_ms_measured']:9.1f} "
              f"{r['phase_coverage']:9.3f} {r['ops_recorded']:6} {m.get('gpu.work', 0):8.0f} "
              f"{m.get('gpu.attributed_share', 0):6.3f}  {device}")
        failures += trace_failures(name, session, m)
        if r["status"] != "complete":
            failures.append(f"{name}: status {r['status']}")
        if r["phase_coverage"] < 0.98:
            failures.append(f"{name}: phases cover {r['phase_coverage']:.3f} of the run")
        if r["ops_recorded"] <= 0:
            failures.append(f"{name}: no ops recorded")
        if not device.startswith("GPU:"):
            failures.append(f"{name}: the device is {device!r}")
    try:
        cpu = capture(cli, image, out, "small-cpu-bf16", "--model", "ref:small", "--dtype",
                      "bfloat16")
        if "small-bf16" in runs:
            print(f"  ref:small output, cuda: {runs['small-bf16']['output']!r}; "
                  f"cpu: {cpu['output']!r}")
    except subprocess.CalledProcessError as e:
        failures.append(f"small-cpu-bf16: mvprof-cli exited {e.returncode}")
    try:
        tracing_cost(cli, image, out)
    except subprocess.CalledProcessError as e:
        failures.append(f"tracing cost: mvprof-cli exited {e.returncode}")
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
