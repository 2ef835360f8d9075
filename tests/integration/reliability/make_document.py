#!/usr/bin/env python3
"""Writes a perfgate result document (schema v1) with SERIES series of SAMPLES samples each.

usage: make_document.py OUT.json --uuid UUID [--series N] [--samples M] [--family NAME]
A large document makes a kill during ingest land inside the store's transaction.
"""
import argparse
import json
import random


def result(family, i, samples, rng):
    values = [1000.0 + rng.random() * 10 for _ in range(samples)]
    s = sorted(values)
    median = s[len(s) // 2] if s else 0.0
    return {
        "family": family, "params": {"case": str(i), "size": str(1 << (i % 20))},
        "metric": "time", "unit": "ns", "direction": "lower_is_better",
        "status": "ok", "message": "", "samples": values,
        "summary": {"n": len(values), "median": median, "mean": sum(values) / max(1, len(values)),
                    "min": s[0] if s else 0.0, "max": s[-1] if s else 0.0, "mad": 1.0},
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--uuid", required=True)
    p.add_argument("--series", type=int, default=10)
    p.add_argument("--samples", type=int, default=10)
    p.add_argument("--family", default="reliability")
    p.add_argument("--started-at", default="2026-11-29T22:00:00Z")
    a = p.parse_args()
    rng = random.Random(a.uuid)
    doc = {
        "context": {"date": a.started_at, "host_name": "test", "num_cpus": 2,
                    "library_build_type": "Release", "perfgate_schema": "perfgate-result/1"},
        "benchmarks": [],
        "perfgate": {
            "schema_version": 1,
            "run": {"uuid": a.uuid, "suite": "reliability", "trigger": "nightly",
                    "code": {"repo": "r", "branch": "main", "commit": "c0ffee", "dirty": False},
                    "started_at": a.started_at, "ended_at": a.started_at, "status": "complete",
                    "labels": {}, "metadata": {}},
            "fingerprint": {"comparable": {"cpu.model": "test", "build.type": "Release"},
                            "info": {"host": "test"}},
            "results": [result(a.family, i, a.samples, rng) for i in range(a.series)],
        },
    }
    with open(a.out, "w") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
