#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Heat benchmark matrix: every gw-heat variant on grids 1024^2 and 2048^2 with tiles
8, 16, 32, 64 and 128, on 2 and 4 ranks in one node and on 2 ranks as emulated nodes and as two
hosts. Each point is the median of several runs (5 by default), each about a second long: gw-heat
chooses the timesteps per configuration (--seconds) after calibration runs.

    bench/heat/run_heat_bench.py                     the whole matrix (about an hour on 2 cores)
    bench/heat/run_heat_bench.py --quick             a smoke test: small grid, 2 tiles, 1 run each
    bench/heat/run_heat_bench.py --launches intra-2 --grids 1024
    bench/heat/run_heat_bench.py --report DIR        the table and plot of an earlier run again
    bench/heat/run_heat_bench.py --hybrid            the hybrid MPI + OpenMP matrix (heat_hybrid.py):
                                                     ranks x threads 2x1, 1x2, 2x2 in a node and 2x1 across
                                                     hosts, 2048^2, tiles 8-128, and the flat variants on
                                                     the same cores (about 12 minutes)
    bench/heat/run_heat_bench.py --hybrid --quick    its smoke test (512^2, 2 tiles, 1 short run each)

Writes to results/heat-<timestamp>/ (results/heat-hybrid-<timestamp>/ with --hybrid; or --out):
heat.jsonl (one JSON line per run, from gw-heat, with the launch added), one log per launch,
summary.txt (Mupdates/s per point and the ratios gw-pipelined / best MPI variant and gw-pipelined /
commfree, or with --hybrid gw-omp-tasks / best MPI hybrid and best hybrid / best flat, checked
against the goals), goals.json,
heat.png (Mupdates/s against the tile size, a line per variant, a panel per launch and grid) and
meta.json (machine, load, command).

Timings mean something only on an otherwise idle machine: the load average is recorded and a
busy machine is reported.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import (JOB_OVERHEAD, LAUNCH, Budget, add_driver_options, announce,  # noqa: E402
                          chosen_launches, finish_axis, finish_meta, load_records, new_meta, parse_json_line, pyplot,
                          results_dir, save_figure, skipped_goals, stream_job, write_report)
from bench_common import APP_LAUNCHES as LAUNCHES  # noqa: E402
import goals  # noqa: E402
import heat_hybrid  # noqa: E402

DEFAULT_LAUNCHES = ["intra-2", "intra-4", "emulated-2", "multihost-2"]
MPI_VARIANTS = ["mpi-blocking", "mpi-nbuffer", "mpi-nbuffer-transposed"]
VARIANT_ORDER = MPI_VARIANTS + ["gw-wavefront", "gw-pipelined", "commfree-rows", "commfree", "seq"]
# The variants of issue 4's matrix: every variant without threads. Not gw-heat's 'all', which also
# runs the hybrid ones, and under MPI_THREAD_MULTIPLE (heat_hybrid.py measures those).
FLAT_VARIANTS = ",".join(VARIANT_ORDER[:-1])
SHORT = {"mpi-blocking": "blocking", "mpi-nbuffer": "nbuffer", "mpi-nbuffer-transposed": "nb-transp",
         "gw-wavefront": "gw-wavefr", "gw-pipelined": "gw-pipel", "commfree": "commfree",
         "commfree-rows": "cf-rows"}
# Issue 4: gw-pipelined at least as fast as the best MPI variant at every tile size, and within 5%
# of commfree from 16x16 up, within 10% at 8x8 (2 ranks, one node).
GOAL_LAUNCH = "intra-2"


def goal_versus_commfree(tile: int) -> float:
    return 0.90 if tile <= 8 else 0.95


# ---------------------------------------------------------------- running

def launch_plan(name: str, opts) -> tuple[str, int, int | None, int, str]:
    """(path, ranks, ranks per emulated node, threads per rank, gw-heat --variant) of a launch."""
    if opts.hybrid:
        path, ranks, rpn, threads, variants = heat_hybrid.LAUNCHES[name]
        return path, ranks, rpn, threads, ",".join(variants)
    path, ranks, rpn = LAUNCHES[name]
    return path, ranks, rpn, 1, opts.variants


