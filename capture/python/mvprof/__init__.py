"""Profile eager PyTorch vision-language models into an mvprof session.

    import mvprof
    with mvprof.profile("run.mvprof", model, image="photo.jpg", prompt="What is this?") as prof:
        with prof.phase("vision"):
            feats = model.vision_tower(pixels)
        prof.visual_tokens(start=1, grid=(14, 14))
        with prof.phase("prefill"):
            next_token = prof.output(model.language_model(inputs_embeds=embeds))
    with mvprof.whatif(prof, model, mvprof.W8()) as w:
        ...                                   # the same, with w.model
    mvprof.evaluate("run.mvprof", model, "set.jsonl", answer, mvprof.W8())  # over an eval set

The recording itself is mvprof's C++ capture (libmvprof_capture.so, loaded
into this process beside the libtorch that torch loaded). See README.md
beside this file.
"""

from ._abi import ABI_VERSION, MvprofError
from ._eval import Evaluation, evaluate
from ._passes import DEFAULT_ROLES, NullProfile, weight_bytes
from ._profile import Profile, profile
from ._transform import Transform
from .whatif import W4, W8, FreezeCold, PruneVisual, WhatIf, whatif
from ._visionzip import VisionZip
from ._visual_drop import FastV, PyramidDrop

__all__ = ["profile", "whatif", "evaluate", "Evaluation", "Profile", "WhatIf", "NullProfile", "MvprofError", "DEFAULT_ROLES",
           "Transform", "W8",
           "W4", "FreezeCold", "PruneVisual", "FastV", "PyramidDrop", "VisionZip", "weight_bytes",
           "ABI_VERSION"]
