#!/usr/bin/env python3
"""Runs the C++ gw-minighost (variant mpi) and gw-minighost-f (variants mpi and gw) with the same
options through scripts/launch, and checks that every run verified conservation and that the Fortran
runs' final interior sums equal the C++ app's within 1e-12 relative.

  compare_with_cpp.py LAUNCH CPP FORTRAN OUTDIR [launch options] -- [miniGhost options]
"""
import json
import subprocess
import sys


def run(command, output):
    result = subprocess.run(command + ["--output", output], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit status {result.returncode}\n{result.stdout}\n{result.stderr}")
    with open(output) as lines:
        for line in lines:
            if line.startswith("{"):
                return json.loads(line)
    sys.exit(f"{output}: no JSON line")


def main():
    launch, cpp, fortran, outdir = sys.argv[1:5]
    split = sys.argv.index("--")
    launch_options, options = sys.argv[5:split], sys.argv[split + 1:]
    name = "_".join(o.lstrip("-") for o in launch_options + options).replace("/", "_")
    reference = run([launch] + launch_options + ["--", cpp] + options + ["--variant", "mpi"], f"{outdir}/{name}.cpp.txt")
    worst = 0.0
    for variant in ("mpi", "gw"):
        result = run([launch] + launch_options + ["--", fortran] + options + ["--variant", variant],
                     f"{outdir}/{name}.f.{variant}.txt")
        if result["verified"] is not True:
            sys.exit(f"gw-minighost-f --variant {variant}: conservation not verified")
        for mine, theirs in zip(result["final_interior_sums"], reference["final_interior_sums"], strict=True):
            error = abs(mine - theirs) / abs(theirs)
            worst = max(worst, error)
            if error > 1e-12:
                sys.exit(f"gw-minighost-f --variant {variant}: interior sum {mine!r}, the C++ app's {theirs!r}")
    print(f"gw-minighost-f (mpi, gw) equals gw-minighost: largest relative difference {worst:.3g}")


main()
