"""VisionZip on eager models (Yang et al., CVPR 2025; dvlab-research/VisionZip,
visionzip/clip_encoder.py; docs/whatif-methods.md §1). The choice
itself is the C++ one (capture/whatif/VisionZip.h) through the C ABI.

VisionZip needs the vision tower's attention and keys in the layer whose
output feeds the projector. mvprof reads them from one attention module of
the vision role (`layer`, an index into those modules in module order; −1,
the last, by default — LLaVA-1.5 feeds its projector from the penultimate
layer, so pass layer=-2 there, as VisionZip does):
- an `nn.MultiheadAttention` (torchvision's and OpenCLIP's ViTs) runs a
  fused kernel that shows no probabilities, so mvprof recomputes them from
  the module's input and in_proj weights, unmasked, hidden from the run;
- any other module (an `attention`-role module with eager attention, as
  Hugging Face's CLIPAttention) is read as it runs: its last softmax over the
  tokens is the probabilities, and the right operand of the q @ kᵀ matmul
  before it the keys.

When the attention covers one token more than the projector's input (a CLS
token at position 0 that the tower dropped, as CLIP's and ViT's), the
dominant patches are those the CLS token attended most (summed over heads),
as VisionZip; the CLS token itself is not among what the tower sends, so it
is not sent. Without a CLS token a patch's score is the attention it
receives averaged over the queries (summed over heads), as for the built-in
model. The merge acts on the projector's input: the dominant patches'
features, then per contextual target its features plus the mean of those
merged into it.
"""

from __future__ import annotations

import ctypes
import math
from typing import List, Optional, Tuple

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from . import _abi
from ._abi import MvprofError
from ._passes import SOFTMAX_CALLS, role_of, role_paths, within
from ._profile import Profile
from ._transform import Transform

_MATMUL = (torch.matmul, torch.bmm, torch.Tensor.matmul, torch.Tensor.__matmul__,
           torch.Tensor.bmm)


def vision_attention(model: torch.nn.Module, patterns) -> List[Tuple[str, torch.nn.Module]]:
    """The vision role's attention modules (attention role or nn.MultiheadAttention),
    in module order; one inside another is the outer one's business (an eager
    attention holding an unused MultiheadAttention, say)."""
    vision = role_paths(model, patterns, "vision")
    found = [(p, m) for p, m in model.named_modules() if p and within(vision, p) and
             (role_of(patterns, p) == "attention" or isinstance(m, torch.nn.MultiheadAttention))]
    return [(p, m) for p, m in found if not any(p.startswith(q + ".") for q, _ in found)]