# The model of a job's length, for the time budget: gw-heat calibrates each configuration (variant
# x tile) to --seconds a run, its calibration probes grow to min(0.1, seconds / 4) (about 1.5 times
# that in all), and a run's set-up (band, initial field, barriers) adds a few ms.
RUN_SETUP = 0.005


def job_model(name: str, opts) -> tuple[float, float]:
    """(seconds per round, seconds of overhead) of a job of `name`: a round is one run of every
    configuration (gw-heat --repeat runs them round by round)."""
    configs = len([t for t in opts.tiles.split(",") if t]) * len(launch_plan(name, opts)[4].split(","))
    return configs * (opts.seconds + RUN_SETUP), JOB_OVERHEAD + configs * 1.5 * min(0.1, opts.seconds / 4)


class RoundWatch:
    """Follows a gw-heat job's runs as they stream: runs of one round are buffered until the round
    is complete (a round is every configuration once, back to back: the pairs the goals use), then
    written. At each round's end, from the `keep`-th on, it says whether the next round still fits
    in `allowed` seconds from the job's start (by the rounds measured so far); if not, the job is
    ended there, keeping its pairs whole."""

    def __init__(self, configs: int, allowed: float, keep: int = 1, clock=time.monotonic):
        self.configs, self.allowed, self.keep, self.clock = configs, allowed, keep, clock
        self.start = clock()
        self.first_run_at = None    # when round 1's first run ended
        self.round_ends: list[float] = []
        self.pending: list[dict] = []
        self.stopped = False

    def complete_rounds(self) -> int:
        return len(self.round_ends)

    def add(self, record: dict) -> tuple[list[dict], bool]:
        """(records of a round now complete, to write; whether to end the job now)."""
        if self.stopped:
            return [], False
        now = self.clock()
        if self.first_run_at is None:
            self.first_run_at = now
        self.pending.append(record)
        if len(self.pending) < self.configs:
            return [], False
        done, self.pending = self.pending, []
        self.round_ends.append(now)
        self.stopped = len(self.round_ends) >= self.keep and now - self.start + self.round_seconds() > self.allowed
        return done, self.stopped

    def round_seconds(self) -> float:
        """A round's length, from the rounds so far (round 1 from its first run's end on, which
        leaves out the calibration before it)."""
        if len(self.round_ends) >= 2:
            return (self.round_ends[-1] - self.round_ends[0]) / (len(self.round_ends) - 1)
        if self.configs > 1:
            return (self.round_ends[0] - self.first_run_at) * self.configs / (self.configs - 1)
        return self.round_ends[0] - self.start


