#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Partitioned messages from threads: ghostwire's partitions (Plan::pready / parrived) against MPI-4's
partitioned communication (MPI_Psend_init, MPI_Pready, MPI_Parrived) and one MPI_Isend per partition,
on the same messages, in one job per launch (gw-partitioned-bench). MPICH 4.0 has MPI-4's partitioned
communication, Open MPI 4.1 does not: the default is the MPICH build tree.

    bench/partitioned/run_partitioned_bench.py                      # build-mpich, 2x1 and 2x2, intra and emulated
    bench/partitioned/run_partitioned_bench.py --report results/partitioned-...

Goal (docs/BENCHMARKS.md, "Partitioned messages"): gw at least as fast as mpi-partitioned at every
point, judged on the paired ratio of interleaved repetitions.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_common as common  # noqa: E402
import goals  # noqa: E402

PROGRAM = "run_partitioned_bench"
# name -> (path, threads per rank, ranks per emulated node)
LAUNCHES = {
    "intra-2x1": ("intra", 1, None),
    "intra-2x2": ("intra", 2, None),
    "emulated-2x1": ("emulated", 1, 1),
    "emulated-2x2": ("emulated", 2, 1),
}


def options():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--launches", default=",".join(LAUNCHES), help=f"comma-separated, of {', '.join(LAUNCHES)}")
    parser.add_argument("--sizes", default="64,1K,16K,256K,4M", help="message bytes (K, M allowed)")
    parser.add_argument("--partitions", default="1,4,16", help="partitions per message")
    parser.add_argument("--repeats", type=int, default=9, help="interleaved repetitions per point")
    parser.add_argument("--min-time", type=float, default=0.05, help="seconds per measurement")
    parser.add_argument("--build-dir", default=str(common.ROOT / "build-mpich"), help="build tree (default build-mpich)")
    parser.add_argument("--mpi", default="mpich", choices=["openmpi", "mpich"], help="MPI of the build tree")
    parser.add_argument("--out", help="results folder (default results/partitioned-<timestamp>)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per job")
    parser.add_argument("--report", metavar="DIR", help="only print the table, goals and plot of DIR")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    return parser.parse_args()


def run(opts, out_dir: Path) -> list[str]:
    program = Path(opts.build_dir) / "bench" / "partitioned" / "gw-partitioned-bench"
    if not program.exists() and not opts.dry_run:
        sys.exit(f"{PROGRAM}: {program} does not exist; build it (cmake --build {opts.build_dir} "
                 "--target gw-partitioned-bench)")
    failures = []
    names = [n for n in opts.launches.split(",") if n]
    for name in names:
        if name not in LAUNCHES:
            sys.exit(f"{PROGRAM}: unknown launch {name} (known: {', '.join(LAUNCHES)})")
    with open(out_dir / "partitioned.jsonl", "a") as jsonl, open(out_dir / "partitioned.log", "a") as log:
        for i, name in enumerate(names, 1):
            path, threads, rpn = LAUNCHES[name]
            command = [str(common.LAUNCH), "--mpi", opts.mpi, "--path", path, "-n", "2", "--threads", str(threads),
                       "--timeout", str(opts.timeout)] + (["--rpn", str(rpn)] if rpn else [])
            command += ["--", str(program), "--sizes", opts.sizes, "--partitions", opts.partitions,
                        "--repeats", str(opts.repeats), "--min-time", str(opts.min_time)]
            print(f"[{i}/{len(names)}] {name}", flush=True)
            if opts.dry_run:
                print("   " + " ".join(command))
                continue
            log.write(f"\n== {' '.join(command)}\n")
            result = subprocess.run(command, capture_output=True, text=True)
            log.write(result.stdout + result.stderr)
            records = [r for r in map(common.parse_json_line, result.stdout.splitlines()) if r]
            for record in records:
                record["launch"] = name
            common.append_records(jsonl, records)
            if result.returncode != 0 or "every received partition verified" not in result.stdout:
                failures.append(name)
                print(f"!! {name}: exit status {result.returncode} (see {log.name})", flush=True)
    return failures


