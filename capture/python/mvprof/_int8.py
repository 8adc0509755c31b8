"""W8 for a model off the CPU (a GPU): the LLM's Linear layers as per-channel
symmetric int8, run by torch's own int8 matmuls — aten::_weight_int8pack_mm
(weight-only, one kernel) where it runs on the device, else torch._int_mm
(int8 × int8 → int32) with the activations coded per row on the fly and the
rows padded past its 16-row minimum. The same kernels, order and checks as
mvprof-cli's --quant w8 on a GPU (capture/models/transforms/Int8Kernel.h): each layer's
product is checked against its dequantised weights before it is used.
torch's dynamic int8 kernels (quantize_dynamic) are the CPU's."""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple

import torch

from ._abi import MvprofError

MIN_ROWS = 32            # _int_mm on CUDA takes more than 16 rows; 32 keeps a multiple of 8
MAX_DISAGREEMENT = 0.03  # int8 rounding leaves ~1 %; a layout mistake tens of percent

IntMatmul = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def quantise(w: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """w [out, in] → (int8 codes in [−127, 127], float32 scale per output
    channel = max|row| / 127), on w's device: w ≈ codes · scale."""
    f = w.detach().float()
    scale = f.abs().amax(1, keepdim=True).clamp_min(1e-8) / 127
    codes = (f / scale).round().clamp(-127, 127).to(torch.int8).contiguous()
    return codes, scale.squeeze(1)


def row_quantised(x: torch.Tensor, codes: torch.Tensor, scale: torch.Tensor,
                  int_mm: IntMatmul, min_rows: int = MIN_ROWS) -> torch.Tensor:
    """x [..., in] · wᵀ through an int8 × int8 → int32 product
    `int_mm(xq [rows, in], codesᵀ [in, out])`: each row of x coded with its
    own scale |row|max/127, the rows padded to `min_rows`, the product scaled
    back by the rows' and the channels' scales; in x's dtype."""
    rows = x.reshape(-1, x.shape[-1]).float()
    n = rows.shape[0]
    row_scale = rows.abs().amax(1, keepdim=True).clamp_min(1e-12) / 127
    xq = (rows / row_scale).round().clamp(-127, 127).to(torch.int8)
    if n < min_rows:
        xq = torch.nn.functional.pad(xq, (0, 0, 0, min_rows - n))
    y = int_mm(xq, codes.t())[:n].float() * row_scale * scale.float()
    return y.reshape(*x.shape[:-1], y.shape[-1]).to(x.dtype)


def _weight_only(x: torch.Tensor, codes: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    rows = x.reshape(-1, x.shape[-1]).contiguous()
    y = torch.ops.aten._weight_int8pack_mm(rows, codes, scale.to(rows.dtype))
    return y.reshape(*x.shape[:-1], y.shape[-1])


def _int_mm(x: torch.Tensor, codes: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    return row_quantised(x, codes, scale, torch._int_mm)


KERNELS = [("aten::_weight_int8pack_mm", _weight_only), ("torch._int_mm", _int_mm)]


class Int8Linear(torch.nn.Module):
    """A Linear layer whose weight is int8 codes run by one of KERNELS."""

    def __init__(self, linear: torch.nn.Linear, kernel) -> None:
        super().__init__()
        codes, scale = quantise(linear.weight)
        self.register_buffer("codes", codes)
        self.register_buffer("scale", scale)
        self.bias = linear.bias
        self.kernel = kernel

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.kernel(x, self.codes, self.scale)
        return y if self.bias is None else y + self.bias

    def disagreement(self, dtype: torch.dtype) -> float:
        """‖kernel − dequantised‖ / ‖dequantised‖ on a fixed probe input in
        `dtype` (the model's)."""
        x = torch.arange(4 * self.codes.shape[1], dtype=torch.float32,
                         device=self.codes.device).mul(0.37).sin().view(4, -1).to(dtype)
        want = x.float() @ (self.codes.float() * self.scale.unsqueeze(1)).t()
        got = self.kernel(x, self.codes, self.scale).float()
        return float((got - want).norm() / want.norm().clamp_min(1e-30))


def choose_kernel(device: torch.device, dtype: torch.dtype) -> Tuple[str, Callable]:
    """The first of KERNELS that runs on `device` for activations in `dtype`
    (a small product), or a MvprofError naming why none does."""
    why: List[str] = []
    probe = torch.nn.Linear(64, 32).to(device, dtype)
    for name, kernel in KERNELS:
        try:
            with torch.no_grad():
                Int8Linear(probe, kernel)(torch.ones(4, 64, device=device, dtype=dtype))
            return name, kernel
        except (AttributeError, RuntimeError, NotImplementedError) as e:
            why.append(f"{name}: {str(e).splitlines()[0][:160]}")
    raise MvprofError(f"W8 on {device} ({dtype}) needs torch's int8 matmul there "
                      f"(torch {torch.__version__}): " + "; ".join(why))


def convert(model: torch.nn.Module, paths: List[str], device: torch.device,
            dtype: torch.dtype) -> Tuple[str, int]:
    """Replaces the Linear layers at `paths` in `model` (in place) by
    Int8Linear on the kernel chosen for `device` and the model's `dtype`,
    each checked first; (kernel, layers)."""
    name, kernel = choose_kernel(device, dtype)
    with torch.no_grad():
        for path in paths:
            parent_path, _, child = path.rpartition(".")
            parent = model.get_submodule(parent_path) if parent_path else model
            layer = Int8Linear(getattr(parent, child), kernel)
            try:
                off: Optional[float] = layer.disagreement(dtype)
            except (RuntimeError, NotImplementedError) as e:  # a device with no data (meta)
                raise MvprofError(f"{name} on {device}: {str(e).splitlines()[0][:160]}") from e
            if not off <= MAX_DISAGREEMENT:
                raise MvprofError(f"{name} disagrees with {path}'s dequantised int8 weights by "
                                  f"{off:.0%}: this torch's kernel is not what mvprof expects")
            setattr(parent, child, layer)
    return name, len(paths)
