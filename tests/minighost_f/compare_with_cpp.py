#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs the C++ gw-minighost (variant mpi) and gw-minighost-f (variants mpi and gw) with the same
options through scripts/launch, and checks that every run verified conservation and that the Fortran
runs' final interior sums equal the C++ app's within 1e-12 relative.

  compare_with_cpp.py LAUNCH CPP FORTRAN OUTDIR [launch options] -- [miniGhost options]

With --side-by-side among the launch options, gw-minighost-f runs both variants in one job
(--variant gw,mpi --rounds 4) and each variant's output file is checked.
"""
import json
import subprocess
import sys


def run(command, output, read=True):
    result = subprocess.run(command + ["--output", output], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit status {result.returncode}\n{result.stdout}\n{result.stderr}")
    return read_json(output) if read else None


def read_json(output):
    with open(output) as lines:
        for line in lines:
            if line.startswith("{"):
                return json.loads(line)
    sys.exit(f"{output}: no JSON line")


def main():
    launch, cpp, fortran, outdir = sys.argv[1:5]
    split = sys.argv.index("--")
    launch_options, options = sys.argv[5:split], sys.argv[split + 1:]
    side_by_side = "--side-by-side" in launch_options
    launch_options = [o for o in launch_options if o != "--side-by-side"]
    name = "_".join(o.lstrip("-") for o in launch_options + options).replace("/", "_")
    reference = run([launch] + launch_options + ["--", cpp] + options + ["--variant", "mpi"], f"{outdir}/{name}.cpp.txt")
    worst = 0.0
    if side_by_side:
        run([launch] + launch_options + ["--", fortran] + options + ["--variant", "gw,mpi", "--rounds", "4"],
            f"{outdir}/{name}.side.txt", read=False)
    for variant in ("mpi", "gw"):
        if side_by_side:
            result = read_json(f"{outdir}/{name}.side.{variant}.txt")
        else:
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
