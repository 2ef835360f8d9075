#!/usr/bin/env python3
"""The CUDA backend's targets (docs/cuda.md), judged from one device check's output.

usage: device-targets.py DEVICE_CHECK_CSV [SPREAD_MD]

Reads the CSV of perfgate_device_check (family,variant,shape,dtype,mode,check,median_s,rate,
unit,fraction,cv,throttled) and, if given, the run-to-run spread table of scripts/device-check,
and prints one Markdown table: each target, what was measured, and whether it was met. A target
with no measured row reads "not measured", never "met". Exit status 0 whatever the verdicts
(they are findings, not failures), 2 on unreadable input.
"""
import csv
import re
import sys

COPY_FRACTION = 0.85  # fused memory-bound operators, tensors >= 256 MiB
SDPA_TFLOPS = 550.0  # cuDNN SDPA bf16 forward, d 128, sequence 4k-16k, non-causal
FLASH_OF_CUDNN = 0.40  # own flash forward kernel against cuDNN on the same shapes
GEMM_FRACTION = 0.90  # cuBLASLt bf16 GEMM 8192^3 against the measured GEMM ceiling
SPREAD_CV = 0.01  # run-to-run CV of a case's median across processes, cases > 100 us
OWN_FLASH = ("flash", "flash_q128")
CUDNN = ("cudnn_sdpa", "cudnn_graph")


def verdict(met, total):
    if total == 0:
        return "not measured"
    return "**met**" if met == total else f"**partly**: {met} of {total}" if met else "**missed**"


def timed(rows):
    return [r for r in rows if r["mode"].startswith("hot") and float(r["rate"] or 0) > 0]


def fused_rows(rows):
    """Each family's best fused hot row at >= 256 MiB (the norms time two block layouts)."""
    best = {}
    for r in timed(rows):
        mib = re.search(r"\((\d+) MiB\)", r["shape"])
        fused = r["variant"].startswith("fused") or r["variant"] == "multi_tensor"
        if fused and r["mode"] == "hot" and mib and int(mib.group(1)) >= 256:
            held = best.get(r["family"])
            if held is None or float(r["fraction"]) > float(held["fraction"]):
                best[r["family"]] = r
    return list(best.values())


def fused_label(r):
    default = r["variant"] in ("fused", "multi_tensor")
    return r["family"] if default else f'{r["family"]} ({r["variant"]})'


def sdpa_shapes(rows):
    """cuDNN forward rows of the SDPA target, by shape: bf16, d 128, s 4k-16k, non-causal."""
    shapes = {}
    for r in timed(rows):
        s = re.fullmatch(r"b=\d+ h=(\d+) hkv=(\d+) s=(\d+) d=128", r["shape"])
        if r["family"] == "attention_fwd" and r["dtype"] == "bf16" and s and 4096 <= int(s.group(3)) <= 16384:
            shapes.setdefault(r["shape"], {})[r["variant"]] = float(r["rate"]) / 1e12
    return shapes


def spread_rows(path):
    out = []
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 4 or not re.fullmatch(r"\d+", cells[-3]):
                continue
            out.append(("|".join(cells[:-3]), float(cells[-2]), float(cells[-1].rstrip("%")) / 100))
    return out


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        with open(argv[1], newline="") as f:
            rows = list(csv.DictReader(f))
        spread = spread_rows(argv[2]) if len(argv) == 3 else []
    except (OSError, ValueError, KeyError) as e:
        print(f"device-targets: cannot read {e}", file=sys.stderr)
        return 2

    lines = ["| target | measured | met? |", "|---|---|---|"]
    fused = fused_rows(rows)
    lines.append(
        f"| fused memory-bound operators >= {COPY_FRACTION:.0%} of the measured copy bandwidth (>= 256 MiB) | "
        + ", ".join(f'{fused_label(r)} {float(r["fraction"]):.1%}' for r in fused)
        + f" | {verdict(sum(float(r['fraction']) >= COPY_FRACTION for r in fused), len(fused))} |")

    shapes = sdpa_shapes(rows)
    cudnn = {s: max(v[c] for c in CUDNN if c in v) for s, v in shapes.items() if any(c in v for c in CUDNN)}
    lines.append(
        f"| cuDNN SDPA bf16 forward, d 128, s 4k-16k, non-causal >= {SDPA_TFLOPS:.0f} TFLOP/s | "
        + ", ".join(f"{t:.0f} ({s})" for s, t in cudnn.items())
        + f" | {verdict(sum(t >= SDPA_TFLOPS for t in cudnn.values()), len(cudnn))} |")

    ratios = []
    for s, t in cudnn.items():
        own = {k: shapes[s][k] for k in OWN_FLASH if k in shapes[s]}
        if own:
            best = max(own, key=own.get)
            ratios.append((s, best, own[best] / t))
    lines.append(
        f"| own flash forward kernel >= {FLASH_OF_CUDNN:.0%} of cuDNN on the same shapes | "
        + ", ".join(f"{k} {r:.1%} ({s})" for s, k, r in ratios)
        + f" | {verdict(sum(r >= FLASH_OF_CUDNN for _, _, r in ratios), len(ratios))} |")

    gemm = [r for r in timed(rows)
            if r["family"] == "gemm" and r["variant"] == "lt.none" and r["dtype"] == "bf16" and r["shape"] == "m=n=k=8192"]
    lines.append(
        f"| cuBLASLt bf16 GEMM 8192^3 >= {GEMM_FRACTION:.0%} of the measured GEMM ceiling | "
        + ", ".join(f'{float(r["rate"]) / 1e12:.0f} TFLOP/s = {float(r["fraction"]):.1%}' for r in gemm)
        + f" | {verdict(sum(float(r['fraction']) >= GEMM_FRACTION for r in gemm), len(gemm))} |")

    long_cases = [(case, cv) for case, mean_us, cv in spread if mean_us > 100]
    lines.append(
        f"| run-to-run CV of a case's median across processes < {SPREAD_CV:.0%} (cases > 100 us) | "
        + ", ".join(f"{'/'.join(case.split('|')[:2])} {cv:.2%}" for case, cv in long_cases)
        + f" | {verdict(sum(cv < SPREAD_CV for _, cv in long_cases), len(long_cases))} |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
