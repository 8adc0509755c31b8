"""W8 on libtorch's int8 matmul on a GPU (#14; #11's weight-bound decode):
a depth-truncated ref:llava-moe-7b (1 layer: its 4096×14336 experts make
decode weight-bound) captured on CUDA in float16, then `whatif --quant w8`
A/B against it (--reps 5). The decoder linears must run through libtorch's
int8 matmul (aten::_weight_int8pack_mm, else aten::_int_mm): the run metric
quant.int8_kernels says which and on how many layers, and the what-if's ops
hold its calls. Prints the decode and total speed-ups with their intervals
(or "within noise") and the fidelity, and a SUMMARY line for run.sh.
Exit 1 when no layer ran the int8 matmul, its calls are missing or the
fidelity collapses; 77 without a GPU.

    python3 check_int8_cuda.py MVPROF_CLI IMAGE OUT_DIR
"""
from __future__ import annotations

import json
import os
import sys

import gpucheck
from gpucheck import run, speedup

BASE = ["--model", "ref:llava-moe-7b", "--layers", "1", "--device", "cuda",
        "--dtype", "float16", "--steps", "8"]
KERNELS = ("aten::_weight_int8pack_mm", "aten::_int_mm")


def main() -> int:
    args = gpucheck.start()
    if args is None:
        return 77
    cli, image, out = args
    session = os.path.join(out, "w8.mvprof")
    run(cli, "capture", *BASE, "--image", image, "--out", session, "--force")
    c = json.loads(run(cli, "whatif", session, "--quant", "w8", "--reps", "5",
                       "--format", "json"))
    details = c.get("transform_details", {})
    kernels = details.get("quant.int8_kernels", {})
    layers = details.get("quant.int8_matmul_layers", {}).get("value", 0)
    print(f"  quant.int8_kernels {kernels.get('value')}: {kernels.get('note')}")
    calls = gpucheck.op_calls(cli, session, c["run"], out, KERNELS)
    decode = next((p for p in c["phases"] if p["phase"] == "decode"), None)
    print(f"  int8 matmul calls in the what-if run: {calls} ({layers} layers)")
    fidelity = c.get("fidelity_measured") or {}
    ok = gpucheck.faithful(fidelity)
    if decode:
        print(f"  decode speed-up {speedup(decode)}")
    print(f"  total speed-up {speedup(c['total'])}")
    print(f"SUMMARY W8 on CUDA (llava-moe-7b, 1 layer, fp16): {layers} layers on the int8 "
          f"matmul; decode {speedup(decode) if decode else 'n/a'}; total {speedup(c['total'])}")
    failures = []
    if layers == 0:
        failures.append(f"no layer on libtorch's int8 matmul: {kernels.get('note')}")
    elif calls == 0:
        failures.append("no int8 matmul call in the what-if run's ops")
    if not ok:
        failures.append(f"fidelity {fidelity}")
    return gpucheck.verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
