# SPDX-License-Identifier: BSD-3-Clause
"""Runs a reference example (C++ or Fortran) and its Python version on the same ranks through
scripts/launch and checks that both print the same checksum, character for character.

    compare_checksums.py --launch scripts/launch --mpi openmpi --path intra -n 2 \\
        --reference build/examples/heat_jacobi 64 50 --python examples/python/heat_jacobi.py 64 50
"""
import argparse
import re
import subprocess
import sys

CHECKSUM = re.compile(r"checksum (\S+)")


def checksum_of(command):
    run = subprocess.run(command, capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        sys.exit(f"compare_checksums: {' '.join(command)} exited with {run.returncode}")
    found = CHECKSUM.findall(run.stdout)
    if len(found) != 1:
        sys.exit(f"compare_checksums: {' '.join(command)} printed {len(found)} checksum lines, expected 1")
    return found[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launch", required=True)
    parser.add_argument("--mpi", default="openmpi")
    parser.add_argument("--path", default="intra")
    parser.add_argument("-n", type=int, required=True)
    parser.add_argument("--interpreter", default=sys.executable)
    parser.add_argument("--reference", nargs="+", required=True)
    parser.add_argument("--python", nargs="+", required=True)
    args = parser.parse_args()
    launch = [args.launch, "--mpi", args.mpi, "--path", args.path, "-n", str(args.n), "--"]
    reference = checksum_of(launch + args.reference)
    python = checksum_of(launch + [args.interpreter] + args.python)
    if reference != python:
        sys.exit(f"compare_checksums: the checksums differ: reference {reference}, python {python}")
    print(f"compare_checksums: equal checksums {reference} on {args.n} ranks")


if __name__ == "__main__":
    main()
