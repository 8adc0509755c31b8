"""The built-in models on CUDA (#14 "CUDA runs"): ref:small and a
depth-truncated ref:llava-moe-7b (2 vision and 2 decoder layers) captured
with --device cuda in bfloat16 (ref:small also in float16), each a complete
run whose phases tile its wall time, with ops recorded and the GPU named in
the roofline's device; ref:small's tokens beside a CPU bfloat16 capture of
the same image and prompt (printed: the two devices' kernels round
differently). Prints a short table; exit 1 on a failed check, 77 when
torch.cuda sees no GPU.

    python3 check_cuda_capture.py MVPROF_CLI IMAGE OUT_DIR
"""
from __future__ import annotations

import json
import os
import subprocess
import sys


def capture(cli: str, image: str, out: str, name: str, *args: str) -> dict:
    session = os.path.join(out, name + ".mvprof")
    subprocess.run([cli, "capture", "--image", image, "--out", session, "--force", *args],
                   check=True, stdout=subprocess.DEVNULL)
    report = subprocess.run([cli, "report", session, "--format", "json"], check=True,
                            capture_output=True, text=True).stdout
    return json.loads(report)["runs"][0]


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
    print(f"  {'run':12} {'status':9} {'wall ms':>9} {'coverage':>9} {'ops':>6}  device")
    for name, args in cases:
        try:
            r = capture(cli, image, out, name, *args)
        except subprocess.CalledProcessError as e:
            failures.append(f"{name}: mvprof-cli exited {e.returncode}")
            continue
        runs[name] = r
        device = r.get("roofline", {}).get("host", {}).get("name", "?")
        print(f"  {name:12} {r['status']:9} {r['wall_ms_measured']:9.1f} "
              f"{r['phase_coverage']:9.3f} {r['ops_recorded']:6}  {device}")
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
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
