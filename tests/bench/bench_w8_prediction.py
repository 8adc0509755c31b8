#!/usr/bin/python3
"""The W8 latency prediction checked against W8 measured on libtorch's int8
kernels: a baseline capture and `mvprof-cli whatif --quant w8` on the same
session, then the cost model's predicted what-if latency against the measured
one (the stored, probed runs: what the prediction is built from) and the A/B
repetitions' medians. Prints the errors and the 15 % target; never fails on
timing (only when the CLI itself fails).

    MVP_CLI=build/bin/mvprof-cli /usr/bin/python3 tests/bench/bench_w8_prediction.py [PRESET] [REPS]
"""

import json
import os
import subprocess
import sys
import tempfile


def main() -> int:
    cli = os.environ.get("MVP_CLI", "build/bin/mvprof-cli")
    image = os.environ.get("MVP_SAMPLE_IMAGE", "resources/samples/astronaut.png")
    preset = sys.argv[1] if len(sys.argv) > 1 else "ref:small"
    reps = sys.argv[2] if len(sys.argv) > 2 else "3"
    with tempfile.TemporaryDirectory() as tmp:
        session = os.path.join(tmp, "w8.mvprof")
        subprocess.run([cli, "capture", "--model", preset, "--steps", "4", "--image", image,
                        "--out", session], check=True, stdout=subprocess.DEVNULL)
        out = subprocess.run([cli, "whatif", session, "--quant", "w8", "--reps", reps,
                              "--format", "json"], check=True, capture_output=True, text=True)
    c = json.loads(out.stdout)
    kernels = c["transform_details"].get("quant.int8_kernels", {})
    print(f"{preset}: W8 on int8 kernels = {bool(kernels.get('value'))} "
          f"({kernels.get('note', 'n/a')})")
    predicted = c.get("latency_ms_predicted")
    if not predicted:
        print("no prediction stored: nothing to check")
        return 0
    stored = c["latency_ms_measured"]["whatif"]
    ab = c["total"]
    measured = predicted["measured_ms"]
    print(f"  predicted what-if latency    {predicted['whatif']:10.1f} ms ({predicted['note']})")
    print(f"  measured, A/B median (unprobed, {ab['whatif']['reps']} reps) "
          f"{ab['whatif']['median']:10.1f} ms [{ab['whatif']['ci95'][0]:.1f}, "
          f"{ab['whatif']['ci95'][1]:.1f}]")
    print(f"  prediction error {100 * predicted['prediction_error']:+.0f} % against the "
          f"{'A/B median' if predicted['measured_from'] == 'ab_median' else 'stored run'} "
          f"({measured:.1f} ms; target: within 15 %)")
    print(f"  (the stored probed what-if run took {stored:.1f} ms)")
    print(f"  A/B speed-up {ab['speedup']['median']:.2f}x "
          f"[{ab['speedup']['ci95'][0]:.2f}, {ab['speedup']['ci95'][1]:.2f}]"
          f"{' within noise' if ab['within_noise'] else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
