"""The Python package with the GPU machine's PyTorch (#14: "the Python package
works with that PyTorch too"): a small eager vision-language model with a
two-expert MoE layer, on CUDA, profiled with mvprof.profile in this process
(the package built against the wheel's libtorch, build-gpu/python), and its
W4 and W8 what-ifs (W8 on torch's int8 matmul), A/B repeated. The
session must hold a complete run with its phases, module spans for the
model's submodules, ATen ops, routing rows, the attention its self_attn's
softmax gives each of the 16 patches in the prefill (read from the GPU's
probabilities) and the greedy tokens, its
kernels traced by CUPTI (most of their time within module spans) and
module spans timed by CUDA events, its GPU memory peak what
torch.cuda.max_memory_allocated reads right after the run (within 1 %), and
the report must read it. With hw_counters, its pass replayed under CUPTI's
range profiler gives each module its counted work: the projector's FLOPs
within 0.5-4x of 2·16·64·64 worked by hand; its W8 what-if is counted too.
Exit 1 on a failed check, 77 without a GPU.

    python3 check_python_cuda.py MVPROF_CLI IMAGE OUT_DIR
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import gpucheck


def whatif_rows(db: sqlite3.Connection, run: int) -> tuple:
    """A what-if run's status, quantised layers, repetition rows and kernel note."""
    status = db.execute("SELECT status FROM run WHERE id = ?", (run,)).fetchone()
    metric = dict(db.execute("SELECT name, value FROM run_metric WHERE run = ?", (run,)))
    note = db.execute("SELECT note FROM run_metric WHERE run = ? AND name = 'quant.layers'",
                      (run,)).fetchone()
    reps = db.execute("SELECT count(*) FROM repetition WHERE run = ?", (run,)).fetchone()[0]
    return (status[0] if status else None, metric.get("quant.layers"), reps,
            note[0] if note else "")


