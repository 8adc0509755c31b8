"""The built-in models on CUDA (#14 "CUDA runs"): ref:small and a
depth-truncated ref:llava-moe-7b (2 vision and 2 decoder layers) captured
with --device cuda in bfloat16 (ref:small also in float16), each a complete
run whose phases tile its wall time, with ops recorded and the GPU named in
the roofline's device; ref:small's tokens beside a CPU bfloat16 capture of
the same image and prompt (printed: the two devices' kernels round
differently). Each CUDA capture traces its kernels and copies with CUPTI:
at least 95 % of the model's device time attributed to a module span, the
host-to-device copy of the image among its copies, every attributed CUDA
call inside its span on the run's clock, and no records dropped. Device
timing: every span has a device time from CUDA events, and no span's own
kernels (CUPTI's timestamps) add up to more than its events' interval; with
--device-timing exact each op's host time covers its kernels (printed beside
the default mode, where launches return before their kernels run). Hardware
counters (--hw-counters): every top-level module gets counted FLOPs, DRAM
bytes and kernel time, the report's roofline plots them, and the LLM's
counted FLOPs sit within 4x of mvprof's estimate from shapes (printed: the
tensor-core counters' op convention is not documented). GPU memory from
libtorch's caching allocator: what tensors held as the run began covers the
model's weights (all on the GPU), and the run's peak lies above it. A user's
TorchScript model on CUDA (the CLI's example; the examples' Mixtral-layout
VLM): complete, traced, timed, its memory, attention and routing read from
the GPU's tensors, its W8 what-if run there, and its hardware counters
read by a replay of its own pipeline (every expert that ran counted by its
module path). (The tracing's cost is bench_capture_overhead --gpu-trace: in
one process.)
Prints a short table and "SUMMARY …" lines for run.sh; exit 1 on a failed
check, 77 when torch.cuda sees no GPU.

    python3 check_cuda_capture.py MVPROF_CLI IMAGE OUT_DIR
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import gpucheck


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


def memory_failures(name: str, m: dict) -> list[str]:
    """What the allocator's figures (gpu.memory_start_bytes, gpu.peak_*) got wrong."""
    if "gpu.peak_allocated_bytes" not in m:
        return [f"{name}: no GPU memory figures (gpu.memory_available: see its note)"]
    start, peak = m["gpu.memory_start_bytes"], m["gpu.peak_allocated_bytes"]
    weights = m.get("weights.bytes", 0.0)
    out = []
    if start < weights:
        out.append(f"{name}: {start:.0f} bytes held at the start, below the weights' {weights:.0f}")
    if not peak > start:
        out.append(f"{name}: the peak {peak:.0f} does not rise above the start {start:.0f}")
    if m.get("gpu.peak_reserved_bytes", 0.0) < peak:
        out.append(f"{name}: reserved below allocated")
    return out


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
    with gpucheck.connect(session) as db:
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


def device_timing_failures(name: str, session: str, m: dict) -> list[str]:
    """Span device times from CUDA events, checked against CUPTI's kernels."""
    if m.get("gpu.device_timing", 0) < 1:
        return [f"{name}: no device timing (see the gpu.device_timing note)"]
    with gpucheck.connect(session) as db:
        spans, timed = db.execute("SELECT count(*), count(device_ns) FROM span "
                                  "WHERE run = 1").fetchone()
        # One stream: a span's own kernels run inside its two events (2 µs of
        # slack for the events' resolution).
        over = db.execute("SELECT count(*), max(k - device_ns) FROM (SELECT s.device_ns, "
                          "sum(a.end_ns - a.start_ns) AS k FROM span s JOIN device_activity a "
                          "ON a.run = s.run AND a.span = s.id WHERE s.run = 1 AND "
                          "a.kind = 'kernel' GROUP BY s.id) WHERE k > device_ns + 2000"
                          ).fetchone()
    out = []
    if timed != spans:
        out.append(f"{name}: {spans - timed} of {spans} spans without a device time")
    if over[0]:
        out.append(f"{name}: {over[0]} spans whose own kernels outlast their events "
                   f"(by up to {over[1]} ns)")
    return out


