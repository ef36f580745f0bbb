#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Topology-aware placement measured: gw-topo-bench (a periodic 3-D stencil exchange, one message per
face, 1 B to 2 MiB) on two emulated hosts over TCP with the launcher's round-robin placement, for
three placements of the same process grid: rank order (the launcher's), ghostwire's hierarchical
placement and Open MPI's treematch. Reports the DASH study's relative improvement factor (rank
order's time / the placement's) per message size and the messages between hosts.

    bench/topo/run_topo_bench.py                       4 and 8 ranks, default and elongated grids
    bench/topo/run_topo_bench.py --jobs 3 --cases 4:3d:1,1,4
    bench/topo/run_topo_bench.py --report DIR          the table and plot of an earlier run again

A case is RANKS:GRID (GRID as gw-topo-bench --grid, or "auto" for MPI_Dims_create's). Every job runs
the three placements interleaved (gw-topo-bench --repeats, best of each); --jobs jobs per case, the
cases taking turns, and the factor reported is the median over the jobs of each job's factor.
Writes results/topo-<timestamp>/ (topo.jsonl, summary.txt, topo.png, meta.json). Only a run on an
otherwise idle machine means anything.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_common import (LAUNCH, ROOT, announce, append_records, conclude, load_records, new_meta,  # noqa: E402
                          parse_json_line, pyplot, results_dir, save_figure, write_report)

DEFAULT_CASES = "4:auto,4:3d:1,1,4,8:auto,8:3d:1,2,4"
PLACEMENTS = ["rank_order", "hierarchical", "treematch"]


def parse_cases(text: str) -> list[tuple[int, str]]:
    cases = []
    for item in split_cases(text):
        ranks, _, grid = item.partition(":")
        if not ranks.isdigit() or int(ranks) < 2 or not grid:
            sys.exit(f"run_topo_bench: case {item!r}: expected RANKS:GRID, e.g. 8:3d:1,2,4 or 4:auto")
        cases.append((int(ranks), grid))
    return cases


def split_cases(text: str) -> list[str]:
    """'4:auto,8:3d:1,2,4' -> ['4:auto', '8:3d:1,2,4']: a new case starts at an item with a colon."""
    cases: list[str] = []
    for part in text.split(","):
        if ":" in part or not cases:
            cases.append(part)
        else:
            cases[-1] += "," + part
    return [c for c in cases if c]


def run_job(opts, ranks: int, grid: str, log) -> list[dict] | None:
    program = Path(opts.build_dir) / "bench" / "gw-topo-bench"
    command = [str(LAUNCH), "--path", "multihost", "--timeout", str(opts.timeout), "-n", str(ranks), "--",
               str(program), "--sizes", opts.sizes, "--iterations", str(opts.iterations), "--repeats",
               str(opts.repeats)]
    if grid != "auto":
        command += ["--grid", grid]
    env = dict(os.environ, OMPI_MCA_rmaps_base_mapping_policy="node", OMPI_MCA_topo="treematch,basic",
               GHOSTWIRE_MULTIHOST_BTL=opts.btl)
    log.write(f"\n== {' '.join(command)}\n")
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    log.write(result.stdout + result.stderr)
    log.flush()
    records = [r for r in map(parse_json_line, result.stdout.splitlines()) if r and r.get("bench") == "topo_stencil"]
    if result.returncode != 0 or not records:
        print(f"!! {ranks} ranks, grid {grid}: exit status {result.returncode} (see {log.name})", flush=True)
        return None
    for r in records:
        r["grid"] = grid
    return records


def summary(records: list[dict]) -> str:
    lines = ["Topology: 3-D stencil exchange on 2 emulated hosts (TCP), ranks round robin; factor = rank order's "
             "time / the placement's (median over jobs), > 1 means the placement is faster"]
    for ranks, grid in sorted({(r["ranks"], r["grid"]) for r in records}):
        rows = [r for r in records if r["ranks"] == ranks and r["grid"] == grid]
        jobs = len({r["job"] for r in rows})
        lines += ["", f"{ranks} ranks, grid {grid} ({jobs} jobs); messages between hosts per exchange: " + ", ".join(
            f"{p} {rows_of(rows, p)[0]['internode_messages']}" for p in PLACEMENTS if rows_of(rows, p))]
        lines.append(f"{'bytes':>9} " + "".join(f"{p + ' us':>17}" for p in PLACEMENTS) +
                     "".join(f"{p + ' factor':>21}" for p in PLACEMENTS[1:]))
        for size in sorted({r["bytes"] for r in rows}):
            at = [r for r in rows if r["bytes"] == size]
            times = [median_of(at, p, "time_s") for p in PLACEMENTS]
            factors = [median_of(at, p, "improvement_factor") for p in PLACEMENTS[1:]]
            lines.append(f"{size:>9} " + "".join(f"{t * 1e6:>17.2f}" if t else f"{'-':>17}" for t in times) +
                         "".join(f"{f:>21.3f}" if f else f"{'-':>21}" for f in factors))
    return "\n".join(lines)


def rows_of(rows: list[dict], placement: str) -> list[dict]:
    return [r for r in rows if r["placement"] == placement]


def median_of(rows: list[dict], placement: str, key: str) -> float | None:
    values = [r[key] for r in rows_of(rows, placement)]
    return statistics.median(values) if values else None


def plot(records: list[dict], out_dir: Path) -> Path | None:
    plt = pyplot()
    if plt is None or not records:
        return None
    figure, axis = plt.subplots(figsize=(7.5, 4.5))
    for n, (ranks, grid) in enumerate(sorted({(r["ranks"], r["grid"]) for r in records})):
        rows = [r for r in records if r["ranks"] == ranks and r["grid"] == grid]
        sizes = sorted({r["bytes"] for r in rows})
        for placement, style in (("hierarchical", "-"), ("treematch", ":")):
            factors = [median_of([r for r in rows if r["bytes"] == s], placement, "improvement_factor") for s in sizes]
            axis.plot(sizes, factors, marker="o", markersize=3, linestyle=style, color=f"C{n}",
                      label=f"{placement}, {ranks} ranks, grid {grid}")
    axis.axhline(1.0, color="grey", linewidth=0.8)
    axis.set_xscale("log", base=2)
    axis.set_xlabel("bytes per face message")
    axis.set_ylabel("improvement factor vs rank order")
    axis.legend(fontsize=7)
    axis.grid(True, which="both", alpha=0.3)
    return save_figure(plt, figure, "3-D stencil exchange on 2 hosts: placement vs the launcher's rank order",
                       out_dir / "topo.png")


def report(out_dir: Path) -> str:
    return write_report("run_topo_bench", out_dir, "topo.jsonl", load_records(out_dir / "topo.jsonl", "time_s"),
                        summary, plot)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default=DEFAULT_CASES, help=f"RANKS:GRID list (default {DEFAULT_CASES})")
    parser.add_argument("--jobs", type=int, default=3, help="jobs per case (the cases take turns)")
    parser.add_argument("--sizes", default="1,8,64,512,4K,32K,256K,2M", help="face message sizes")
    parser.add_argument("--iterations", type=int, default=50, help="exchanges per timing")
    parser.add_argument("--repeats", type=int, default=5, help="timings per placement in a job (best taken)")
    parser.add_argument("--btl", default="self,vader,tcp",
                        help="Open MPI's transports (default self,vader,tcp: shared memory inside a host, TCP "
                             "between hosts, as on a cluster; self,tcp sends every message over TCP)")
    parser.add_argument("--build-dir", default=str(ROOT / "build"), help="build tree (default: build/)")
    parser.add_argument("--out", help="results folder (default: results/topo-<timestamp>)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per job")
    parser.add_argument("--report", metavar="DIR", help="only print the table and draw the plot of DIR")
    opts = parser.parse_args()
    if opts.report:
        return 0 if report(Path(opts.report)) else 1
    if opts.jobs < 1 or opts.iterations < 1 or opts.repeats < 1:
        sys.exit("run_topo_bench: --jobs, --iterations and --repeats must be at least 1")
    cases = parse_cases(opts.cases)
    if not (Path(opts.build_dir) / "bench" / "gw-topo-bench").exists():
        sys.exit(f"run_topo_bench: {opts.build_dir}/bench/gw-topo-bench does not exist; build it first "
                 f"(cmake --build {opts.build_dir} --target gw-topo-bench)")
    out_dir = results_dir(opts, "topo")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = new_meta(cases=opts.cases, jobs=opts.jobs, sizes=opts.sizes, iterations=opts.iterations,
                    repeats=opts.repeats, btl=opts.btl)
    announce("run_topo_bench", out_dir, meta)
    failures = []
    with open(out_dir / "topo.jsonl", "a") as jsonl, open(out_dir / "topo.log", "a") as log:
        for job in range(opts.jobs):
            for ranks, grid in cases:
                records = run_job(opts, ranks, grid, log)
                if records is None:
                    failures.append(f"{ranks}:{grid} job {job}")
                    continue
                for r in records:
                    r["job"] = job
                append_records(jsonl, records)
                big = [r for r in records if r["bytes"] == max(x["bytes"] for x in records)]
                print(f"[job {job + 1}/{opts.jobs}] {ranks} ranks, grid {grid}: factor at {big[0]['bytes']} B " +
                      ", ".join(f"{r['placement']} {r['improvement_factor']:.2f}" for r in big), flush=True)
    return conclude("run_topo_bench", meta, out_dir, failures, report)


if __name__ == "__main__":
    sys.exit(main())