def run_launch(name: str, grid: int, opts, out_dir: Path, jsonl, budget: Budget, rest: float) -> bool:
    """One gw-heat job: every variant and tile at `grid`, --repeat rounds; within the time budget
    (`rest`: the expected seconds of the jobs after it)."""
    path, ranks, rpn, threads, variants = launch_plan(name, opts)
    per_round, overhead = job_model(name, opts)
    # The goal launch's runs are its goals' pairs: at least goals.MIN_PAIRS of them where it can.
    keep = min(goals.MIN_PAIRS, opts.repeats) if name == GOAL_LAUNCH else 1
    rounds, allowed = budget.plan(opts.repeats, per_round, overhead, rest, key=(name, grid), keep=keep)
    # Before any job has run only the model knows the pace: the first job starts with every round,
    # and the rounds it measures decide where it ends (RoundWatch).
    if budget.expected_done == 0 and rounds:
        rounds = opts.repeats
    where = f"heat {name} {grid}x{grid}"
    if rounds == 0:
        budget.skip(f"{name} {grid}x{grid}", goals="the goals (every tile size)" if name == GOAL_LAUNCH else "",
                    goal_where=f"{name}, {grid}^2")
        return True
    program = Path(opts.build_dir) / "apps" / "heat" / "gw-heat"
    command = [str(LAUNCH), "--mpi", opts.mpi, "--path", path, "-n", str(ranks), "--timeout", str(opts.timeout)]
    if rpn:
        command += ["--rpn", str(rpn)]
    if opts.hybrid:
        command += ["--threads", str(threads)]
    command += ["--", str(program), "--variant", variants, "-s", str(grid), "-b", opts.tiles,
                "--repeat", str(rounds), "--seconds", str(opts.seconds)]
    if opts.hybrid:
        command += ["--threads", str(threads)]
    passive = " (OMP_WAIT_POLICY=passive)" if threads > 1 and ranks * threads > (os.cpu_count() or 1) else ""
    print(f"\n== {where}{passive}: {shlex.join(command)}", flush=True)
    if opts.dry_run:
        return True
    # libgomp's idle threads and barriers spin before they sleep; with more threads than cores the
    # thread they wait for may need that core (scripts/launch makes MPI yield, not OpenMP).
    env = dict(os.environ)
    if threads > 1 and ranks * threads > (os.cpu_count() or 1):
        env.setdefault("OMP_WAIT_POLICY", "passive")
    configs = len([t for t in opts.tiles.split(",") if t]) * len(variants.split(","))
    watch = RoundWatch(configs, allowed, keep)

    def write(records: list[dict]) -> None:
        for record in records:
            record.update(launch=name, path=path, runs_asked=opts.repeats)
            jsonl.write(json.dumps(record, separators=(",", ":")) + "\n")
        jsonl.flush()

    with open(out_dir / f"heat-{name}-{grid}.log", "w") as log:
        def on_line(line: str) -> bool:
            log.write(line)
            record = parse_json_line(line)
            if record is None:
                print(line, end="", flush=True)
                return False
            if record.get("statistic"):  # gw-heat's own medians: recomputed from the runs
                return False
            done, stop = watch.add(record)
            write(done)
            return stop
        # The job never outlives the driver's budget: ended there even in the middle of a round.
        status, ended = stream_job(command, on_line, deadline=watch.start + budget.left(), env=env)
    complete = watch.complete_rounds()
    budget.done(overhead + complete * per_round, time.monotonic() - watch.start, key=(name, grid))
    if ended:
        if complete < opts.repeats:  # ended after its last round (while it printed its medians): nothing cut
            budget.cut(f"{name} {grid}x{grid}", complete, opts.repeats, "runs per point")
        if complete == 0:
            print(f"!! {where}: ended by the time budget before its first round was complete", flush=True)
        return True
    write(watch.pending)  # a failed job's last, incomplete round: its runs are still measurements
    if status == 0 and complete < opts.repeats:  # planned fewer rounds for the time left
        budget.cut(f"{name} {grid}x{grid}", complete, opts.repeats, "runs per point")
    if status != 0:
        print(f"!! {where} failed with exit status {status}", flush=True)
    return status == 0


# ---------------------------------------------------------------- reporting

def load(out_dir: Path) -> list[dict]:
    return load_records(out_dir / "heat.jsonl", "run")


def medians(records: list[dict]) -> dict[tuple, dict]:
    """(launch, grid, tile, variant) -> {mupdates_per_s: median, runs: n, spread: (min, max)}"""
    groups: dict[tuple, list[float]] = {}
    for r in records:
        key = (r["launch"], r["rows"], r["bx"], r["variant"])
        groups.setdefault(key, []).append(r["mupdates_per_s"])
    return {key: {"median": statistics.median(values), "runs": len(values), "min": min(values), "max": max(values)}
            for key, values in groups.items()}


def per_run(records: list[dict]) -> dict[tuple, dict[int, float]]:
    """(launch, grid, tile, variant) -> {run: Mupdates/s}: gw-heat runs every variant of a point
    within each round (--repeat), so runs with the same number ran back to back."""
    rounds: dict[tuple, dict[int, float]] = {}
    for r in records:
        if "run" in r:
            rounds.setdefault((r["launch"], r["rows"], r["bx"], r["variant"]), {})[r["run"]] = r["mupdates_per_s"]
    return rounds


