"""A session's packed rows read with plain sqlite3, as docs/format.md
describes them — the Python tests' own reading, independent of mvprof's
reader: per-patch figures (v11 `patch_values`: one matrix of little-endian
float64 per run and metric, a row per layer from `first_layer`, a column per
patch, NaN where a patch has none; `encoding` 2 marks it deflated as a zlib
stream), routing (v10 `routing_chunk`: a layer's rows as varints and a
float64, deflated), module spans and device activity (v11 `span_chunk`,
`activity_chunk`: varints, deflated)."""

import math
import sqlite3
import struct
import zlib
from typing import List, Optional, Tuple


def _plain(data: bytes, encoding: int) -> bytes:
    if encoding == 2:
        return zlib.decompress(data)
    if encoding != 1:
        raise ValueError(f"encoding {encoding}")
    return data


def patch_rows(db: sqlite3.Connection, metric: str,
               run: Optional[int] = None) -> List[Tuple[int, int, float]]:
    """(layer, patch, value) of `metric` (of `run`, else every run), by run, layer, patch."""
    query = "SELECT first_layer, layers, patches, data, encoding FROM patch_values WHERE metric=?"
    args: Tuple = (metric,)
    if run is not None:
        query += " AND run=?"
        args = (metric, run)
    rows: List[Tuple[int, int, float]] = []
    for first, layers, patches, data, encoding in db.execute(query + " ORDER BY run", args):
        values = struct.unpack(f"<{layers * patches}d", _plain(data, encoding))
        rows += [(first + i // patches, i % patches, v) for i, v in enumerate(values)
                 if not math.isnan(v)]
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
        data = _plain(data, encoding)
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


SpanRow = Tuple[int, int, Optional[int], str, int, int, int, Optional[int], int, int, bool]


def span_rows(db: sqlite3.Connection, run: int) -> List[SpanRow]:
    """(id, module, parent, phase, step, start_ns, end_ns, device_ns, flops,
    bytes, flops_known) of `run`'s spans, ordered by id."""
    rows: List[SpanRow] = []
    for count, encoding, data in db.execute(
            "SELECT rows, encoding, data FROM span_chunk WHERE run=?", (run,)):
        data = _plain(data, encoding)
        at, span_id, module, step, start = 0, 0, 0, 0, 0
        for _ in range(count):
            (flags, d_id, d_module), at = _varints(data, at, 3)
            span_id, module = span_id + _signed(d_id), module + _signed(d_module)
            parent = None
            if flags & 2:
                (back,), at = _varints(data, at, 1)
                parent = span_id - _signed(back)
            (phase, d_step, d_start, length), at = _varints(data, at, 4)
            step, start = step + _signed(d_step), start + _signed(d_start)
            device = None
            if flags & 4:
                (d,), at = _varints(data, at, 1)
                device = _signed(d)
            (flops, nbytes), at = _varints(data, at, 2)
            rows.append((span_id, module, parent, PHASES[phase], step, start,
                         start + _signed(length), device, _signed(flops), _signed(nbytes),
                         bool(flags & 1)))
    return sorted(rows)


KINDS = ("kernel", "memcpy", "memset", "runtime", "driver")
ActivityRow = Tuple[int, str, str, int, int, int, int, int, Optional[int], Optional[int],
                    Optional[int], int]


def activity_rows(db: sqlite3.Connection, run: int) -> List[ActivityRow]:
    """(id, kind, name, device, stream, thread, start_ns, end_ns, correlation,
    op, span, bytes) of `run`'s device activity, ordered by id."""
    names = dict(db.execute("SELECT id, text FROM interned"))
    rows: List[ActivityRow] = []
    for count, encoding, data in db.execute(
            "SELECT rows, encoding, data FROM activity_chunk WHERE run=?", (run,)):
        data = _plain(data, encoding)
        at, act_id, stream, thread, start = 0, 0, 0, 0, 0
        last = [0, 0, 0]  # correlation, op, span: differences from the last one present
        for _ in range(count):
            (flags, d_id, kind, name, device, d_stream, d_thread, d_start, length), at = \
                _varints(data, at, 9)
            act_id, stream = act_id + _signed(d_id), stream + _signed(d_stream)
            thread, start = thread + _signed(d_thread), start + _signed(d_start)
            links: List[Optional[int]] = [None, None, None]
            for i in range(3):
                if flags & (1 << i):
                    (d,), at = _varints(data, at, 1)
                    last[i] += _signed(d)
                    links[i] = last[i]
            (nbytes,), at = _varints(data, at, 1)
            rows.append((act_id, KINDS[kind], names[_signed(name)], _signed(device), stream,
                         thread, start, start + _signed(length), links[0], links[1], links[2],
                         _signed(nbytes)))
    return sorted(rows)


def metric_names(db: sqlite3.Connection) -> List[str]:
    """The metrics a session holds per patch."""
    return [m for (m,) in db.execute("SELECT DISTINCT metric FROM patch_values ORDER BY metric")]