def main() -> int:
    args = gpucheck.start()
    if args is None:
        return 77
    cli, image, out = args
    import torch
    from torch import nn

    sys.path.insert(0, os.path.join(os.path.dirname(cli), "..", "python"))
    import mvprof

    class Moe(nn.Module):
        def __init__(self, d: int) -> None:
            super().__init__()
            self.gate = nn.Linear(d, 2, bias=False)
            self.experts = nn.ModuleList([nn.Linear(d, d) for _ in range(2)])
            self.top_k = 1

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            w = self.gate(x).softmax(-1)
            pick = w.argmax(-1, keepdim=True)
            out = torch.zeros_like(x)
            for e, expert in enumerate(self.experts):
                out = out + (pick == e) * expert(x)
            return out

    class SelfAttn(nn.Module):
        """Attention whose softmax the package reads for the heatmap (its
        probabilities on the GPU, averaged there and read on the host)."""
        def __init__(self, d: int) -> None:
            super().__init__()
            self.qkv = nn.Linear(d, 3 * d)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            q, k, v = self.qkv(x).chunk(3, -1)
            return (q @ k.t() / q.shape[-1] ** 0.5).softmax(-1) @ v

    class Tiny(nn.Module):
        def __init__(self, d: int = 64, vocab: int = 256) -> None:
            super().__init__()
            self.vision_tower = nn.Sequential(nn.Conv2d(3, d, 14, 14), nn.Flatten(2))
            self.multi_modal_projector = nn.Linear(d, d)
            self.embed = nn.Embedding(vocab, d)
            self.language_model = nn.ModuleDict({"self_attn": SelfAttn(d), "moe": Moe(d),
                                                 "head": nn.Linear(d, vocab)})

        def decode(self, h: torch.Tensor) -> torch.Tensor:
            lm = self.language_model
            return lm["head"](lm["moe"](h + lm["self_attn"](h)))

    session = os.path.join(out, "python-cuda.mvprof")
    model = Tiny().cuda().eval()
    pixels = torch.rand(1, 3, 56, 56, device="cuda")
    prompt = torch.tensor([1, 2, 3], device="cuda")

    def generate(prof, m) -> list[int]:
        with prof.phase("vision"):
            feats = m.vision_tower(pixels)[0].t()
        with prof.phase("projector"):
            visual = m.multi_modal_projector(feats)
        prof.visual_tokens(start=0, grid=(4, 4), patch=14, input_size=56)
        with prof.phase("prefill"):
            token = prof.output(m.decode(torch.cat([visual, m.embed(prompt)]))[-1])
        tokens = [token]
        for step in range(1, 5):
            with prof.phase("decode", step):
                nxt = torch.tensor([tokens[-1]], device="cuda")
                tokens.append(prof.output(m.decode(m.embed(nxt))[-1]))
        return tokens

    with torch.no_grad(), mvprof.profile(session, model, image=image, prompt="cuda check",
                                         force=True, warmup=lambda p: generate(p, p.model)) as prof:
        tokens = generate(prof, model)
    # The allocator's peak as torch.cuda reads it, the run's peak having been
    # reset as the run began and nothing run since: the stored peak must match.
    torch_peak = torch.cuda.max_memory_allocated()
    # Exact device timing, asked for from Python: the run says so.
    exact = os.path.join(out, "python-cuda-exact.mvprof")
    with torch.no_grad(), mvprof.profile(exact, model, image=image, force=True,
                                         device_timing="exact") as p:
        generate(p, model)
    with sqlite3.connect(exact) as db:
        exact_mode = dict(db.execute("SELECT name, value FROM run_metric WHERE run = 1")).get(
            "gpu.device_timing")
    # Hardware counters: the pass replayed under CUPTI's range profiler, a
    # range per module call named by its path.
    counted = os.path.join(out, "python-cuda-hw.mvprof")
    with torch.no_grad(), mvprof.profile(counted, model, image=image, force=True,
                                         hw_counters=lambda p: generate(p, p.model)) as p:
        generate(p, model)
    # Its W8 what-if counts as it did (on the transformed model).
    with torch.no_grad(), mvprof.whatif(p, model, mvprof.W8()) as w:
        generate(w, w.model)
    with sqlite3.connect(counted) as db:
        w8_counters = db.execute("SELECT value, note FROM run_metric WHERE run = ? AND "
                                 "name = 'hw.counters'", (w.run_id,)).fetchone()
        hw = dict(db.execute("SELECT name, value FROM run_metric WHERE run = 1 AND "
                             "name LIKE 'hw.%'"))
        hw_note = (db.execute("SELECT note FROM run_metric WHERE run = 1 AND "
                              "name = 'hw.counters'").fetchone() or ["no hw.counters row"])[0]
        hw_status = db.execute("SELECT status FROM run WHERE id = 1").fetchone()[0]
    # The projector, a 64×64 Linear over the 16 patches once a pass: 2·16·64·64
    # FLOPs by hand (float32 without TF32: fused multiply-adds, counted 2 each).
    projector_flops = 2 * 16 * 64 * 64
    # What-ifs of the GPU model, A/B repeated: W4's weights round-trip
    # through host memory and back to the GPU; W8 runs torch's int8 matmul.
    whatifs = {}
    for name, transform in (("W4", mvprof.W4(group=32)), ("W8", mvprof.W8())):
        with torch.no_grad(), mvprof.whatif(prof, model, transform, reps=2,
                                            run=lambda p: generate(p, p.model)) as w:
            generate(w, w.model)
        whatifs[name] = w.run_id
    report = json.loads(subprocess.run([cli, "report", session, "--format", "json"], check=True,
                                       capture_output=True, text=True).stdout)["runs"][0]
    with gpucheck.connect(session) as db:
        spans = db.execute("SELECT count(*) FROM span").fetchone()[0]
        routing = db.execute("SELECT coalesce(sum(rows), 0) FROM routing_chunk").fetchone()[0]
        attention = gpucheck.patch_count(db, 1, "attention.prefill")
        kernels = db.execute("SELECT count(*) FROM device_activity").fetchone()[0]
        timed = db.execute("SELECT count(*) FROM span WHERE device_ns > 0").fetchone()[0]
        metrics = dict(db.execute("SELECT name, value FROM run_metric WHERE run = 1"))
        notes = dict(db.execute("SELECT name, note FROM run_metric WHERE run = 1"))
        runs = {name: whatif_rows(db, run) for name, run in whatifs.items()}
    share = metrics.get("gpu.attributed_share")
    print(f"  python on cuda: status {report['status']}, {report['ops_recorded']} ops, "
          f"{spans} module spans, {routing} routing rows, {attention} attention rows, "
          f"tokens {tokens}")
    print(f"  GPU: {kernels} kernels/copies traced, attributed share {share}, "
          f"{timed} of {spans} spans with a device time, energy {metrics.get('energy.gpu_j')} J")
    for name, (status, layers, reps, note) in runs.items():
        print(f"  {name} what-if on cuda: status {status}, quant.layers {layers}, "
              f"{reps} repetition rows; {note}")
    peak = metrics.get("gpu.peak_allocated_bytes")
    print(f"  GPU memory: {peak} bytes peak held by tensors (torch.cuda: {torch_peak}), "
          f"{metrics.get('gpu.memory_start_bytes')} as the run began (libtorch's allocator)")
    for name in ("gpu.trace_available", "gpu.device_timing", "energy.gpu_available",
                 "gpu.memory_available"):
        if metrics.get(name) == 0:
            print(f"  {name} = 0: {notes.get(name)}")
    print(f"  hardware counters: {hw.get('hw.counters')} replays ({hw_note}); projector "
          f"{hw.get('hw.multi_modal_projector.flops')} FLOPs counted ({projector_flops} by "
          f"hand), {hw.get('hw.multi_modal_projector.dram_bytes')} DRAM bytes; head "
          f"{hw.get('hw.language_model.head.flops')} FLOPs")
    failures = []
    if not (w8_counters or [0])[0] > 0:
        failures.append(f"hw_counters: the W8 what-if of the counted run read none "
                        f"({w8_counters})")
    if not hw.get("hw.counters", 0) > 0 or hw_status != "complete":
        failures.append(f"hw_counters: {hw.get('hw.counters')} replays, run {hw_status} "
                        f"({hw_note})")
    elif not 0.5 <= hw.get("hw.multi_modal_projector.flops", 0) / projector_flops <= 4:
        failures.append(f"hw_counters: the projector's counted FLOPs "
                        f"{hw.get('hw.multi_modal_projector.flops')} vs {projector_flops} "
                        "by hand")
    if report["status"] != "complete":
        failures.append(f"status {report['status']}")
    if report["ops_recorded"] <= 0 or spans <= 0:
        failures.append("no ops or no module spans recorded")
    if routing <= 0:
        failures.append("no routing rows from the MoE gate")
    if attention != 16:
        failures.append(f"{attention} prefill attention rows from self_attn's softmax (16 patches)")
    # Not 0.95 as for the built-in model: this script's own tensor work (the
    # cat, the token's copy, argmax) runs outside every module span.
    if kernels <= 0 or not (share or 0) >= 0.5:
        failures.append(f"GPU trace: {kernels} rows, share within module spans {share} "
                        f"(held to ≥ 0.5)")
    for name, (status, layers, reps, note) in runs.items():
        if status != "complete" or not layers or reps <= 0:
            failures.append(f"{name} what-if: status {status}, quant.layers {layers}, "
                            f"reps {reps}")
    if timed <= 0:
        failures.append("no module span has a device time (CUDA events)")
    if exact_mode != 2:
        failures.append(f"device_timing=\"exact\": gpu.device_timing {exact_mode}, not 2")
    if not (peak or 0) > metrics.get("gpu.memory_start_bytes", 0):
        failures.append(f"GPU memory: peak {peak} not above the start "
                        f"{metrics.get('gpu.memory_start_bytes')}")
    # torch's may only be higher, by what the package allocated after the run's last read.
    if peak is not None and not 0 <= torch_peak - peak <= 0.01 * torch_peak:
        failures.append(f"GPU memory: stored peak {peak} vs torch.cuda.max_memory_allocated "
                        f"{torch_peak} after the run")
    return gpucheck.verdict(failures, "python on cuda: ")


if __name__ == "__main__":
    sys.exit(main())