def round_ratios(rounds: dict, launch: str, grid: int, tile: int, a: str, b: str) -> list[float]:
    """a / b in Mupdates/s for every run number both have (they ran moments apart)."""
    return goals.paired_ratios(rounds.get((launch, grid, tile, a), {}), rounds.get((launch, grid, tile, b), {}))


def ordered(values, order):
    return [v for v in order if v in values] + sorted(v for v in values if v not in order)


def best_mpi(points: dict, launch: str, grid: int, tile: int) -> tuple[str, float] | None:
    candidates = [(points[(launch, grid, tile, v)]["median"], v) for v in MPI_VARIANTS
                  if (launch, grid, tile, v) in points]
    if not candidates:
        return None
    value, name = max(candidates)
    return name, value


def runs_asked(records: list[dict], launch: str, grid: int) -> int | None:
    """The runs per point the run asked for (runs_asked, written by this driver; else gw-heat's own
    --repeat), for the goals' count of pairs."""
    asked = [r.get("runs_asked", r.get("runs")) for r in records if r["launch"] == launch and r["rows"] == grid]
    asked = [a for a in asked if a]
    return max(asked) if asked else None


def verdicts(records: list[dict], skipped: list[tuple[str, str]] = ()) -> list[goals.Verdict]:
    """The goals on the goal launch, judged by the per-run ratios (Mupdates/s, so higher is
    better): gw-pipelined against the best MPI variant (by median) and against commfree, whose floor
    is commfree-rows (the boundary rows read in place, nothing else: the data movement any correct
    variant needs). `skipped`: (where, goals) of jobs the time budget left out, not measured."""
    points = medians(records)
    rounds = per_run(records)
    found = []
    for grid in sorted({k[1] for k in points if k[0] == GOAL_LAUNCH}):
        planned = runs_asked(records, GOAL_LAUNCH, grid)
        for tile in sorted({k[2] for k in points if k[0] == GOAL_LAUNCH and k[1] == grid}):
            where = f"{GOAL_LAUNCH}, {grid}^2, {tile}x{tile}"
            best = best_mpi(points, GOAL_LAUNCH, grid, tile)
            if best and (GOAL_LAUNCH, grid, tile, "gw-pipelined") in points:
                found.append(goals.judge(
                    "heat", where, f"gw-pipelined / best MPI ({best[0]})",
                    round_ratios(rounds, GOAL_LAUNCH, grid, tile, "gw-pipelined", best[0]), 1.0, at_least=True,
                    unit="paired runs", headline=tile == 8 and grid == 1024, planned=planned))
            if (GOAL_LAUNCH, grid, tile, "commfree") in points:
                found.append(goals.judge(
                    "heat", where, "gw-pipelined / commfree",
                    round_ratios(rounds, GOAL_LAUNCH, grid, tile, "gw-pipelined", "commfree"),
                    goal_versus_commfree(tile), at_least=True, unit="paired runs",
                    floor_text="commfree-rows / commfree",
                    floor_ratios=round_ratios(rounds, GOAL_LAUNCH, grid, tile, "commfree-rows", "commfree"),
                    versus_floor=round_ratios(rounds, GOAL_LAUNCH, grid, tile, "gw-pipelined", "commfree-rows"),
                    planned=planned))
    found += goals.not_measured_where_skipped("heat", skipped, found, at_least=True, unit="paired runs")
    return [v for v in found if v]


