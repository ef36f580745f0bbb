#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One message per pair of nodes (docs/plans.md, "One message per pair of nodes"), measured in one
run: gw-bench halo on 2-D and 3-D 7- and 27-point grids, ghostwire with its inter-node messages
combined per pair of nodes (gw-node) and each its own (gw-off) next to the four MPI styles, on
emulated nodes of 2 and 4 ranks (4 and 8 ranks) and on 2 hosts x 2 ranks (Open MPI only). The
table, the goal verdicts and a plot of gw-node / gw-off against the message size.

Goals (medians of paired repetitions): inter-node messages per exchange equal to the number of
neighbouring node pairs; gw-node at most 0.8x gw-off for messages up to 4 KiB between hosts and
never above 1.05x anywhere; gw-node at most 0.8x the best MPI style between hosts for messages up
to 4 KiB. The same goals are judged for the default mode (gw, auto) against gw-off.

  bench/aggregation/run_aggregation_bench.py            # everything (about 10 minutes)
  bench/aggregation/run_aggregation_bench.py --quick    # two cases, short runs: a smoke run
  bench/aggregation/run_aggregation_bench.py --report DIR
"""
from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_common as common  # noqa: E402
import goals  # noqa: E402

PROGRAM = "run_aggregation_bench"
# name -> (scripts/launch path, ranks, ranks per emulated node)
LAUNCHES = {
    "emulated-4x2": ("emulated", 4, 2),
    "emulated-8x2": ("emulated", 8, 2),
    "emulated-8x4": ("emulated", 8, 4),
    "multihost-4": ("multihost", 4, None),
}
MPI_IMPLS = ["mpi-isend", "mpi-persistent", "mpi-alltoallw", "mpi-put"]
IMPLS = ["gw-node", "gw-off", "gw"] + MPI_IMPLS
CASES = "2d-256-h1,2d-1024-h1,2d-4096-h1,3d-16-7pt,3d-32-7pt,3d-64-7pt,3d-16-27pt,3d-32-27pt,3d-64-27pt"
SMALL = 4096  # the goals' "messages up to 4 KiB"


def node_pairs(case: str, ranks: int, rpn: int) -> tuple[int, int]:
    """(ordered pairs of neighbouring nodes, ordered pairs of neighbouring ranks on different
    nodes) of a grid case: row-major ranks over MPI_Dims_create's grid, non-periodic, faces only
    for 2-D and 7-point, with edges and corners for 27-point."""
    dimensions = 2 if case.startswith("2d") else 3
    dims = common.dims_create(ranks, dimensions)
    coords = list(itertools.product(*[range(d) for d in dims]))  # row-major: rank r is coords[r]
    diagonal = case.endswith("27pt")
    node_links, rank_links = set(), 0
    for a, ca in enumerate(coords):
        for b, cb in enumerate(coords):
            steps = [abs(x - y) for x, y in zip(ca, cb)]
            if a == b or max(steps) > 1 or (not diagonal and sum(steps) != 1):
                continue
            if a // rpn != b // rpn:
                node_links.add((a // rpn, b // rpn))
                rank_links += 1
    return len(node_links), rank_links


def run(opts, out_dir: Path, log, failures: list[str]) -> None:
    program = Path(opts.build_dir) / "bench" / "gw-bench"
    with open(out_dir / "aggregation.jsonl", "a") as jsonl:
        for launch in opts.launches:
            path, ranks, rpn = LAUNCHES[launch]
            command = [str(common.LAUNCH), "--mpi", opts.mpi, "--path", path, "-n", str(ranks), "--timeout",
                       str(opts.timeout)] + (["--rpn", str(rpn)] if rpn else [])
            command += ["--", str(program), "halo", "--cases", opts.cases, "--impl", ",".join(IMPLS), "--min-time",
                        str(opts.seconds), "--repeats", str(opts.repeats), "--format", "json"]
            print(f"== {launch}", flush=True)
            done = common.run_logged(command, log, opts.dry_run)
            if done is None:
                continue
            records = [r for r in map(common.parse_json_line, done.stdout.splitlines()) if r and r.get("bench") == "halo"]
            if done.returncode != 0 or not records:
                failures.append(launch)
                print(f"!! {launch}: failed (see {log.name})", flush=True)
                continue
            for record in records:
                record["launch"] = launch
            common.append_records(jsonl, records)


def by_point(records: list[dict]) -> dict[tuple, dict[str, dict]]:
    table: dict[tuple, dict[str, dict]] = {}
    for r in records:
        table.setdefault((r["launch"], r["case"]), {})[r["impl"]] = r
    return table


def per_repeat(record: dict) -> dict[int, float]:
    return dict(enumerate(record["usec_per_repeat"]))


def best_mpi(impls: dict[str, dict]) -> dict[int, float]:
    """The fastest MPI style in each repetition."""
    mine = [per_repeat(impls[i]) for i in MPI_IMPLS if i in impls]
    return {k: min(m[k] for m in mine) for k in mine[0]} if mine else {}


def message_bytes(record: dict) -> float:
    return record["bytes_per_exchange"] / max(1, record["messages"])


# The forced mode shows what combining costs and saves; the default (auto) is what users get.
JUDGED = (("gw-node", "gw-node"), ("gw", "gw (auto)"))


def verdicts(records: list[dict]) -> list[goals.Verdict]:
    found = []
    for (launch, case), impls in sorted(by_point(records).items()):
        if "gw-off" not in impls:
            continue
        off = per_repeat(impls["gw-off"])
        where = f"{launch}, {case} ({message_bytes(impls['gw-off']):.0f} B per message)"
        between_hosts = LAUNCHES[launch][0] == "multihost"
        small = message_bytes(impls["gw-off"]) <= SMALL
        mpi = best_mpi(impls)
        for impl, name in JUDGED:
            if impl not in impls:
                continue
            mine = per_repeat(impls[impl])
            if between_hosts and small:
                found.append(goals.judge("aggregation", where, f"{name} / gw-off time", goals.paired_ratios(mine, off),
                                         0.8, False, headline=True))
                if mpi:
                    found.append(goals.judge("aggregation", where, f"{name} / best MPI style time",
                                             goals.paired_ratios(mine, mpi), 0.8, False, headline=True))
            else:
                found.append(goals.judge("aggregation", where, f"{name} / gw-off time (never above 1.05)",
                                         goals.paired_ratios(mine, off), 1.05, False))
    return [v for v in found if v]


def message_counts(records: list[dict]) -> list[str]:
    """Per launch and case: gw-node's inter-node messages per exchange (all ranks) against the
    neighbouring node pairs, and gw-off's against the neighbouring rank pairs across nodes."""
    lines, wrong = [], 0
    for (launch, case), impls in sorted(by_point(records).items()):
        path, ranks, rpn = LAUNCHES[launch]
        rpn = rpn or ranks // 2
        pairs, rank_pairs = node_pairs(case, ranks, rpn)
        got = {i: sum(impls[i]["internode_messages"] or []) for i in ("gw-node", "gw-off") if i in impls}
        ok = got.get("gw-node") == pairs and got.get("gw-off") == rank_pairs
        wrong += not ok
        lines.append(f"{launch:<13} {case:<12} gw-node {got.get('gw-node', '-'):>4} (node pairs {pairs:>3})   "
                     f"gw-off {got.get('gw-off', '-'):>4} (rank pairs across nodes {rank_pairs:>3})  {'ok' if ok else 'WRONG'}")
    head = ["inter-node messages per exchange, all ranks: " + ("every count as expected" if not wrong else
                                                                f"{wrong} count(s) WRONG")]
    return head + lines