def hw_counter_failures(cli: str, image: str, out: str, base: list[str]) -> list[str]:
    """A --hw-counters capture: counted work per module, against the estimates."""
    r = capture(cli, image, out, "small-hw", *base, "--hw-counters")
    session = os.path.join(out, "small-hw.mvprof")
    m = metrics(session)
    if m.get("hw.counters", 0) <= 0:
        with sqlite3.connect(session) as db:
            note = db.execute("SELECT note FROM run_metric WHERE name = 'hw.counters'").fetchone()
        return [f"small-hw: no hardware counters ({note[0] if note else 'no hw.counters row'})"]
    with gpucheck.connect(session) as db:
        estimated = dict(db.execute("SELECT m.path, sum(s.flops) FROM span s JOIN module m "
                                    "ON m.run = s.run AND m.id = s.module WHERE s.run = 1 AND "
                                    "s.parent IS NULL GROUP BY m.path"))
    failures = []
    for path, flops in sorted(estimated.items()):
        counted = m.get(f"hw.{path}.flops")
        dram, ns = m.get(f"hw.{path}.dram_bytes"), m.get(f"hw.{path}.gpu_ns")
        print(f"  counters {path:10} flops {counted} (estimated {flops}), dram bytes {dram}, "
              f"kernel ns {ns}")
        if counted is None or dram is None or ns is None:
            failures.append(f"small-hw: module {path} has no counted work")
    llm, llm_estimate = m.get("hw.llm.flops"), estimated.get("llm", 0)
    if llm and llm_estimate and not 0.25 <= llm / llm_estimate <= 4:
        failures.append(f"small-hw: llm counted {llm:.3g} FLOPs vs {llm_estimate:.3g} estimated")
    measured = [p for p in r.get("roofline", {}).get("modules", []) if "flops_measured" in p]
    if not measured:
        failures.append("small-hw: the report's roofline plots no counted module")
    print(f"SUMMARY hardware counters: {m['hw.counters']:.0f} replays, llm counted/estimated "
          f"FLOPs {llm / llm_estimate if llm and llm_estimate else float('nan'):.2f}")
    return failures


def ops_covering_kernels(cli: str, session: str, out: str) -> tuple[int, int]:
    """(ops with kernels, those whose host time is shorter than their kernels')."""
    trace = session + ".json"
    subprocess.run([cli, "export", session, "--chrome-trace", trace, "--force"], check=True,
                   stdout=subprocess.DEVNULL)
    with open(trace) as f:
        events = json.load(f)["traceEvents"]
    host: dict[int, float] = {}
    kernels: dict[int, float] = {}
    for e in events:
        ext = e.get("args", {}).get("External id")
        if e.get("ph") != "X" or ext is None:
            continue
        if e.get("cat") == "kernel":
            kernels[ext] = kernels.get(ext, 0.0) + e["dur"]
        elif e.get("cat") == "cpu_op":
            host[ext] = e["dur"]
    short = sum(1 for op, k in kernels.items() if op in host and host[op] + 2.0 < k)
    return len(kernels), short


