#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks gw-cloverleaf output files (written with --out) against each other or the reference.

  check_results.py golden --golden FILE --case CL-A|CL-B [--ranks N] [--rtol R] [--passed] OUT
      every summary step of the reference's full-precision table for the case (at N ranks; the
      table at 2 and 4 ranks has the first and last steps only) is in OUT, and every column agrees
      within R relative (default 1e-9); with --passed, OUT also holds the reference's PASSED verdict.
      Exits 77 (CTest: skipped) with a message when the golden file is absent.
  check_results.py agree [--rtol R] OUT...
      every OUT has the same summary steps as the first, every column within R relative (default 1e-9).
  check_results.py expect --values FILE --case NAME [--rtol R] OUT
      as golden, against the NAME table of a reference values file (tests/cloverleaf/reference_values.txt).

Prints the largest relative difference per column and overall; exits 1 on any failure, naming the
step, the column and both values.
"""
import argparse
import os
import re
import sys

COLUMNS = ["Volume", "Mass", "Density", "Pressure", "InternalEnergy", "KineticEnergy", "TotalEnergy"]
STEP = re.compile(r"^\s*step:\s+(\d+)((?:\s+\S+){7})\s*$")
VERDICT = re.compile(r"This test is considered PASSED")


def read_output(path):
    """{step: [7 floats]} from gw-cloverleaf's summary lines; the last line of a repeated step wins
    (the reference prints the final step twice when it is also a summary step)."""
    steps = {}
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        sys.exit(f"cannot read {path}: {e}")
    for line in text.splitlines():
        m = STEP.match(line)
        if m:
            steps[int(m[1])] = [float(v) for v in m[2].split()]
    if not steps:
        sys.exit(f"{path}: no summary lines (' step: N ...'); did the run finish?")
    return steps, text


def read_table(path, start_pattern, ranks):
    """The golden file's full-precision table of a case at a rank count: {step: [7 floats]}."""
    with open(path) as f:
        lines = f.read().splitlines()
    in_case = False
    in_table = False
    table = {}
    for line in lines:
        if start_pattern(line):
            in_case = True
            continue
        if in_case and line.startswith("CASE ") and table:
            break
        if in_case and line.startswith("Full-precision field summary, np="):
            n = int(re.search(r"np=(\d+)", line)[1])
            in_table = n == ranks
            continue
        if in_table:
            fields = line.split()
            if len(fields) == 8 and fields[0].isdigit():
                table[int(fields[0])] = [float(v) for v in fields[1:]]
            elif fields and fields[0] != "step":
                in_table = False
    return table


def relative(a, b):
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def compare(expected, got, label_expected, label_got, rtol):
    failures = []
    worst = [0.0] * 7
    for step in sorted(expected):
        if step not in got:
            failures.append(f"{label_got}: no summary for step {step} (it has steps {sorted(got)})")
            continue
        for i, (a, b) in enumerate(zip(expected[step], got[step])):
            r = relative(a, b)
            worst[i] = max(worst[i], r)
            if r > rtol:
                failures.append(f"{label_got}: step {step} {COLUMNS[i]} {b!r} vs {a!r} in {label_expected} "
                                f"(relative difference {r:.3g} > {rtol:g})")
    return failures, worst


def report(worst, steps, rtol, what):
    cols = " ".join(f"{name} {w:.2g}" for name, w in zip(COLUMNS, worst))
    print(f"{what}: {steps} summary steps; largest relative difference {max(worst):.3g} "
          f"(tolerance {rtol:g}); per column: {cols}")


def golden(args):
    if not os.path.exists(args.golden):
        print(f"SKIPPED: the golden file {args.golden} is absent (it lives in ../shared/golden next to the "
              f"repository); nothing to compare against")
        return 77
    case = args.case
    table = read_table(args.golden, lambda line: line.startswith(f"CASE {case} "), args.ranks)
    if not table:
        sys.exit(f"{args.golden}: no np={args.ranks} table for case {case}")
    got, text = read_output(args.output)
    failures, worst = compare(table, got, f"the golden {case} np={args.ranks} table", args.output, args.rtol)
    if args.passed and not VERDICT.search(text):
        failures.append(f"{args.output}: no 'This test is considered PASSED' line")
    report(worst, len(table), args.rtol, f"{args.output} against golden {case} np={args.ranks}")
    return failures


def expect(args):
    table = {}
    with open(args.values) as f:
        for line in f:
            fields = line.split()
            if len(fields) == 9 and fields[0] == args.case and fields[1].isdigit():
                table[int(fields[1])] = [float(v) for v in fields[2:]]
    if not table:
        sys.exit(f"{args.values}: no lines for case {args.case}")
    got, _ = read_output(args.output)
    failures, worst = compare(table, got, f"reference case {args.case}", args.output, args.rtol)
    report(worst, len(table), args.rtol, f"{args.output} against reference case {args.case}")
    return failures


def agree(args):
    base, _ = read_output(args.outputs[0])
    failures = []
    worst_all = [0.0] * 7
    for path in args.outputs[1:]:
        got, _ = read_output(path)
        if sorted(got) != sorted(base):
            failures.append(f"{path}: summary steps {sorted(got)} differ from {args.outputs[0]}'s {sorted(base)}")
            continue
        f, worst = compare(base, got, args.outputs[0], path, args.rtol)
        failures += f
        worst_all = [max(a, b) for a, b in zip(worst_all, worst)]
    report(worst_all, len(base), args.rtol, f"{len(args.outputs)} runs against {args.outputs[0]}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    g = sub.add_parser("golden")
    g.add_argument("--golden", required=True)
    g.add_argument("--case", required=True, choices=["CL-A", "CL-B"])
    g.add_argument("--ranks", type=int, default=1)
    g.add_argument("--rtol", type=float, default=1e-9)
    g.add_argument("--passed", action="store_true")
    g.add_argument("output")
    e = sub.add_parser("expect")
    e.add_argument("--values", required=True)
    e.add_argument("--case", required=True)
    e.add_argument("--rtol", type=float, default=1e-9)
    e.add_argument("output")
    a = sub.add_parser("agree")
    a.add_argument("--rtol", type=float, default=1e-9)
    a.add_argument("outputs", nargs="+")
    args = parser.parse_args()
    result = {"golden": golden, "expect": expect, "agree": agree}[args.mode](args)
    if isinstance(result, int):
        return result
    for failure in result[:12]:
        print("FAILED:", failure)
    if len(result) > 12:
        print(f"FAILED: ... and {len(result) - 12} more")
    return 1 if result else 0


if __name__ == "__main__":
    sys.exit(main())
