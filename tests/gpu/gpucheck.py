"""What every Python GPU check starts with: its arguments (mvprof-cli, the
sample image, its output folder, made here) and whether torch sees a GPU."""
from __future__ import annotations

import os
import sys
from typing import Optional


def start() -> Optional[tuple[str, str, str]]:
    """(cli, image, out) from argv; None, after saying why, without a GPU (exit 77)."""
    cli, image, out = sys.argv[1], sys.argv[2], sys.argv[3]
    import torch

    if not torch.cuda.is_available():
        print("  no CUDA device visible to torch: skipped")
        return None
    os.makedirs(out, exist_ok=True)
    return cli, image, out