def median_ratio(mine: dict[int, float] | None, other: dict[int, float] | None) -> str:
    paired = goals.paired_ratios(mine, other) if mine and other else []
    return f"{statistics.median(paired):>9.3f}" if paired else f"{'-':>9}"


def summary(records: list[dict]) -> str:
    shown = [i for i in IMPLS if any(r["impl"] == i for r in records)]
    head = (f"{'launch':<13} {'case':<12} {'B/msg':>7}  " + "".join(f"{i:>15}" for i in shown) +
            "  node/off  node/mpi  auto/off")
    lines = ["median usec per exchange (slowest rank); node/off, node/mpi and auto/off: medians of paired "
             "repetitions (mpi: the fastest MPI style in each; auto: gw, the default mode)", head]
    for (launch, case), impls in sorted(by_point(records).items()):
        cells = "".join(f"{impls[i]['usec']:>15.1f}" if i in impls else f"{'-':>15}" for i in shown)
        times = {i: per_repeat(r) for i, r in impls.items()}
        mpi = best_mpi(impls)
        # A '-' where a run restricted with --impl lacks a side, so the columns stay under their heads.
        ratios = [median_ratio(times.get("gw-node"), times.get("gw-off")), median_ratio(times.get("gw-node"), mpi),
                  median_ratio(times.get("gw"), times.get("gw-off"))]
        first = next(iter(impls.values()))
        lines.append(f"{launch:<13} {case:<12} {message_bytes(first):>7.0f}  {cells} {' '.join(ratios)}")
    found = verdicts(records)
    lines += [""] + message_counts(records)
    lines += ["", "Goals (medians of paired repetitions): " + goals.summary_line(found)]
    lines += [v.line() for v in found]
    return "\n".join(lines)