def summary(records: list[dict], skipped: list[tuple[str, str]] = ()) -> str:
    points = medians(records)
    launches = ordered({k[0] for k in points}, list(LAUNCHES))
    lines = ["Heat benchmark: Mupdates/s, median of the runs per point (higher is better)"]
    for launch in launches:
        for grid in sorted({k[1] for k in points if k[0] == launch}):
            keys = [k for k in points if k[0] == launch and k[1] == grid]
            tiles = sorted({k[2] for k in keys})
            variants = ordered({k[3] for k in keys}, VARIANT_ORDER)
            runs = sorted({points[k]["runs"] for k in keys})
            lines.append("")
            lines.append(f"{launch}, {grid} x {grid} (runs per point: {', '.join(map(str, runs))})")
            lines.append(f"{'variant':<24}" + "".join(f"{str(t) + 'x' + str(t):>10}" for t in tiles))
            for variant in variants:
                cells = []
                for tile in tiles:
                    point = points.get((launch, grid, tile, variant))
                    cells.append(f"{point['median']:>10.1f}" if point else f"{'-':>10}")
                lines.append(f"{variant:<24}" + "".join(cells))

            def ratio_row(title: str, top: str, bottom) -> None:
                row = []
                for tile in tiles:
                    ratio = goals.plain_ratio((points.get((launch, grid, tile, top)) or {}).get("median"), bottom(tile))
                    row.append(f"{ratio:>10.2f}" if ratio else f"{'-':>10}")
                if any(cell.strip() != "-" for cell in row):
                    lines.append(f"{title:<24}" + "".join(row))

            def median_of(variant):
                return lambda tile: (points.get((launch, grid, tile, variant)) or {}).get("median")

            lines.append(f"{'best MPI variant':<24}" + "".join(
                f"{SHORT.get(b[0], b[0]) if (b := best_mpi(points, launch, grid, t)) else '-':>10}" for t in tiles))
            ratio_row("gw-pipelined / best MPI", "gw-pipelined",
                      lambda tile: (best_mpi(points, launch, grid, tile) or (None, None))[1])
            ratio_row("gw-pipelined / commfree", "gw-pipelined", median_of("commfree"))
            ratio_row("gw-pipel / commfree-rows", "gw-pipelined", median_of("commfree-rows"))
            ratio_row("commfree-rows / commfree", "commfree-rows", median_of("commfree"))
    found = verdicts(records, skipped)
    if found:
        lines += ["", f"Goals ({GOAL_LAUNCH}; ratios of Mupdates/s, the median over the runs of "
                  f"each run's ratio, with its ~95% interval): {goals.summary_line(found)}"]
        lines += [v.line() for v in found]
    return "\n".join(lines)


def plot(records: list[dict], out_dir: Path) -> Path | None:
    plt = pyplot()
    if plt is None:
        return None
    points = medians(records)
    if not points:
        return None
    launches = ordered({k[0] for k in points}, list(LAUNCHES))
    grids = sorted({k[1] for k in points})
    variants = ordered({k[3] for k in points}, VARIANT_ORDER)
    colors = {v: f"C{i}" for i, v in enumerate(variants)}
    styles = {v: ("--" if v.startswith("commfree") else ":" if v.startswith("mpi") else "-") for v in variants}
    figure, axes = plt.subplots(len(launches), len(grids), figsize=(5.4 * len(grids), 3.9 * len(launches)),
                                squeeze=False)
    for row, launch in enumerate(launches):
        for col, grid in enumerate(grids):
            axis = axes[row][col]
            for variant in variants:
                xy = sorted((k[2], p["median"]) for k, p in points.items()
                            if k[0] == launch and k[1] == grid and k[3] == variant)
                if xy:
                    axis.plot([x for x, _ in xy], [y for _, y in xy], marker="o", markersize=3, label=variant,
                              color=colors[variant], linestyle=styles[variant])
            ranks = LAUNCHES.get(launch, ("?", "?", None))[1]
            axis.set_title(f"{launch}: {grid}x{grid}, {ranks} ranks", fontsize=10)
            tiles = sorted({k[2] for k in points if k[0] == launch and k[1] == grid})
            finish_axis(axis, tiles, "tile size B (B x B tiles)", "Mupdates/s", log_base=2)
    return save_figure(plt, figure, "gw-heat: Gauss-Seidel wavefront, median Mupdates/s", out_dir / "heat.png")


def hybrid_plot(records: list[dict], out_dir: Path) -> Path | None:
    plt = pyplot()
    return heat_hybrid.plot(plt, records, out_dir, finish_axis, save_figure) if plt else None


def report(out_dir: Path) -> str:
    records = load(out_dir)
    if heat_hybrid.is_hybrid(records):
        text = write_report("run_heat_bench", out_dir, "heat.jsonl", records, heat_hybrid.summary, hybrid_plot)
        goals.write(out_dir / "goals.json", heat_hybrid.verdicts(records))
        return text
    skipped = skipped_goals(out_dir)
    text = write_report("run_heat_bench", out_dir, "heat.jsonl", records, lambda r: summary(r, skipped), plot)
    goals.write(out_dir / "goals.json", verdicts(records, skipped))
    return text


