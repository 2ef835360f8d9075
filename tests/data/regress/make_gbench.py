#!/usr/bin/env python3
"""Writes a Google Benchmark JSON file with repetitions, for comparator tests.

make_gbench.py OUT SEED DATE NAME=LEVEL [NAME=LEVEL ...]
Each benchmark gets 10 repetitions of log-normal noise (1 % CV) around LEVEL ns.
The context's host_name is $GBENCH_HOST, else "ci".
"""
import json
import math
import os
import random
import sys

out, seed, date = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
rows = []
for spec in sys.argv[4:]:
    name, level = spec.split("=")
    for rep in range(10):
        t = float(level) * math.exp(rng.gauss(0.0, 0.01))
        rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": 10,
                     "repetition_index": rep, "iterations": 1000, "real_time": t, "cpu_time": t,
                     "time_unit": "ns"})
doc = {"context": {"date": date, "host_name": os.environ.get("GBENCH_HOST", "ci"), "num_cpus": 4, "mhz_per_cpu": 3000,
                   "cpu_scaling_enabled": False, "library_build_type": "release"},
       "benchmarks": rows}
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
