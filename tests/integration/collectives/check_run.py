"""Checks one perfgate-collectives table (stdout) against nccl-tests' rules and its document.

usage: check_run.py TABLE DOCUMENT RANKS
- every row: busbw == algbw x factor as printed (within each cell's rounding: 2 decimals, or
  fewer where a value fills its 6 characters), #wrong == 0;
- document: busbw samples == algbw samples x factor (exactly), per_rank_us has RANKS entries,
  scale.ranks == RANKS, every collective of the table present out-of-place and in-place.
"""
import json
import sys

FACTOR = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "alltoall": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
    "reduce": lambda n: 1.0,
    "sendrecv": lambda n: 1.0,
    "gather": lambda n: (n - 1) / n,
    "scatter": lambda n: (n - 1) / n,
    "hypercube": lambda n: 1.0,
}
# The share of the size column that algbw counts: hypercube_perf's counts the blocks a rank
# receives.
SHARE = {"hypercube": lambda n: (n - 1) / n}


def fail(msg):
    print("check_run:", msg, file=sys.stderr)
    sys.exit(1)


def half_unit(cell):
    """Half a unit in the last printed place of a cell ("0.12", "1234.6", "123457")."""
    decimals = len(cell.split(".")[1]) if "." in cell and "e" not in cell else 0
    return 0.5 * 10 ** -decimals


def check_table(path, ranks):
    """Checks the rows; returns the collectives that have some."""
    op, rows, ops = None, 0, set()
    for line in open(path):
        if line.startswith("# Collective test starting:"):
            op = line.split()[-1].removesuffix("_perf")
            continue
        if line.startswith("#") or not line.strip():
            continue
        t = line.split()
        if len(t) != 13:
            fail(f"row with {len(t)} columns: {line!r}")
        f = FACTOR[op](ranks)
        for base in (5, 9):
            algbw, busbw, wrong = float(t[base + 1]), float(t[base + 2]), t[base + 3]
            rounding = half_unit(t[base + 2]) + half_unit(t[base + 1]) * f
            if abs(busbw - algbw * f) > rounding + 1e-9:
                fail(f"{op}: busbw {busbw} != algbw {algbw} x {f}: {line!r}")
            if wrong != "0":
                fail(f"{op}: #wrong {wrong}: {line!r}")
        rows += 1
        ops.add(op)
    if rows == 0:
        fail("no rows")
    return ops


def check_document(path, ranks, ops):
    doc = json.load(open(path))
    results = doc["perfgate"]["results"]
    by_key = {}
    for r in results:
        key = (r["family"], json.dumps(r["params"], sort_keys=True))
        by_key.setdefault(key, {})[r["metric"]] = r
    seen = set()
    for (family, params), metrics in by_key.items():
        op = family.removeprefix("collectives.")
        p = json.loads(params)
        seen.add((op, p["inplace"]))
        f = FACTOR[op](ranks)
        time, alg, bus = metrics["time"], metrics["algbw"], metrics["busbw"]
        if time["status"] != "ok":
            fail(f"{family} {params}: status {time['status']}")
        for t, a, b in zip(time["samples"], alg["samples"], bus["samples"]):
            share = SHARE.get(op, lambda n: 1.0)(ranks)
            if abs(a - int(p["bytes"]) * share / (t * 1e-6) / 1e9) > 1e-9 * a or abs(b - a * f) > 1e-12 * max(1, b):
                fail(f"{family} {params}: samples disagree: time {t} algbw {a} busbw {b}")
        if len(time["extra"]["per_rank_us"]) != ranks:
            fail(f"{family}: per_rank_us has {len(time['extra']['per_rank_us'])} entries")
        if time["scale"]["ranks"] != ranks:
            fail(f"{family}: scale {time['scale']}")
    if seen != {(op, inplace) for op in ops for inplace in ("0", "1")}:
        fail(f"collectives x placements in the document: {sorted(seen)}, table: {sorted(ops)}")
    if len(doc["perfgate"]["run"]["metadata"]["collectives"]["ranks"]) != ranks:
        fail("metadata.collectives.ranks has the wrong length")


def main():
    table, document, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    check_document(document, ranks, check_table(table, ranks))


main()
