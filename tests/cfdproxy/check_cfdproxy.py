#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks gw-cfdproxy result files (written with --output: checksum lines and one JSON line per
variant) after the runs of a test group.

  check_cfdproxy.py expect --values FILE [--halo] [--rtol R] RESULT...
      every variant's owned-point checksums equal the reference's (FILE) within R relative (default
      1e-10); with --halo also the halo sums (only the original 48-domain partition has them).
  check_cfdproxy.py agree [--rtol R] RESULT...
      every exchanging variant of every file has the same owned-point checksums as the first
      within R (default 1e-10), and its flux telescopes: |sum_psdflux_owned| / sumabs_psdflux_owned
      below 1e-12 (a stale or misplaced ghost breaks it).
  check_cfdproxy.py commfree RESULT...
      commfree does not telescope (ratio above 1e-6): the check above can fail.
  check_cfdproxy.py equal --base FILE RESULT...
      bit for bit: every variant of every RESULT has exactly the checksums (all of them, halo sums
      included) of the same variant in FILE, and in FILE every exchanging variant has those of the
      first (runs of one partition at other thread counts, or on other paths, must not differ).
"""
import argparse
import json
import sys

OWNED = ["sum_grad_owned", "sumabs_grad_owned", "maxabs_grad_owned", "sumabs_psdflux_owned", "sumsq_psdflux_owned",
         "maxabs_psdflux_owned", "total_owned_points"]


def read(path):
    records = []
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("{"):
                    records.append(json.loads(line))
    except OSError as e:
        sys.exit(f"cannot read {path}: {e}")
    if not records:
        sys.exit(f"{path}: no JSON lines (did the run finish?)")
    return records


def relative(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def telescoping(checksums):
    return abs(checksums["sum_psdflux_owned"]) / checksums["sumabs_psdflux_owned"]


def expect(args):
    values, halo = {}, {}
    with open(args.values) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            if parts[0] == "halo":
                halo[parts[1]] = float(parts[2])
            else:
                values[parts[0]] = float(parts[1])
    wanted = dict(values, **(halo if args.halo else {}))
    failures, worst = [], 0.0
    for path in args.results:
        for record in read(path):
            c = record["checksums"]
            for name, value in wanted.items():
                error = relative(c[name], value)
                worst = max(worst, error)
                if error > args.rtol:
                    failures.append(f"{path} {record['variant']}: {name} {c[name]!r}, reference {value!r} "
                                    f"(relative {error:.2e})")
    return failures, f"{len(args.results)} file(s) against the reference, worst relative difference {worst:.2e}"


def agree(args):
    failures, worst, base = [], 0.0, None
    for path in args.results:
        for record in read(path):
            if record["variant"] == "commfree":
                continue
            c = record["checksums"]
            if telescoping(c) >= 1e-12:
                failures.append(f"{path} {record['variant']}: the flux does not telescope: |sum| / sumabs = "
                                f"{telescoping(c):.2e} (a ghost is wrong)")
            if base is None:
                base = (path, record["variant"], c)
                continue
            for name in OWNED:
                error = relative(c[name], base[2][name])
                worst = max(worst, error)
                if error > args.rtol:
                    failures.append(f"{path} {record['variant']}: {name} {c[name]!r}, but {base[0]} {base[1]} has "
                                    f"{base[2][name]!r} (relative {error:.2e})")
    return failures, f"{len(args.results)} file(s) agree, worst relative difference {worst:.2e}"


def commfree(args):
    failures = []
    for path in args.results:
        for record in read(path):
            if record["variant"] == "commfree" and telescoping(record["checksums"]) <= 1e-6:
                failures.append(f"{path}: commfree telescopes ({telescoping(record['checksums']):.2e}): "
                                "the check of the exchanging variants could not fail")
    return failures, "commfree does not telescope"


def equal(args):
    base = {r["variant"]: r["checksums"] for r in read(args.base)}
    exchanging = [v for v in base if v != "commfree"]
    failures = []

    def compare(what, checksums, expected, against):
        for name, value in expected.items():
            if checksums.get(name) != value:
                failures.append(f"{what}: {name} {checksums.get(name)!r}, but {against} has {value!r}")

    for v in exchanging[1:]:
        compare(f"{args.base} {v}", base[v], base[exchanging[0]], f"{exchanging[0]} in the same file")
    compared = 0
    for path in args.results:
        for record in read(path):
            if record["variant"] not in base:
                failures.append(f"{path}: variant {record['variant']} is not in {args.base}")
                continue
            compare(f"{path} {record['variant']} ({record.get('ranks')} ranks x {record.get('threads')} threads)",
                    record["checksums"], base[record["variant"]], args.base)
            compared += 1
    return failures, f"{compared} result(s) in {len(args.results)} file(s) equal to {args.base} bit for bit"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    e = sub.add_parser("expect")
    e.add_argument("--values", required=True)
    e.add_argument("--halo", action="store_true")
    e.add_argument("--rtol", type=float, default=1e-10)
    e.add_argument("results", nargs="+")
    a = sub.add_parser("agree")
    a.add_argument("--rtol", type=float, default=1e-10)
    a.add_argument("results", nargs="+")
    c = sub.add_parser("commfree")
    c.add_argument("results", nargs="+")
    q = sub.add_parser("equal")
    q.add_argument("--base", required=True)
    q.add_argument("results", nargs="+")
    args = parser.parse_args()
    failures, summary = {"expect": expect, "agree": agree, "commfree": commfree, "equal": equal}[args.mode](args)
    if failures:
        print("\n".join(failures))
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