def plot(records: list[dict], out_dir: Path):
    plt = common.pyplot()
    if plt is None:
        return None
    figure, axis = plt.subplots(figsize=(8, 4.5))
    for launch in [name for name in LAUNCHES if any(r["launch"] == name for r in records)]:
        points = []
        for (where, case), impls in by_point(records).items():
            if where == launch and "gw-node" in impls and "gw-off" in impls:
                paired = goals.paired_ratios(per_repeat(impls["gw-node"]), per_repeat(impls["gw-off"]))
                if paired:
                    points.append((message_bytes(impls["gw-node"]), statistics.median(paired)))
        points.sort()
        axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", linestyle="", label=launch)
    axis.axhline(1.0, color="grey", linewidth=0.8)
    axis.axhline(0.8, color="grey", linewidth=0.8, linestyle="--")
    axis.set_xscale("log", base=2)
    axis.set_xlabel("mean bytes per message")
    axis.set_ylabel("gw-node / gw-off time")
    axis.grid(True, which="both", alpha=0.3)
    axis.legend(fontsize=8)
    return common.save_figure(plt, figure, "one message per pair of nodes: combined / separate", out_dir / "aggregation.png")


def report(out_dir: Path) -> None:
    records = common.load_records(out_dir / "aggregation.jsonl", "usec_per_repeat")
    common.write_report(PROGRAM, out_dir, "aggregation.jsonl", records, summary, plot)
    goals.write(out_dir / "goals.json", verdicts(records))


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common.add_driver_options(parser, "aggregation", repeats=11, seconds=0.1,
                              seconds_help="gw-bench halo --min-time per repetition", timeout=1800,
                              timeout_help="seconds per job")
    parser.add_argument("--launches", default=",".join(LAUNCHES), help="of " + ", ".join(LAUNCHES))
    parser.add_argument("--cases", default=CASES, help="gw-bench halo cases (grids only)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: two cases, 3 short repetitions")
    opts = parser.parse_args()
    opts.launches = common.chosen_launches(PROGRAM, opts.launches, LAUNCHES, opts.mpi)
    if opts.quick:
        opts.cases, opts.repeats, opts.seconds = "2d-256-h1,3d-16-27pt", 3, 0.01
    return opts


def main() -> int:
    opts = options()
    if opts.report:
        report(Path(opts.report))
        return 0
    program = Path(opts.build_dir) / "bench" / "gw-bench"
    if not program.exists() and not opts.dry_run:
        sys.exit(f"{PROGRAM}: {program} is not built (cmake --build {opts.build_dir} --target gw-bench)")
    out_dir = common.results_dir(opts, "aggregation")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = common.new_meta(launches=opts.launches, repeats=opts.repeats, cases=opts.cases, seconds=opts.seconds)
    common.announce(PROGRAM, out_dir, meta)
    failures: list[str] = []
    with open(out_dir / "log.txt", "w") as log:
        run(opts, out_dir, log, failures)
    if opts.dry_run:
        return 0
    return common.conclude(PROGRAM, meta, out_dir, failures, report)


if __name__ == "__main__":
    sys.exit(main())