# ---------------------------------------------------------------- command line

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="smoke test: grid 512, tiles 16 and 64, 1 run of about 0.1 s per point")
    parser.add_argument("--hybrid", action="store_true",
                        help="the hybrid MPI + OpenMP matrix (heat_hybrid.py) instead of the main matrix")
    parser.add_argument("--grids", help="grid sizes N (N x N), comma separated (default 1024,2048; --hybrid: 2048)")
    parser.add_argument("--tiles", default="8,16,32,64,128", help="tile sizes B (B x B), comma separated")
    parser.add_argument("--variants", default=FLAT_VARIANTS,
                        help="gw-heat --variant of the main matrix (default: every variant without threads); "
                             "--hybrid runs its own per launch")
    parser.add_argument("--launches",
                        help=f"launches, comma separated, of: {', '.join(LAUNCHES)} (default: "
                             f"{','.join(DEFAULT_LAUNCHES)}); --hybrid: of {', '.join(heat_hybrid.LAUNCHES)} "
                             "(default: all of them)")
    add_driver_options(parser, "heat", repeats=5, seconds=1.0, seconds_help="length of a run", timeout=7200,
                       timeout_help="seconds per launch", budget=True)
    opts = parser.parse_args()

    if opts.report:
        return 0 if report(Path(opts.report)) else 1
    known = {name: plan[:3] for name, plan in heat_hybrid.LAUNCHES.items()} if opts.hybrid else LAUNCHES
    opts.launches = opts.launches or ",".join(heat_hybrid.DEFAULT_LAUNCHES if opts.hybrid else DEFAULT_LAUNCHES)
    opts.grids = opts.grids or ("2048" if opts.hybrid else "1024,2048")
    if opts.quick:
        opts.grids, opts.tiles, opts.repeats, opts.seconds = "512", "16,64", 1, 0.1
    if opts.repeats < 1 or opts.seconds <= 0:
        sys.exit("run_heat_bench: --repeats must be at least 1 and --seconds positive")
    launches = chosen_launches("run_heat_bench", opts.launches, known, opts.mpi)
    grids = [int(g) for g in opts.grids.split(",") if g]
    program = Path(opts.build_dir) / "apps" / "heat" / "gw-heat"
    if not program.exists() and not opts.dry_run:
        sys.exit(f"run_heat_bench: {program} does not exist; build it first "
                 f"(cmake --build {opts.build_dir} --target gw-heat)")

    out_dir = results_dir(opts, "heat-hybrid" if opts.hybrid else "heat")
    if not opts.dry_run:
        out_dir.mkdir(parents=True, exist_ok=True)
    meta = new_meta(quick=opts.quick, hybrid=opts.hybrid, launches=launches, grids=grids, tiles=opts.tiles,
                    repeats=opts.repeats, seconds=opts.seconds)
    announce("run_heat_bench", out_dir, meta)

    failures = []
    budget = Budget("run_heat_bench", opts.budget)
    jobs = [(name, grid) for name in launches for grid in grids]
    expected = [overhead + opts.repeats * per_round for per_round, overhead in (job_model(n, opts) for n, _ in jobs)]
    jsonl = open(os.devnull, "w") if opts.dry_run else open(out_dir / "heat.jsonl", "a")
    with jsonl:
        for k, (name, grid) in enumerate(jobs):
            if not run_launch(name, grid, opts, out_dir, jsonl, budget, rest=sum(expected[k + 1:])):
                failures.append(f"{name} {grid}")
    if opts.dry_run:
        return 0
    budget.save(out_dir)
    meta["budget"] = budget.record()
    finish_meta(meta, out_dir, failures)
    report(out_dir)
    print(f"\nrun_heat_bench: results, logs, summary.txt and heat.png in {out_dir}")
    if failures:
        print("run_heat_bench: FAILED: " + "; ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
