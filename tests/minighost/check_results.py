#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks gw-minighost result files (written with --output) after the runs of a test group.

  check_results.py agree [--normalize] [--vars 1,2] [--rtol R] FILE...
      every file verified conservation, and all report the same interior sums (per step, spike and
      variable) as the first file, within R relative (default 1e-12). --normalize compares
      interior_sum / source_total: the reference scales the spikes of variables 2.. with the number
      of ranks, so only these ratios are independent of the decomposition.
  check_results.py expect --values FILE [--rtol R] CASE=RESULT...
      every report line of each CASE in the reference values file (from the original Fortran
      miniGhost) is in RESULT with the same source_total and interior_sum within R (default 1e-11)
      and flux_out within 1e-9 (it is accumulated in another order).
"""
import argparse
import json
import re
import sys

LINE = re.compile(r"^diffusion step (\d+) var (\d+) source_total (\S+) gsum (\S+) flux_out (\S+) "
                  r"interior_sum (\S+)(?: spike (\d+))?$")


def read_result(path):
    """Returns ({(step, spike, var): (source_total, gsum, flux_out, interior_sum)}, json or None)."""
    lines, summary = {}, None
    try:
        with open(path) as f:
            for text in f:
                text = text.strip()
                m = LINE.match(text)
                if m:
                    key = (int(m[1]), int(m[7] or 1), int(m[2]))
                    lines[key] = tuple(float(m[i]) for i in (3, 4, 5, 6))
                elif text.startswith("{"):
                    summary = json.loads(text)
    except OSError as e:
        sys.exit(f"cannot read {path}: {e}")
    if not lines:
        sys.exit(f"{path}: no report lines")
    if summary is None:
        sys.exit(f"{path}: no JSON summary line (did the run finish?)")
    return lines, summary


def relative(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def agree(args):
    failures = []
    wanted = {int(v) for v in args.vars.split(",")} if args.vars else None
    results = [(path, *read_result(path)) for path in args.files]
    for path, _, summary in results:
        if summary.get("verified") is not True:
            failures.append(f"{path}: conservation not verified (verified = {summary.get('verified')})")
    base_path, base, _ = results[0]
    worst = 0.0
    for path, lines, _ in results[1:]:
        if set(lines) != set(base):
            failures.append(f"{path}: report lines (step, spike, var) differ from {base_path}")
            continue
        for key in sorted(base):
            if wanted and key[2] not in wanted:
                continue
            a, b = base[key], lines[key]
            x, y = (a[3] / a[0], b[3] / b[0]) if args.normalize else (a[3], b[3])
            r = relative(x, y)
            worst = max(worst, r)
            if r > args.rtol:
                failures.append(f"{path}: step {key[0]} spike {key[1]} var {key[2]}: interior_sum "
                                f"{'/ source_total ' if args.normalize else ''}{y!r} vs {x!r} in {base_path} "
                                f"(relative difference {r:.3g} > {args.rtol:g})")
    print(f"{len(results)} runs, largest relative difference {worst:.3g} (tolerance {args.rtol:g})")
    return failures


def expect(args):
    reference = {}
    with open(args.values) as f:
        for text in f:
            fields = text.split()
            if not fields or fields[0].startswith("#"):
                continue
            case, step, spike, var = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
            reference.setdefault(case, {})[(step, spike, var)] = tuple(float(v) for v in fields[4:7])
    failures = []
    for pair in args.cases:
        case, _, path = pair.partition("=")
        if case not in reference:
            failures.append(f"no reference values for case {case}")
            continue
        lines, summary = read_result(path)
        if summary.get("verified") is not True:
            failures.append(f"{path}: conservation not verified")
        worst = 0.0
        for key, (source, flux, interior) in sorted(reference[case].items()):
            if key not in lines:
                failures.append(f"{path}: no report line for step {key[0]} spike {key[1]} var {key[2]}")
                continue
            got = lines[key]
            for name, want, have, tolerance in (("source_total", source, got[0], args.rtol),
                                                ("interior_sum", interior, got[3], args.rtol),
                                                ("flux_out", flux, got[2], 1e-9)):
                r = relative(want, have)
                worst = max(worst, r) if name != "flux_out" else worst
                if r > tolerance:
                    failures.append(f"{path}: step {key[0]} spike {key[1]} var {key[2]}: {name} {have!r}, "
                                    f"reference {want!r} (relative difference {r:.3g} > {tolerance:g})")
        print(f"{case}: {len(reference[case])} reference lines, largest relative difference {worst:.3g}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("agree")
    a.add_argument("--normalize", action="store_true")
    a.add_argument("--vars")
    a.add_argument("--rtol", type=float, default=1e-12)
    a.add_argument("files", nargs="+")
    e = sub.add_parser("expect")
    e.add_argument("--values", required=True)
    e.add_argument("--rtol", type=float, default=1e-11)
    e.add_argument("cases", nargs="+")
    args = parser.parse_args()
    failures = agree(args) if args.command == "agree" else expect(args)
    for failure in failures:
        print("FAIL:", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
