"""A session's packed rows read with plain sqlite3, as docs/format.md
describes them — the Python tests' own reading, independent of mvprof's
reader: per-patch figures (v9 `patch_values`: one array of little-endian
float64 per run, metric and layer, indexed by patch, NaN where a patch has
none; from v10 `encoding` 2 marks an array deflated as a zlib stream) and
routing (v10 `routing_chunk`: a layer's rows as varints and a float64,
deflated)."""

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


PHASES = ("", "preprocess", "h2d", "vision", "projector", "prefill", "decode")
RoutingRow = Tuple[int, str, int, int, str, int, int, float]


def _varints(data: bytes, at: int, count: int) -> Tuple[List[int], int]:
    out = []
    for _ in range(count):
        value, shift = 0, 0
        while True:
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        out.append(value)
    return out, at


def _signed(v: int) -> int:
    return (v >> 1) ^ -(v & 1)


def routing_rows(db: sqlite3.Connection, run: Optional[int] = None) -> List[RoutingRow]:
    """(layer, phase, step, token, modality, rank, expert, weight) of `run`'s
    routing (else every run's), ordered by run, layer, token and rank."""
    query = "SELECT run, layer, rows, encoding, data FROM routing_chunk"
    args: Tuple = ()
    if run is not None:
        query, args = query + " WHERE run=?", (run,)
    rows: List[Tuple[int, RoutingRow]] = []
    for run_id, layer, count, encoding, data in db.execute(query, args):
        data = zlib.decompress(data) if encoding == 2 else data
        at, token, step = 0, 0, 0
        for _ in range(count):
            (dt, phase, ds, modality, rank, expert), at = _varints(data, at, 6)
            token, step = token + _signed(dt), step + _signed(ds)
            (weight,) = struct.unpack_from("<d", data, at)
            at += 8
            rows.append((run_id, (layer, PHASES[phase], step, token,
                                  "visual" if modality == 1 else "text", _signed(rank),
                                  _signed(expert), weight)))
    rows.sort(key=lambda r: (r[0], r[1][0], r[1][3], r[1][5]))
    return [r for _, r in rows]


def metric_names(db: sqlite3.Connection) -> List[str]:
    """The metrics a session holds per patch."""
    return [m for (m,) in db.execute("SELECT DISTINCT metric FROM patch_values ORDER BY metric")]
