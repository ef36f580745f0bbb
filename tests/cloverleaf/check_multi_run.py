#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks gw-cloverleaf's side-by-side mode: a job running every exchange of the build (as --help
lists them) x both sync modes for several rounds gives, run for run, the same results as a job of
that one variant.

  check_multi_run.py --launch SCRIPT --mpi FLAVOR --path PATH --ranks N [--rpn K] [--rounds R]
                     --program gw-cloverleaf --deck DECK --work DIR

Runs the side-by-side job (--exchange <all> --sync p2p,global --rounds R) and one job per (exchange,
sync), all through scripts/launch, then checks:
  - the job printed one JSON line per run, with "round", in the documented order (every combination
    once per round, round r starting at combination r-1 and wrapping around);
  - each run's output file (FILE.<exchange>.<sync>.r<round>.out) has the summary steps of the single
    job's file with every column identical (%.17g, no tolerance), and its JSON line the same steps,
    halo updates, verdict and final summary;
  - the single jobs' JSON lines have no "round" (their output is what it was before the mode existed).
Exits 0 when all hold, 1 naming each difference.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_results import compare, read_output  # noqa: E402

SYNCS = ["p2p", "global"]
SAME_FIELDS = ("steps", "halo_updates", "verdict", "qa_diff_percent", "summary", "sim_time")


def exchanges_in_build(program):
    """The names under --help's "exchanges in this build:", up to the blank line after them."""
    text = subprocess.run([program, "--help"], capture_output=True, text=True, check=True).stdout
    lines = text.splitlines()
    start = lines.index("exchanges in this build:") + 1
    names = []
    for line in lines[start:]:
        if not line.strip():
            break
        names.append(line.split()[0])
    if not names:
        sys.exit(f"{program} --help lists no exchanges")
    return names


def launch(args, program_args, what):
    command = [args.launch, "--mpi", args.mpi, "--path", args.path, "-n", str(args.ranks), "--timeout", "240"]
    if args.rpn:
        command += ["--rpn", str(args.rpn)]
    command += ["--", args.program, "--quiet", args.deck, *program_args]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{what} failed (exit status {result.returncode}): {' '.join(command)}\n"
                 f"{result.stdout}{result.stderr}")
    records = []
    for line in result.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("app") == "cloverleaf":
                records.append(record)
    return records


def expected_order(exchanges, rounds):
    combinations = [(e, s) for e in exchanges for s in SYNCS]
    n = len(combinations)
    return [(*combinations[(r - 1 + i) % n], r) for r in range(1, rounds + 1) for i in range(n)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--launch", required=True)
    parser.add_argument("--mpi", required=True)
    parser.add_argument("--path", default="intra")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--rpn", type=int)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--program", required=True)
    parser.add_argument("--deck", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    exchanges = exchanges_in_build(args.program)
    print(f"exchanges in the build: {', '.join(exchanges)}; {args.rounds} rounds, {args.ranks} ranks {args.path}")
    multi = launch(args, ["--exchange", ",".join(exchanges), "--sync", ",".join(SYNCS), "--rounds", str(args.rounds),
                          "--out", str(work / "multi.out")], "the side-by-side job")
    failures = []
    order = [(r["exchange"], r["sync"], r.get("round")) for r in multi]
    if order != expected_order(exchanges, args.rounds):
        failures.append(f"runs in the order {order}, expected {expected_order(exchanges, args.rounds)}")

    for exchange in exchanges:
        for sync in SYNCS:
            single_out = work / f"single.{exchange}.{sync}.out"
            single = launch(args, ["--exchange", exchange, "--sync", sync, "--out", str(single_out)],
                            f"the job of {exchange} {sync} alone")
            if len(single) != 1 or "round" in single[0]:
                failures.append(f"{exchange} {sync} alone: expected one JSON line without 'round', got {single}")
                continue
            expected, _ = read_output(single_out)
            for round_ in range(1, args.rounds + 1):
                path = work / f"multi.{exchange}.{sync}.r{round_}.out"
                got, _ = read_output(path)
                if sorted(got) != sorted(expected):
                    failures.append(f"{path}: summary steps {sorted(got)}, alone {sorted(expected)}")
                    continue
                found, _ = compare(expected, got, str(single_out), str(path), 0.0)
                failures += found
                record = [r for r in multi if (r["exchange"], r["sync"], r.get("round")) == (exchange, sync, round_)]
                if len(record) != 1:
                    failures.append(f"{exchange} {sync} round {round_}: {len(record)} JSON lines")
                    continue
                for key in SAME_FIELDS:
                    if record[0].get(key) != single[0].get(key):
                        failures.append(f"{exchange} {sync} round {round_}: JSON {key} {record[0].get(key)!r}, "
                                        f"alone {single[0].get(key)!r}")
            print(f"{exchange} {sync}: {args.rounds} rounds of the side-by-side job against the job alone: "
                  f"{'identical' if not failures else 'see below'}")
    for failure in failures[:20]:
        print("FAILED:", failure)
    if not failures:
        print(f"all {len(multi)} runs identical to their variant's job alone")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