def user_model_failures(cli: str, image: str, out: str) -> list[str]:
    """The example TorchScript model (mvprof-cli example-model) on CUDA: a
    complete run, its kernels traced (held to half their time within module
    spans: the TorchScript hierarchy opens spans at ops, and the pipeline's own
    argmax and copies run outside), spans timed by CUDA events, the GPU's
    memory, and the attention heatmap read from its softmax on the GPU."""
    folder = os.path.join(out, "user-model")
    subprocess.run([cli, "example-model", folder], check=True,
                   stdout=subprocess.DEVNULL)
    name = "user-cuda"
    r = capture(cli, image, out, name, "--model-file",
                os.path.join(folder, "example-vlm.json"), "--device", "cuda", "--steps", "3")
    session = os.path.join(out, name + ".mvprof")
    m = metrics(session)
    with gpucheck.connect(session) as db:
        timed = db.execute("SELECT count(device_ns) FROM span WHERE run = 1").fetchone()[0]
        attention = gpucheck.patch_count(db, 1, "attention")
    share = m.get("gpu.attributed_share", 0.0)
    print(f"SUMMARY {name} (TorchScript): status {r['status']}, "
          f"{m.get('gpu.work', 0):.0f} kernels/copies/fills, {share:.3f} attributed to a module, "
          f"{timed} spans with a device time, {attention} attention rows")
    fails = [f"{name}: status {r['status']}"] if r["status"] != "complete" else []
    if m.get("gpu.trace_available") == 0 or share < 0.5:
        fails.append(f"{name}: GPU trace share {share} (held to ≥ 0.5)")
    if timed <= 0:
        fails.append(f"{name}: no span has a device time")
    if attention <= 0:
        fails.append(f"{name}: no attention rows from the model's softmax")
    return fails + memory_failures(name, m) + scripted_moe_failures(cli, image, out)


