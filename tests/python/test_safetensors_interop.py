"""Safetensors files between mvprof and a second implementation written here
from the format's description (8-byte little-endian header length, JSON
header, raw little-endian data): the file `mvprof-cli weights --save`
writes is read here and holds the preset's parameters as its seeded
initialisation makes them (norm weights 1, biases 0, the rest small); a file
written here — header unpadded, so its data is unaligned, with float16 and
bfloat16 tensors that torch converted — is what `capture --weights` runs:
weights chosen so that only the bytes 'x' and 'y' can be generated, and the
report's SHA-256 is hashlib's.
Run with /usr/bin/python3; skips (77) without MVP_CLI.
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from checks import check, status  # noqa: E402

SKIP = 77
DTYPES = {"F32": ("float32", 4), "F16": ("float16", 2), "BF16": ("bfloat16", 2)}


def read_safetensors(path: str) -> tuple[dict, dict]:
    """Returns ({name: torch tensor}, metadata), checking the layout."""
    import torch

    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    metadata = header.pop("__metadata__", {})
    ranges = sorted(tuple(v["data_offsets"]) for v in header.values())
    check(ranges[0][0] == 0 and ranges[-1][1] == len(data)
          and all(a[1] == b[0] for a, b in zip(ranges, ranges[1:])),
          "mvprof's tensors tile the data section")
    check((8 + n) % 8 == 0, "mvprof pads the header so the data starts 8-byte aligned")
    out = {}
    for name, v in header.items():
        begin, end = v["data_offsets"]
        torch_type, _ = DTYPES[v["dtype"]]
        t = torch.frombuffer(bytearray(data[begin:end]), dtype=getattr(torch, torch_type))
        out[name] = t.reshape(v["shape"])
    return out, metadata


def write_safetensors(path: str, tensors: dict) -> None:
    """A writer of our own: header not padded, tensors in the given order."""
    import torch

    header, blobs, at = {}, [], 0
    for name, t in tensors.items():
        t = t.contiguous()
        kind = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16"}[t.dtype]
        blob = t.view(torch.int16 if t.element_size() == 2 else torch.int32).numpy().tobytes()
        header[name] = {"dtype": kind, "shape": list(t.shape), "data_offsets": [at, at + len(blob)]}
        blobs.append(blob)
        at += len(blob)
    text = json.dumps(header).encode()
    if (8 + len(text)) % 8 == 0:
        text += b" "  # keep the data unaligned: the reader must not assume alignment
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def main() -> int:
    cli = os.environ.get("MVP_CLI")
    image = os.environ.get("MVP_SAMPLE_IMAGE")
    if not cli or not os.path.exists(cli):
        print("skip: no mvprof-cli")
        return SKIP
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "tiny.safetensors")
        subprocess.run([cli, "weights", "--save", saved], check=True, capture_output=True)
        tensors, metadata = read_safetensors(saved)
        listed = json.loads(subprocess.run([cli, "weights", "--format", "json"], check=True,
                                           capture_output=True, text=True).stdout)["tensors"]
        check([(t["name"], t["shape"]) for t in listed]
              == [(n, list(t.shape)) for n, t in tensors.items()],
              "the file holds every listed parameter with its shape, in order")
        check(metadata.get("model") == "ref:tiny", "the metadata names the preset")
        check(bool(torch.all(tensors["final_norm.weight"] == 1)), "RMSNorm weights read as 1")
        check(bool(torch.all(tensors["vit0.ln1.bias"] == 0)), "LayerNorm biases read as 0")
        std = float(tensors["layer0.moe.expert0.w1.weight"].std())
        check(0.015 < std < 0.025, f"expert weights have the initialisation's spread ({std:.4f})")

        # Our own file: every weight as saved, except a decoder head that can
        # only say 'x' or 'y' (h = RMSNorm output on one channel, ±).
        mine = dict(tensors)
        dim = mine["final_norm.weight"].shape[0]
        norm = torch.zeros(dim)
        norm[0] = 1
        head = torch.zeros_like(mine["lm_head.weight"])
        head[ord("x"), 0] = 1
        head[ord("y"), 0] = -1
        mine["final_norm.weight"] = norm.to(torch.float16)
        mine["lm_head.weight"] = head.to(torch.bfloat16)
        mine["pos_embed"] = mine["pos_embed"].to(torch.bfloat16)
        ours = os.path.join(tmp, "xy.safetensors")
        write_safetensors(ours, mine)
        session = os.path.join(tmp, "xy.mvprof")
        r = subprocess.run([cli, "capture", "--image", image, "--out", session, "--steps", "6",
                            "--weights", ours], capture_output=True, text=True)
        check(r.returncode == 0, f"capture --weights reads a file written elsewhere ({r.stderr.strip()})")
        if r.returncode == 0:
            report = json.loads(subprocess.run([cli, "report", session, "--format", "json"],
                                               check=True, capture_output=True,
                                               text=True).stdout)
            run = report["runs"][0]
            output = run["output"]
            check(len(output) == 7 and set(output) <= {"x", "y"},
                  f"the generated bytes are only x and y ({output!r})")
            digest = hashlib.sha256(open(ours, "rb").read()).hexdigest()
            check(run["weights"] == {"file": "xy.safetensors", "sha256": digest},
                  "the report names the file and hashlib's SHA-256")
    return status()


if __name__ == "__main__":
    sys.exit(main())
