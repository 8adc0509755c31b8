"""A session's per-patch figures read with plain sqlite3, as docs/format.md
describes them (v9 `patch_values`: one array of little-endian float64 per
run, metric and layer, indexed by patch, NaN where a patch has none; from
v10 `encoding` 2 marks an array deflated as a zlib stream) — the Python
tests' own reading, independent of mvprof's reader."""

import math
import sqlite3
import struct
import zlib
from typing import List, Optional, Tuple


def patch_array(data: bytes, encoding: int = 1) -> Tuple[float, ...]:
    """One stored array's values (NaN: no value)."""
    if encoding == 2:
        data = zlib.decompress(data)
    elif encoding != 1:
        raise ValueError(f"patch array encoding {encoding}")
    return struct.unpack(f"<{len(data) // 8}d", data)


def patch_rows(db: sqlite3.Connection, metric: str,
               run: Optional[int] = None) -> List[Tuple[int, int, float]]:
    """(layer, patch, value) of `metric` (of `run`, else every run), by layer then patch."""
    query = "SELECT layer, data, encoding FROM patch_values WHERE metric=?"
    args: Tuple = (metric,)
    if run is not None:
        query += " AND run=?"
        args = (metric, run)
    rows: List[Tuple[int, int, float]] = []
    for layer, data, encoding in db.execute(query + " ORDER BY run, layer", args):
        values = patch_array(data, encoding)
        rows += [(layer, patch, v) for patch, v in enumerate(values) if not math.isnan(v)]
    return rows


def metric_names(db: sqlite3.Connection) -> List[str]:
    """The metrics a session holds per patch."""
    return [m for (m,) in db.execute("SELECT DISTINCT metric FROM patch_values ORDER BY metric")]