def scripted_moe_failures(cli: str, image: str, out: str) -> list[str]:
    """The examples' Mixtral-layout TorchScript VLM (torchvision_vlm.py, a
    small conv tower) on CUDA with its role manifest: routing rows read from
    its router's outputs on the GPU, and its W8 what-if (dequantised weights,
    as on the CPU) run there, A/B repeated, with each setup's GPU memory."""
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "capture", "models",
                                    "examples"))
    try:
        from torchvision_vlm import ROLES, Vlm, save
    except ImportError as e:  # the example's towers need torchvision
        print(f"  scripted MoE on CUDA: skipped ({e})")
        return []

    class Patches(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.patch = torch.nn.Conv2d(3, 48, 32, stride=32)

        def forward(self, pixels: torch.Tensor) -> torch.Tensor:
            return self.patch(pixels).flatten(2).transpose(1, 2)[0]

    folder = os.path.join(out, "scripted-moe")
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(0)
    manifest = save(Vlm(Patches(), 48).eval(), folder, "moe-vlm", 32, ROLES)
    name = "scripted-moe-cuda"
    r = capture(cli, image, out, name, "--model-file", manifest, "--device", "cuda",
                "--steps", "3")
    session = os.path.join(out, name + ".mvprof")
    with sqlite3.connect(session) as db:
        routing = db.execute("SELECT coalesce(sum(rows), 0) FROM routing_chunk WHERE run = 1").fetchone()[0]
    c = json.loads(subprocess.run([cli, "whatif", session, "--quant", "w8", "--group", "32",
                                   "--reps", "2", "--format", "json"], check=True,
                                  capture_output=True, text=True).stdout)
    layers = c.get("transform_details", {}).get("quant.layers", {}).get("value", 0)
    peak = c.get("peak_gpu_bytes_derived")
    print(f"SUMMARY {name}: status {r['status']}, {routing} routing rows; W8 what-if "
          f"{layers:.0f} layers, speed-up {gpucheck.speedup(c['total'])}, "
          f"fidelity KL {c.get('fidelity_measured', {}).get('kl_mean')}")
    fails = [f"{name}: status {r['status']}"] if r["status"] != "complete" else []
    if routing <= 0:
        fails.append(f"{name}: no routing rows from its router on the GPU")
    if not layers or not isinstance(peak, dict):
        fails.append(f"{name} W8 what-if: quant.layers {layers}, peak GPU memory {peak}")
    return fails + scripted_counter_failures(cli, image, out, manifest)


def scripted_counter_failures(cli: str, image: str, out: str, manifest: str) -> list[str]:
    """--hw-counters on the Mixtral-layout TorchScript model: its own pipeline
    replayed under the range profiler, every expert that ran counted by its
    module path."""
    name = "scripted-moe-hw"
    capture(cli, image, out, name, "--model-file", manifest, "--device", "cuda", "--steps", "2",
            "--hw-counters")
    session = os.path.join(out, name + ".mvprof")
    m = metrics(session)
    with gpucheck.connect(session) as db:
        note = db.execute("SELECT note FROM run_metric WHERE run = 1 AND "
                          "name = 'hw.counters'").fetchone()
        spanned = [p for (p,) in db.execute(
            "SELECT DISTINCT m.path FROM span s JOIN module m ON m.run = s.run AND "
            "m.id = s.module WHERE s.run = 1")]
        experts = [p for (p,) in db.execute(
            "SELECT DISTINCT m.path FROM span s JOIN module m ON m.run = s.run AND "
            "m.id = s.module WHERE s.run = 1 AND m.role = 'expert'")]
    counted = [p for p in spanned if f"hw.{p}.flops" in m]
    print(f"SUMMARY {name}: {m.get('hw.counters', 0):.0f} replays, {len(counted)} of "
          f"{len(spanned)} modules counted ({note[0] if note else 'no hw.counters row'})")
    if m.get("hw.counters", 0) <= 0:
        return [f"{name}: no hardware counters ({note[0] if note else 'no hw.counters row'})"]
    uncounted = [p for p in experts if not m.get(f"hw.{p}.flops", 0) > 0]
    return [f"{name}: experts without counted FLOPs: {uncounted}"] if uncounted or not experts \
        else []


def main() -> int:
    args = gpucheck.start()
    if args is None:
        return 77
    cli, image, out = args
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
        failures += device_timing_failures(name, session, m)
        failures += memory_failures(name, m)
        mib = 1 << 20
        print(f"SUMMARY {name}: {m.get('gpu.work', 0):.0f} kernels/copies/fills recorded, "
              f"{m.get('gpu.attributed_share', 0):.3f} of the device time attributed to a "
              f"module (goal ≥ 0.95), GPU energy {m.get('energy.gpu_j', float('nan')):.2f} J "
              f"per inference, GPU memory peak "
              f"{m.get('gpu.peak_allocated_bytes', float('nan')) / mib:.1f} MiB (weights "
              f"{m.get('weights.bytes', float('nan')) / mib:.1f} MiB)")
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
        failures += user_model_failures(cli, image, out)
    except subprocess.CalledProcessError as e:
        failures.append(f"user-cuda: mvprof-cli exited {e.returncode}")
    try:
        failures += hw_counter_failures(cli, image, out, cases[0][1])
    except subprocess.CalledProcessError as e:
        failures.append(f"small-hw: mvprof-cli exited {e.returncode}")
    # Exact timing: each op waits for its kernels, so its host time covers them.
    try:
        exact = os.path.join(out, "small-exact.mvprof")
        capture(cli, image, out, "small-exact", *cases[0][1], "--device-timing", "exact")
        m = metrics(exact)
        failures += device_timing_failures("small-exact", exact, m)
        with_kernels, short = ops_covering_kernels(cli, exact, out)
        _, short_default = ops_covering_kernels(cli, os.path.join(out, "small-bf16.mvprof"), out)
        print(f"  ops shorter than their kernels: exact mode {short} of {with_kernels} "
              f"(default mode {short_default}); exact-mode waits "
              f"{m.get('gpu.device_timing_waits', 0):.0f}")
        if m.get("gpu.device_timing") != 2:
            failures.append("small-exact: not labelled exact (gpu.device_timing)")
        if short:
            failures.append(f"small-exact: {short} ops shorter than their kernels")
    except (subprocess.CalledProcessError, OSError) as e:
        failures.append(f"small-exact: {e}")
    return gpucheck.verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
