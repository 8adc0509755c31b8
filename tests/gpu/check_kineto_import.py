"""A real torch.profiler trace imports: ResNet-18 profiled here (on CUDA when
there is a GPU: Kineto's object form with cpu_op, kernel, gpu_memcpy and
cuda_runtime events; on a CPU-only libtorch without Kineto, the legacy bare
array), exported to Chrome-trace JSON and gzip, then `mvprof-cli import`:
one op per cpu_op (legacy: per `::` event), and on a GPU every kernel, copy
and fill linked to an op. Prints what it measured; exit 1 on a mismatch.

    python3 check_kineto_import.py MVPROF_CLI OUT_DIR
"""
from __future__ import annotations

import gzip
import json
import os
import shutil
import sqlite3
import subprocess
import sys

import gpucheck


def profile(path: str, cuda: bool) -> None:
    import torch
    import torchvision

    model = torchvision.models.resnet18().eval()
    x = torch.randn(2, 3, 224, 224)
    activities = [torch.profiler.ProfilerActivity.CPU]
    if cuda:
        model, x = model.cuda(), x.cuda()
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    with torch.no_grad():
        model(x)
        with torch.profiler.profile(activities=activities, record_shapes=True) as prof:
            model(x)
            if cuda:
                torch.cuda.synchronize()
    prof.export_chrome_trace(path)


def expected(trace: dict | list) -> tuple[int, int]:
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    slices = [e for e in events if e.get("ph") == "X"]
    if isinstance(trace, dict):
        ops = sum(e.get("cat") == "cpu_op" for e in slices)
    else:
        ops = sum("::" in e.get("name", "") for e in slices)
    gpu = sum(e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") for e in slices)
    return ops, gpu


def main() -> int:
    cli, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    import torch

    cuda = torch.cuda.is_available()
    trace = os.path.join(out, "resnet18.pt.trace.json")
    profile(trace, cuda)
    with open(trace, "rb") as src, gzip.open(trace + ".gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    data = json.load(open(trace))
    want_ops, want_gpu = expected(data)
    failures = []
    for name in (trace, trace + ".gz"):
        session = name + ".mvprof"
        r = subprocess.run([cli, "import", name, "--out", session, "--force"],
                           capture_output=True, text=True)
        print(r.stdout.strip() or r.stderr.strip())
        if r.returncode != 0:
            failures.append(f"{name}: import failed: {r.stderr.strip()}")
            continue
        with gpucheck.connect(session) as db:
            acts = db.execute("SELECT COUNT(*), COUNT(op) FROM device_activity "
                              "WHERE kind IN ('kernel','memcpy','memset')").fetchone()
            flops_known = db.execute("SELECT COUNT(*) FROM op_total WHERE flops > 0").fetchone()[0]
        ops = int(json.loads(subprocess.run([cli, "report", session, "--format", "json"],
                                            capture_output=True, text=True, check=True).stdout)
                  ["runs"][0]["ops_recorded"])
        print(f"{os.path.basename(name)}: torch {torch.__version__}, cuda={cuda}: "
              f"ops {ops} (trace {want_ops}), GPU work {acts[0]} (trace {want_gpu}), "
              f"linked {acts[1]}, op names with FLOPs {flops_known}")
        if ops != want_ops:
            failures.append(f"{name}: {ops} ops, the trace has {want_ops}")
        if acts[0] != want_gpu or acts[1] != acts[0]:
            failures.append(f"{name}: {acts[1]} of {acts[0]} GPU activities linked "
                            f"(trace: {want_gpu})")
        if isinstance(data, dict) and flops_known == 0:
            failures.append(f"{name}: no op with FLOPs (Input Dims not read?)")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