def _multihead(m: torch.nn.MultiheadAttention, query: torch.Tensor,
               key: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """(probabilities [B·heads, T, T], keys [B·heads, T, d]) of an
    nn.MultiheadAttention call, recomputed from its query and key inputs."""
    if query.dim() == 2:  # unbatched [T, E]
        query, key = query.unsqueeze(0), key.unsqueeze(0)
    elif not m.batch_first:
        query, key = query.transpose(0, 1), key.transpose(0, 1)
    e, heads = m.embed_dim, m.num_heads
    bias = m.in_proj_bias
    if m._qkv_same_embed_dim:
        wq, wk = m.in_proj_weight[:e], m.in_proj_weight[e:2 * e]
    else:
        wq, wk = m.q_proj_weight, m.k_proj_weight
    q = F.linear(query, wq, None if bias is None else bias[:e])
    k = F.linear(key, wk, None if bias is None else bias[e:2 * e])
    b, t, d = q.shape[0], q.shape[1], e // heads
    q = q.view(b, t, heads, d).transpose(1, 2).reshape(b * heads, t, d)
    k = k.view(b, k.shape[1], heads, d).transpose(1, 2).reshape(b * heads, -1, d)
    return torch.softmax(q @ k.transpose(1, 2) / math.sqrt(d), -1), k


class _Eager(TorchFunctionMode):
    """Inside one eager attention module: its last q @ kᵀ's keys and the
    softmax over those scores."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: Optional[torch.Tensor] = None
        self.probs: Optional[torch.Tensor] = None

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func in _MATMUL and len(args) >= 2 and torch.is_tensor(out) and out.dim() >= 3 and \
                out.shape[-1] == out.shape[-2] and torch.is_tensor(args[1]):
            self.keys = args[1].transpose(-1, -2)  # scores = q @ kᵀ: [.., T, d]
        elif func in SOFTMAX_CALLS and torch.is_tensor(out) and self.keys is not None and \
                out.dim() >= 3 and out.shape[-1] == self.keys.shape[-2]:
            self.probs = out
        return out


class _Zip:
    """One pass: the chosen module's attention read, the projector's input merged."""

    def __init__(self, zip_: "VisionZip", prof, path: str, module: torch.nn.Module) -> None:
        self.zip, self.prof, self.path, self.module = zip_, prof, path, module
        self.seen: Optional[Tuple[torch.Tensor, torch.Tensor]] = None
        self.mode: Optional[_Eager] = None
        self.result: Optional[Tuple[int, int, int, bool]] = None  # dominant, contextual, merged, cls

    def hooks(self) -> List:
        """How the module is read: nn.MultiheadAttention through its forward
        (callers pass query/key as keywords, which forward hooks do not see),
        anything else by a mode between its pre- and post-hook."""
        m = self.module
        if isinstance(m, torch.nn.MultiheadAttention):
            run = m.forward

            def forward(query, key, value, *args, **kwargs):
                out = run(query, key, value, *args, **kwargs)
                with self.prof.paused(), torch.no_grad():
                    self.seen = _multihead(m, query.detach(), key.detach())
                return out
            m.forward = forward
            return [self]
        return [m.register_forward_pre_hook(self.before), m.register_forward_hook(self.after),
                self]

    def before(self, module, args) -> None:
        self.seen = None
        self.mode = _Eager()
        self.mode.__enter__()

    def after(self, module, args, output) -> None:
        self.mode.__exit__(None, None, None)
        if self.mode.probs is not None:
            self.seen = (self._flat(self.mode.probs), self._flat(self.mode.keys))
        self.mode = None

    def remove(self) -> None:
        """With the hooks: a module that raised left its mode on; the
        MultiheadAttention gets its own forward back."""
        if self.mode is not None:
            self.mode.__exit__(None, None, None)
            self.mode = None
        self.module.__dict__.pop("forward", None)

    @staticmethod
    def _flat(t: torch.Tensor) -> torch.Tensor:
        return t.detach().reshape(-1, t.shape[-2], t.shape[-1])

    def merge(self, module, args):
        """The projector's input [.., N, Dv] → VisionZip's tokens [.., budget, Dv]."""
        x = args[0] if args else None
        if not torch.is_tensor(x) or x.dim() < 2:
            raise MvprofError("VisionZip merges the projector's input: it got no [.., tokens, "
                              "dim] tensor")
        if self.seen is None:
            raise MvprofError(
                f"VisionZip ranks the patches by the attention in {self.path}, but it showed no "
                "probabilities before the projector ran (no softmax over the tokens after a q @ "
                "kᵀ matmul: a fused kernel?) — use eager attention there, or name another module "
                "with layer=")
        n = x.shape[-2]
        with self.prof.paused(), torch.no_grad():
            sent, into, dominant, cls = self._choose(n)
        self.prof.kept_patches = sent
        flat = x.reshape(-1, n, x.shape[-1])
        index = torch.tensor(sent, dtype=torch.long, device=x.device)
        members = torch.tensor([i for i in range(n) if into[i] >= 0], dtype=torch.long,
                               device=x.device)
        slots = torch.tensor([into[i] - dominant for i in range(n) if into[i] >= 0],
                             dtype=torch.long, device=x.device)
        contextual = len(sent) - dominant
        sums = torch.zeros(flat.shape[0], contextual, flat.shape[-1], dtype=flat.dtype,
                           device=x.device).index_add_(1, slots, flat.index_select(1, members))
        counts = torch.zeros(contextual, dtype=flat.dtype, device=x.device) \
            .index_add_(0, slots, torch.ones(len(slots), dtype=flat.dtype, device=x.device))
        tokens = torch.cat([flat.index_select(1, index[:dominant]),
                            flat.index_select(1, index[dominant:]) +
                            sums / counts.clamp_min(1).view(1, -1, 1)], 1)
        self.result = (dominant, contextual, len(members), cls)
        return (tokens.reshape(*x.shape[:-2], len(sent), x.shape[-1]), *args[1:])

    def _choose(self, n: int) -> Tuple[List[int], List[int], int, bool]:
        probs, keys = self.seen
        t = probs.shape[-1]
        if t == n + 1:  # a CLS token at 0, dropped by the tower
            scores, k = probs[:, 0, 1:].sum(0), keys.mean(0)[1:]
        elif t == n:
            scores, k = probs.sum(0).mean(0), keys.mean(0)
        else:
            raise MvprofError(f"VisionZip: the attention in {self.path} covers {t} tokens, the "
                              f"projector's input has {n}: they do not map (name the module "
                              "that feeds the projector with layer=)")
        s = scores.double().contiguous().cpu()
        kd = k.double().contiguous().cpu()
        budget = self.zip.tokens
        sent, into, dominant = (ctypes.c_longlong * budget)(), (ctypes.c_longlong * n)(), \
            ctypes.c_longlong()
        dbl = ctypes.POINTER(ctypes.c_double)
        _abi.check(_abi.library().mvprof_plan_visionzip(
            ctypes.cast(s.data_ptr(), dbl), n, ctypes.cast(kd.data_ptr(), dbl), kd.shape[-1],
            budget, sent, into, ctypes.byref(dominant)))
        return list(sent), list(into), dominant.value, t == n + 1


class VisionZip(Transform):
    """VisionZip with `tokens` sent (dominant + round(tokens·10/64) contextual,
    VisionZip's LLaVA split), read from the vision attention module `layer`."""

    prunes_visual = True

    def __init__(self, tokens: int = 64, layer: int = -1) -> None:
        if int(tokens) < 2:
            raise MvprofError(f"VisionZip sends at least 2 visual tokens, not {tokens}")
        self.tokens, self.layer = int(tokens), int(layer)
        self.name = f"visionzip {self.tokens}"
        self.recorded: Optional[_Zip] = None

    def _modules(self, patterns, model: torch.nn.Module):
        found = vision_attention(model, patterns)
        if not found:
            raise MvprofError("VisionZip reads the vision tower's attention: no attention-role "
                              "module or nn.MultiheadAttention lies inside the vision role (pass "
                              "roles={'vision': r'...', 'attention': r'...'})")
        if not -len(found) <= self.layer < len(found):
            raise MvprofError(f"VisionZip's layer must be from {-len(found)} to {len(found) - 1} "
                              f"(the vision role has {len(found)} attention modules), not "
                              f"{self.layer}")
        projector = [(p, m) for p, m in model.named_modules()
                     if p and role_of(patterns, p) == "projector"]
        if not projector:
            raise MvprofError("VisionZip merges the projector's input: no module matched the "
                              "projector role (pass roles={'projector': r'...'})")
        return found[self.layer], projector[0][1]

    def prepare(self, prof: Profile) -> torch.nn.Module:
        self._modules(prof.patterns, prof.model)
        if prof.baseline_run:
            n = ctypes.c_int()
            prof.call("mvprof_visual_token_count", prof.baseline_run, ctypes.byref(n))
            if n.value and not 2 <= self.tokens < n.value:
                raise MvprofError(f"VisionZip sends from 2 to {n.value - 1} of the baseline's "
                                  f"{n.value} visual tokens, not {self.tokens}")
        return prof.model

    def attach(self, prof, model: torch.nn.Module, patterns) -> List:
        (path, attention), projector = self._modules(patterns, model)
        state = _Zip(self, prof, path, attention)
        if isinstance(prof, Profile):
            self.recorded = state
        return state.hooks() + [projector.register_forward_pre_hook(state.merge)]

    def finished(self, prof: Profile) -> None:
        if self.recorded is None or self.recorded.result is None:
            raise MvprofError("VisionZip merged nothing: the projector never ran")
        dominant, contextual, merged, cls = self.recorded.result
        ranked = ("the CLS token's attention, summed over heads" if cls else
                  "attention received, mean over queries, summed over heads; no CLS token")
        prof.metric("visionzip.dominant", dominant, "count",
                    note=f"visual tokens kept as they are: the most attended ({ranked}) in "
                    f"{self.recorded.path}")
        prof.metric("visionzip.contextual", contextual, "count",
                    note="contextual tokens: a target each, plus the mean of the tokens whose "
                    "keys are closest to it")
        prof.metric("visionzip.merged", merged, "count",
                    note="visual tokens merged into the contextual ones")