def verdicts_of(records: list[dict]) -> list[goals.Verdict]:
    by_point: dict[tuple, dict[str, list[float]]] = {}
    for r in records:
        key = (r["launch"], r["bytes"], r["partitions"])
        by_point.setdefault(key, {})[r["impl"]] = r["us_per_repeat"]
    verdicts = []
    for (launch, size, partitions), impls in sorted(by_point.items()):
        if "gw" not in impls or "mpi-partitioned" not in impls:
            continue
        ratios = [g / m for g, m in zip(impls["gw"], impls["mpi-partitioned"]) if m > 0]
        verdict = goals.judge("partitioned", launch, f"{size} B in {partitions} partition(s): gw / mpi-partitioned",
                              ratios, 1.0, at_least=False)
        if verdict:
            verdicts.append(verdict)
    return verdicts


COLUMNS = ("gw", "gw-separate", "gw-combined", "mpi-partitioned", "mpi-isend")


def summary(records: list[dict]) -> str:
    lines = [f"{'launch':<14} {'bytes':>9} {'parts':>5}  " + " ".join(f"{i:>16}" for i in COLUMNS) + "  gw/mpi-part"]
    points: dict[tuple, dict[str, float]] = {}
    for r in records:
        points.setdefault((r["launch"], r["bytes"], r["partitions"]), {})[r["impl"]] = r["us_per_exchange"]
    for (launch, size, parts), impls in sorted(points.items()):
        cells = " ".join(f"{impls[i]:>13.2f} us" if i in impls else f"{'-':>16}" for i in COLUMNS)
        ratio = f"{impls['gw'] / impls['mpi-partitioned']:.2f}" if "gw" in impls and "mpi-partitioned" in impls else "-"
        lines.append(f"{launch:<14} {size:>9} {parts:>5}  {cells}  {ratio:>11}")
    verdicts = verdicts_of(records)
    lines.append("")
    lines.append("Goal gw / mpi-partitioned <= 1.0 (median of paired repetitions): " + goals.summary_line(verdicts))
    for v in verdicts:
        if v.status != "met":
            lines.append(f"  {v.status}: {v.where}, {v.text} = {v.ratio:.3f} [{v.low:.3f}-{v.high:.3f}]")
    return "\n".join(lines)


def plot(records: list[dict], out_dir: Path):
    plt = common.pyplot()
    if plt is None:
        return None
    launches = sorted({r["launch"] for r in records})
    figure, axes = plt.subplots(1, len(launches), figsize=(5 * len(launches), 4), squeeze=False)
    for axis, launch in zip(axes[0], launches):
        mine = [r for r in records if r["launch"] == launch]
        sizes = sorted({r["bytes"] for r in mine})
        for parts in sorted({r["partitions"] for r in mine}):
            gw = {r["bytes"]: r["us_per_exchange"] for r in mine if r["impl"] == "gw" and r["partitions"] == parts}
            mpi = {r["bytes"]: r["us_per_exchange"] for r in mine
                   if r["impl"] == "mpi-partitioned" and r["partitions"] == parts}
            xs = [s for s in sizes if s in gw and s in mpi]
            if xs:
                axis.plot(xs, [gw[s] / mpi[s] for s in xs], marker="o", label=f"{parts} partition(s)")
        axis.axhline(1.0, color="grey", linewidth=0.8)
        common.finish_axis(axis, sizes, "message bytes", "gw / mpi-partitioned (time)", log_base=2)
        axis.set_title(launch, fontsize=9)
    return common.save_figure(plt, figure, "Partitioned messages: ghostwire vs MPI-4 (MPICH)",
                              out_dir / "partitioned.png")


def report(out_dir: Path) -> None:
    records = common.load_records(out_dir / "partitioned.jsonl", "us_per_repeat")
    common.write_report(PROGRAM, out_dir, "partitioned.jsonl", records, summary, plot)
    goals.write(out_dir / "goals.json", verdicts_of(records))


def main() -> int:
    opts = options()
    if opts.report:
        report(Path(opts.report))
        return 0
    out_dir = common.results_dir(opts, "partitioned")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = common.new_meta(launches=opts.launches, sizes=opts.sizes, partitions=opts.partitions)
    common.announce(PROGRAM, out_dir, meta)
    failures = run(opts, out_dir)
    if opts.dry_run:
        return 0
    return common.conclude(PROGRAM, meta, out_dir, failures, report)


if __name__ == "__main__":
    sys.exit(main())
