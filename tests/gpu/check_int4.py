"""W4 on libtorch's own int4 matmul (#11 item 2, #14): with a libtorch 2.x
build of mvprof-cli, `whatif --quant w4` on ref:small runs every quantised
decoder linear whose shape suits it through aten::_weight_int4pack_mm(_for_cpu)
(ref:small's experts' 704-wide w2 is no multiple of the 128 group: those stay
dequantised, and quant.int4_kernels' note says so) — the session holds the
kernel's calls — and stays as faithful as the dequantising path (the mean
KL on the logits held to ≤ 0.1; top-1 agreement printed, not held: a
random-weight model's near-flat logits flip their top-1 at W8 already).
Prints what it measured; exit 1 on a mismatch, 77 when the build's libtorch
has no int4 kernel (1.13).

    python3 check_int4.py MVPROF_CLI IMAGE OUT_DIR
"""
from __future__ import annotations

import json
import os
import sys

import gpucheck
from gpucheck import run


def main() -> int:
    cli, image, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    session = os.path.join(out, "int4.mvprof")
    run(cli, "capture", "--model", "ref:small", "--image", image, "--out", session, "--force")
    report = json.loads(run(cli, "whatif", session, "--quant", "w4", "--reps", "3",
                            "--format", "json"))
    details = report["transform_details"]
    kernels = details.get("quant.int4_kernels", {})
    layers = details.get("quant.layers", {}).get("value", 0)
    print(f"  quant.int4_kernels {kernels.get('value')} of {layers} layers: {kernels.get('note')}")
    if not kernels or kernels.get("value", 0) == 0:
        print("  no int4 kernel in this build's libtorch: skipped")
        return 77
    calls = gpucheck.op_calls(cli, session, report["run"], out, ["aten::_weight_int4pack_mm"])
    decode = next((p for p in report["phases"] if p["phase"] == "decode"), None)
    print(f"  kernel calls in the what-if run: {calls}")
    fidelity = report["fidelity_measured"]
    ok = gpucheck.faithful(fidelity)
    if decode:
        print(f"  decode speed-up {gpucheck.speedup(decode)}")
    failures = []
    if calls == 0:
        failures.append("no aten::_weight_int4pack_mm call in the what-if run's ops")
    if not ok:
        failures.append(f"fidelity {fidelity}")
    return gpucheck.verdict(failures)


if __name__ == "__main__":
    sys.exit(main())
