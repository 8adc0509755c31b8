"""Legacy torch.profiler traces (Debian's torch 1.13 has no Kineto, so
export_chrome_trace writes a bare array without categories or arguments)
made here on torchvision models, eager and scripted, imported with
`mvprof-cli import`: one op per `::` event and one span per other event,
every duration and every op's parent exactly as the original trace's time
containment says (worked out here, independently of mvprof's nesting code).
Run with /usr/bin/python3; skips (77) without MVP_CLI.
"""
from __future__ import annotations

import json
from collections import Counter
import os
import subprocess
import sys
import tempfile

SKIP = 77


def profile(model, x, path: str) -> None:
    import torch

    with torch.no_grad():
        model(x)  # warm-up (TorchScript optimises on the first calls)
        with torch.profiler.profile(record_shapes=True) as prof:
            model(x)
    prof.export_chrome_trace(path)


def expected_ops(events: list[dict]) -> Counter:
    """Each op as (start µs, dur µs, name, the name of the enclosing op), by
    time containment on its thread (a child may end 1 µs late: truncation)."""
    slices = sorted((e for e in events if e.get("ph") == "X"),
                    key=lambda e: (e["tid"], e["ts"], -e["dur"]))
    origin = min(e["ts"] for e in slices)
    out: Counter = Counter()
    stack: list[dict] = []
    tid = None
    for e in slices:
        if e["tid"] != tid:
            stack, tid = [], e["tid"]
        while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
            stack.pop()
        while stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"] + 1:
            stack.pop()
        if "::" in e["name"]:
            parent = next((s["name"] for s in reversed(stack) if "::" in s["name"]), None)
            out[(e["ts"] - origin, e["dur"], e["name"], parent)] += 1
        stack.append(e)
    return out


def imported_ops(cli: str, session: str, out_json: str) -> Counter:
    subprocess.run([cli, "export", session, "--chrome-trace", out_json], check=True,
                   capture_output=True)
    events = json.load(open(out_json))["traceEvents"]
    ops = [e for e in events if e.get("cat") == "cpu_op"]
    by_id = {e["args"]["op"]: e for e in ops}
    out: Counter = Counter()
    for e in ops:
        # µs with ns fractions, written from integers: exact.
        start = round(e["ts"] * 1000) // 1000
        dur_ns = round(e["dur"] * 1000)
        assert dur_ns % 1000 == 0, f"{e['name']}: {dur_ns} ns is not whole µs"
        parent = e["args"].get("parent_op")
        out[(start, dur_ns // 1000, e["name"], by_id[parent]["name"] if parent else None)] += 1
    return out


def check(cli: str, tmp: str, name: str, model, x) -> None:
    trace = os.path.join(tmp, f"{name}.json")
    session = os.path.join(tmp, f"{name}.mvprof")
    profile(model, x, trace)
    events = json.load(open(trace))
    assert isinstance(events, list), "expected the legacy form (a bare array)"
    slices = [e for e in events if e.get("ph") == "X"]
    n_ops = sum("::" in e["name"] for e in slices)
    r = subprocess.run([cli, "import", trace, "--out", session], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # "run 1: … — N events: A ops, B spans in C modules, …"
    summary = r.stdout.splitlines()[0]
    assert f"{len(events)} events: {n_ops} ops, {len(slices) - n_ops} spans" in summary, summary
    want = expected_ops(events)
    got = imported_ops(cli, session, os.path.join(tmp, f"{name}.back.json"))
    assert sum(got.values()) == n_ops == sum(want.values())
    times = lambda c: Counter({k[:3]: n for k, n in c.items()})  # noqa: E731
    assert times(got) == times(want), "op times or durations changed"
    wrong = list((want - got).items())
    assert not wrong, f"{len(wrong)} ops with another parent, e.g. {wrong[:3]}"
    nested = sum(n for k, n in want.items() if k[3] is not None)
    print(f"{name}: {n_ops} ops ({nested} nested), {len(slices) - n_ops} spans: "
          f"times and parents as in the trace")


def main() -> int:
    cli = os.environ.get("MVP_CLI")
    if not cli:
        print("MVP_CLI is not set: skipping", file=sys.stderr)
        return SKIP
    import torch
    import torchvision

    torch.manual_seed(0)
    torch.set_num_threads(1)
    resnet = torchvision.models.resnet18().eval()
    mobilenet = torchvision.models.mobilenet_v3_small().eval()
    x = torch.randn(1, 3, 64, 64)
    with tempfile.TemporaryDirectory() as tmp:
        check(cli, tmp, "resnet18-eager", resnet, x)
        check(cli, tmp, "mobilenet-scripted", torch.jit.script(mobilenet), x)
    return 0


if __name__ == "__main__":
    sys.exit(main())
