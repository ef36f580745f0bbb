#!/usr/bin/env python3
"""ghostwire's benchmark suite: runs every benchmark through scripts/launch on each execution path
(intra, emulated, multihost), collects the JSON lines into results/<timestamp>/, prints a comparison
table of all paths and draws the plots there.

    bench/run_suite.py                  the whole suite with default sizes (what scripts/run does)
    bench/run_suite.py --quick          few sizes, short times: a smoke test, not a measurement
    bench/run_suite.py --only latency   one benchmark (repeat or comma-separate for more)
    bench/run_suite.py --report DIR     print the table and redraw the plots of an earlier run

Adding a benchmark (halo, heat, minighost ...) is one more Benchmark entry in SUITE below: the
program and its arguments, the launches, and how to tabulate and plot its JSON lines.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bench_common import LAUNCH, ROOT, announce, finish_meta, new_meta, paired_median, parse_json_line, pyplot


@dataclass
class Launch:
    """One way of starting a benchmark: an execution path of scripts/launch and its rank count."""
    path: str                 # intra, emulated, multihost
    ranks: int = 2
    rpn: int | None = None    # GHOSTWIRE_RANKS_PER_NODE (emulated nodes of this many ranks)
    env: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.path if self.ranks == 2 else f"{self.path}-{self.ranks}"


@dataclass
class Table:
    """How the comparison table summarises a benchmark's JSON lines."""
    row: str             # field that makes the rows ("bytes", "case")
    value: str           # field shown in the cells ("usec", "mbps")
    title: str           # what the cells are, for the heading
    higher_is_better: bool = False
    keep_order: bool = False  # rows in the order the program printed them, not sorted


@dataclass
class Plot:
    """A figure per benchmark: one panel per launch, one line per implementation."""
    x: str
    y: str
    xlabel: str
    ylabel: str
    logx: bool = True
    logy: bool = True
    bars: bool = False   # grouped bars (one group per x value, e.g. a case), not lines


@dataclass
class Goal:
    """A ratio the project has promised (issue 2's "Done when"), checked on every run."""
    path: str
    row: object           # value of the table's row field, e.g. 8 (bytes)
    impl: str
    versus: str
    at_most: float        # impl/versus of the table's value must not exceed this
    text: str
    # If given, `versus` is only a label and the denominator is the best of these implementations.
    versus_best_of: tuple[str, ...] = ()


@dataclass
class Benchmark:
    name: str                       # what --only selects; also the file names in the results folder
    program: str                    # relative to the build directory
    args: list[str]
    quick_args: list[str]           # appended with --quick
    launches: list[Launch]
    table: Table
    plot: Plot | None = None
    goals: list[Goal] = field(default_factory=list)
    # Pairs of implementations to compare wherever both ran, e.g. the two inter-node transports.
    duels: list[tuple[str, str]] = field(default_factory=list)
    takes_sizes: bool = False       # passes --sizes on
    timeout: int = 3600             # seconds per launch
    # A benchmark with a driver script of its own (a matrix of separate runs, as miniGhost's): the
    # script (relative to the project) gets --out <results>/<name> and these arguments, runs its
    # launches, and writes summary.txt and its plot there; program, launches and table are unused.
    script: str | None = None


MESSAGE_LAUNCHES = [Launch("intra"), Launch("emulated", rpn=1), Launch("multihost")]
QUICK_MESSAGE_ARGS = ["--sizes", "8,4K,64K,1M", "--min-time", "0.02", "--repeats", "2", "--warmup", "2"]

SUITE: list[Benchmark] = [
    Benchmark(
        name="latency", program="bench/gw-bench", args=["latency"], quick_args=QUICK_MESSAGE_ARGS,
        launches=MESSAGE_LAUNCHES, takes_sizes=True,
        table=Table(row="bytes", value="usec", title="one-way latency [usec]"),
        plot=Plot(x="bytes", y="usec", xlabel="message size [bytes]", ylabel="one-way latency [usec]"),
        goals=[
            Goal("intra", 8, "gw", "raw", 1.3, "gw within 1.3x of raw at 8 B"),
            Goal("intra", 8, "gw", "mpi-sendrecv", 1.0, "gw below MPI_Send/Recv at 8 B"),
            Goal("intra", 65536, "gw", "mpi-sendrecv", 0.5, "gw at most half of MPI_Send/Recv at 64 KiB"),
        ],
        duels=[("gw-p2p", "gw-rma")]),
    Benchmark(
        name="bandwidth", program="bench/gw-bench", args=["bandwidth"], quick_args=QUICK_MESSAGE_ARGS,
        launches=MESSAGE_LAUNCHES, takes_sizes=True,
        table=Table(row="bytes", value="mbps", title="streaming bandwidth [MB/s]", higher_is_better=True),
        plot=Plot(x="bytes", y="mbps", xlabel="message size [bytes]", ylabel="bandwidth [MB/s]"),
        duels=[("gw-p2p", "gw-rma")]),
    # The Heat benchmark (issue 4): every gw-heat variant and tile size in one job per launch, each
    # point the median of 3 runs of about 0.5 s; bench/heat/run_heat_bench.py runs the full matrix.
    Benchmark(
        name="heat", program="apps/heat/gw-heat",
        args=["--variant", "all", "-s", "1024", "-b", "8,16,32,64,128", "--repeat", "3", "--seconds", "0.5"],
        quick_args=["-s", "512", "-b", "16,64", "--repeat", "1", "--seconds", "0.1"],
        launches=[Launch("intra"), Launch("intra", ranks=4), Launch("emulated", rpn=1), Launch("multihost")],
        table=Table(row="bx", value="mupdates_per_s", title="Heat: Mupdates/s by tile size (B x B)",
                    higher_is_better=True),
        plot=Plot(x="bx", y="mupdates_per_s", xlabel="tile size B (B x B tiles)", ylabel="Mupdates/s", logy=False),
        # Goals compare times, lower is better: commfree/gw-pipelined in Mupdates/s is gw-pipelined's
        # time over commfree's.
        goals=[Goal("intra", b, "commfree", "gw-pipelined", 1 / (0.90 if b == 8 else 0.95),
                    f"gw-pipelined within {10 if b == 8 else 5}% of commfree at {b}x{b}") for b in (8, 16, 32, 64, 128)]
              + [Goal("intra", b, mpi, "gw-pipelined", 1.0, f"gw-pipelined at least as fast as {mpi} at {b}x{b}")
                 for b in (8, 16, 32, 64, 128) for mpi in ("mpi-blocking", "mpi-nbuffer", "mpi-nbuffer-transposed")]),
]

# gw-bench halo (issue 3): one halo exchange, ghostwire against four MPI styles and the raw floor, on
# 2 and 4 ranks of every path (emulated: nodes of ranks/2). Rows are cases; the goals are issue 3's:
# intra 2 ranks 2d-512-h1 gw <= 0.5x the best MPI variant and <= 1.5x raw, every other case gw <= the
# best MPI variant, multihost within 10% of it.
HALO_CASES = ["2d-512-h1", "2d-512-h2", "2d-2048-h1", "2d-2048-h2", "3d-64-7pt", "3d-64-27pt", "3d-128-7pt",
              "3d-128-27pt", "unstructured"]
HALO_MPI = ("mpi-isend", "mpi-persistent", "mpi-alltoallw", "mpi-put")


def halo_goals() -> list[Goal]:
    goals = [Goal("intra", "2d-512-h1", "gw", "best MPI", 0.5, "gw at most half of the best MPI variant",
                  versus_best_of=HALO_MPI),
             Goal("intra", "2d-512-h1", "gw", "raw", 1.5, "gw within 1.5x of the raw floor")]
    for launch, at_most, text in (("intra", 1.0, "gw at least as fast as the best MPI variant"),
                                  ("intra-4", 1.0, "gw at least as fast as the best MPI variant"),
                                  ("multihost", 1.1, "gw within 10% of the best MPI variant"),
                                  ("multihost-4", 1.1, "gw within 10% of the best MPI variant")):
        for case in HALO_CASES:
            if launch == "intra" and case == "2d-512-h1":
                continue
            goals.append(Goal(launch, case, "gw", "best MPI", at_most, f"{text} ({case})", versus_best_of=HALO_MPI))
    return goals


SUITE.append(Benchmark(
    name="halo", program="bench/gw-bench", args=["halo"],
    quick_args=["--cases", "2d-512-h1,3d-64-7pt,3d-64-27pt,unstructured", "--points", "5000",
                "--min-time", "0.02", "--repeats", "2", "--warmup", "2"],
    launches=[Launch("intra"), Launch("intra", 4), Launch("emulated", rpn=1), Launch("emulated", 4, rpn=2),
              Launch("multihost"), Launch("multihost", 4)],
    table=Table(row="case", value="usec", title="time per exchange [usec] (slowest rank)", keep_order=True),
    plot=Plot(x="case", y="usec", xlabel="case", ylabel="time per exchange [usec]", logx=False, bars=True),
    goals=halo_goals()))

# gw-dist-bench (issue 5): Grid::update_halo against the same exchange written with a raw Plan,
# MPI_Neighbor_alltoallw and Isend/Irecv, and the Jacobi example against the same program in plain
# MPI, 2 ranks, 1024^2 and 4096^2, in one job per launch. Goals (issue 5): update_halo within 10% of
# the raw plan and faster than alltoallw; the Jacobi example at least as fast as plain MPI.
SUITE.append(Benchmark(
    name="dist", program="bench/gw-dist-bench", args=["--variant", "all", "--sizes", "1024,4096"],
    quick_args=["--quick"],
    launches=[Launch("intra"), Launch("emulated", rpn=1), Launch("multihost")],
    table=Table(row="case", value="usec", title="time per halo update or Jacobi step [usec] (slowest rank)",
                keep_order=True),
    plot=Plot(x="case", y="usec", xlabel="case", ylabel="time per operation [usec]", logx=False, bars=True),
    goals=[goal for n in (1024, 4096) for goal in (
        Goal("intra", f"halo-{n}", "halo-gw", "halo-plan", 1.10, f"update_halo within 10% of a raw plan at {n}^2"),
        Goal("intra", f"halo-{n}", "halo-gw", "halo-alltoallw", 1.0,
             f"update_halo faster than MPI_Neighbor_alltoallw at {n}^2"),
        Goal("intra", f"jacobi-{n}", "jacobi-gw", "jacobi-mpi", 1.0,
             f"the Jacobi example at least as fast as plain MPI at {n}^2"))]))

# gw-minighost (issue 6): weak scaling over NDIM, gw against plain MPI and commfree, one mpirun per
# point, through its own driver (the full matrix: bench/minighost/run_minighost_bench.py).
SUITE.append(Benchmark(
    name="minighost", program="apps/minighost/gw-minighost", script="bench/minighost/run_minighost_bench.py",
    args=["--ndims", "10,20,50,100", "--vars", "1,20", "--launches", "intra-2", "--repeats", "3", "--seconds", "0.2"],
    quick_args=["--quick", "--vars", "1", "--launches", "intra-2"],
    launches=[], table=Table(row="nx", value="elements_per_s", title="mesh elements/s", higher_is_better=True)))

# Column order and short names: the implementations of gw-bench first, anything else after.
KNOWN_IMPLS = ["gw", "gw-p2p", "gw-rma", "mpi-sendrecv", "mpi-put-flag", "mpi-isend", "mpi-persistent",
               "mpi-alltoallw", "mpi-put", "raw"]
SHORT_NAMES = {"mpi-sendrecv": "sendrecv", "mpi-put-flag": "put-flag", "mpi-isend": "isend",
               "mpi-persistent": "persist", "mpi-alltoallw": "a2aw", "mpi-put": "put"}


# ---------------------------------------------------------------- running

def run_launch(bench: Benchmark, launch: Launch, opts, out_dir: Path) -> tuple[bool, list[dict]]:
    """Runs one launch, echoing the human output, and stores the log and the JSON lines."""
    program = Path(opts.build_dir) / bench.program
    command = [str(LAUNCH), "--mpi", opts.mpi, "--path", launch.path, "-n", str(launch.ranks),
               "--timeout", str(bench.timeout)]
    if launch.rpn:
        command += ["--rpn", str(launch.rpn)]
    command += ["--", str(program), *bench.args]
    if opts.quick:
        command += bench.quick_args
    if opts.sizes and bench.takes_sizes:
        command += ["--sizes", opts.sizes]
    command += shlex.split(opts.extra)
    env = dict(os.environ, **launch.env)
    stem = f"{bench.name}-{launch.label}"
    print(f"\n== {bench.name} on {launch.label}: {shlex.join(command)}", flush=True)
    if opts.dry_run:
        return True, []
    records: list[dict] = []
    with open(out_dir / f"{stem}.log", "w") as log, open(out_dir / f"{stem}.jsonl", "w") as jsonl:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        for line in process.stdout:
            log.write(line)
            record = parse_json_line(line)
            if record is None:
                print(line, end="", flush=True)
                continue
            record.setdefault("launch", launch.label)
            records.append(record)
            jsonl.write(json.dumps(record, separators=(",", ":")) + "\n")
        status = process.wait()
    if status != 0:
        print(f"!! {bench.name} on {launch.label} failed with exit status {status} (log: {out_dir / stem}.log)",
              flush=True)
    return status == 0, records


# ---------------------------------------------------------------- reporting

def load_results(out_dir: Path) -> dict[str, list[dict]]:
    """All JSON lines of a results folder, by benchmark name."""
    results: dict[str, list[dict]] = {}
    for path in sorted(out_dir.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = parse_json_line(line)
            if record:
                results.setdefault(record.get("bench", path.stem), []).append(record)
    return results


def launch_label(record: dict) -> str:
    return record.get("launch") or record.get("path", "?")


def ordered_launches(bench: Benchmark, records: list[dict]) -> list[str]:
    """The suite's launch order (intra, emulated, multihost), then any others found in the files."""
    found = list(dict.fromkeys(launch_label(r) for r in records))
    suite_order = [launch.label for launch in bench.launches]
    return [l for l in suite_order if l in found] + [l for l in found if l not in suite_order]


def ordered_impls(records: list[dict]) -> list[str]:
    seen = {r["impl"] for r in records}
    return [i for i in KNOWN_IMPLS if i in seen] + sorted(seen - set(KNOWN_IMPLS))


def format_row_key(key) -> str:
    if isinstance(key, int):
        for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
            if key >= 1 << shift and key % (1 << shift) == 0:
                return f"{key >> shift} {unit}"
        return f"{key} B"
    return str(key)


def format_value(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    if value >= 1000:
        return f"{value:.0f}"
    if value >= 100:
        return f"{value:.1f}"
    return f"{value:.2f}"


def index_records(records: list[dict], table: Table) -> dict[tuple, float]:
    return {(launch_label(r), r.get(table.row), r["impl"]): r.get(table.value) for r in records}


def comparison_table(bench: Benchmark, records: list[dict]) -> str:
    """Rows: the table's row field; columns: every launch's implementations, side by side."""
    table = bench.table
    launches = ordered_launches(bench, records)
    columns = [(launch, impl) for launch in launches
               for impl in ordered_impls([r for r in records if launch_label(r) == launch])]
    rows = (list(dict.fromkeys(r.get(table.row) for r in records)) if table.keep_order
            else sorted({r.get(table.row) for r in records}, key=lambda k: (isinstance(k, str), k)))
    cells = index_records(records, table)
    width = [max(9, len(SHORT_NAMES.get(impl, impl)) + 1) for _, impl in columns]
    lines = [f"{bench.name}: {table.title}" + (" (higher is better)" if table.higher_is_better else "")]
    group = f"{'':>9}"
    for launch in launches:
        span = sum(w for (l, _), w in zip(columns, width) if l == launch)
        group += f"{'| ' + launch:<{span}}"
    lines.append(group)
    lines.append(f"{table.row:>9}" + "".join(f"{SHORT_NAMES.get(i, i):>{w}}" for (_, i), w in zip(columns, width)))
    for key in rows:
        lines.append(f"{format_row_key(key):>9}" + "".join(
            f"{format_value(cells.get((l, key, i))):>{w}}" for (l, i), w in zip(columns, width)))
    return "\n".join(lines)


def paired_median_ratio(records: list[dict], goal: Goal, table: Table):
    """(median of per-repeat ratios, repeats) when both records list their repeats, else None."""
    def repeats(impl):
        for r in records:
            if launch_label(r) == goal.path and r.get(table.row) == goal.row and r["impl"] == impl:
                return r.get("usec_per_repeat")
        return None
    top, bottom = repeats(goal.impl), repeats(goal.versus)
    if not top or not bottom or len(top) != len(bottom):
        return None
    ratio = paired_median(dict(enumerate(top)), dict(enumerate(bottom)))
    return (ratio, len(top)) if ratio is not None else None


def goal_lines(bench: Benchmark, records: list[dict]) -> list[str]:
    cells = index_records(records, bench.table)
    lines = []
    for goal in bench.goals:
        top = cells.get((goal.path, goal.row, goal.impl))
        versus = goal.versus
        if goal.versus_best_of:
            candidates = [(cells[(goal.path, goal.row, i)], i) for i in goal.versus_best_of
                          if cells.get((goal.path, goal.row, i)) is not None]
            if not candidates:
                continue
            best = (max if bench.table.higher_is_better else min)(candidates)
            versus = f"{goal.versus} ({best[1]})"
            bottom = best[0]
        else:
            bottom = cells.get((goal.path, goal.row, goal.versus))
        if top is None or bottom is None or bottom <= 0:
            continue
        ratio = top / bottom
        how = ""
        paired = paired_median_ratio(records, goal, bench.table) if not goal.versus_best_of else None
        if paired is not None:  # both ran back to back in every repeat: the VM's phases cancel
            how = f" (median of {paired[1]} paired repeats; ratio of medians {ratio:.2f})"
            ratio = paired[0]
        verdict = "met" if ratio <= goal.at_most else "NOT MET"
        lines.append(f"  goal {verdict:>7}: {goal.text}: {goal.impl} {format_value(top)} / {versus} "
                     f"{format_value(bottom)} = {ratio:.2f}{how} (at most {goal.at_most:g}) on {goal.path}")
    return lines


def duel_lines(bench: Benchmark, records: list[dict]) -> list[str]:
    """Where both implementations ran: which one wins at how many points, and by how much."""
    cells = index_records(records, bench.table)
    lines = []
    for a, b in bench.duels:
        for launch in ordered_launches(bench, records):
            pairs = [(cells[(launch, k, a)], cells[(launch, k, b)])
                     for (l, k, i) in cells if l == launch and i == a and (launch, k, b) in cells]
            pairs = [(x, y) for x, y in pairs if x and y and x > 0 and y > 0]
            if not pairs:
                continue
            # How many times faster a is than b at each point: a time ratio or a bandwidth ratio.
            speedups = [x / y if bench.table.higher_is_better else y / x for x, y in pairs]
            wins = sum(1 for speedup in speedups if speedup > 1)
            geomean = math.exp(sum(math.log(v) for v in speedups) / len(speedups))
            lines.append(f"  {launch}: {a} faster than {b} at {wins} of {len(pairs)} points; "
                         f"{a} is {geomean:.2f}x as fast (geometric mean; from {min(speedups):.2f}x "
                         f"to {max(speedups):.2f}x)")
    return lines


def draw_plots(bench: Benchmark, records: list[dict], out_dir: Path) -> Path | None:
    if bench.plot is None or not records:
        return None
    plt = pyplot(f"install python3-matplotlib or run /usr/bin/python3 {Path(__file__).name} --report {out_dir}")
    if plt is None:
        return None
    import matplotlib.ticker
    plot = bench.plot
    launches = ordered_launches(bench, records)
    impls = ordered_impls(records)
    colors = {impl: f"C{k}" for k, impl in enumerate(impls)}
    if plot.bars:
        return draw_grouped_bars(bench, records, out_dir, plt, launches, impls, colors)
    figure, axes = plt.subplots(1, len(launches), figsize=(5.2 * len(launches), 4.4), squeeze=False,
                                sharey=True)
    for axis, launch in zip(axes[0], launches):
        for impl in impls:
            points = sorted((r[plot.x], r[plot.y]) for r in records
                            if launch_label(r) == launch and r["impl"] == impl and r.get(plot.y) is not None)
            if points:
                axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3,
                          label=impl, color=colors[impl])
        axis.set_title(launch)
        axis.set_xlabel(plot.xlabel)
        if plot.logx:
            axis.set_xscale("log", base=2)
        if plot.x == "bytes":
            axis.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: format_row_key(int(v))))
        if plot.logy:
            axis.set_yscale("log")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=8)
    axes[0][0].set_ylabel(plot.ylabel)
    figure.suptitle(f"gw-bench {bench.name}")
    figure.tight_layout()
    path = out_dir / f"{bench.name}.png"
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def draw_grouped_bars(bench: Benchmark, records: list[dict], out_dir: Path, plt, launches, impls, colors) -> Path:
    """One panel per launch (three to a row); in each, a group of bars per x value (a case), one bar
    per implementation."""
    plot = bench.plot
    columns = min(3, len(launches))
    rows = math.ceil(len(launches) / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(6.4 * columns, 4.6 * rows), squeeze=False)
    for index, launch in enumerate(launches):
        axis = axes[index // columns][index % columns]
        mine = [r for r in records if launch_label(r) == launch and r.get(plot.y) is not None]
        groups = list(dict.fromkeys(r[plot.x] for r in mine))
        present = [i for i in impls if any(r["impl"] == i for r in mine)]
        width = 0.8 / max(1, len(present))
        values = {(r[plot.x], r["impl"]): r[plot.y] for r in mine}
        for k, impl in enumerate(present):
            xs = [g + (k - (len(present) - 1) / 2) * width for g in range(len(groups))]
            ys = [values.get((group, impl), 0) for group in groups]
            axis.bar(xs, ys, width=width, label=impl, color=colors[impl])
        axis.set_xticks(range(len(groups)))
        axis.set_xticklabels([str(g) for g in groups], rotation=35, ha="right", fontsize=8)
        axis.set_title(launch)
        if plot.logy:
            axis.set_yscale("log")
        axis.set_ylabel(plot.ylabel)
        axis.grid(True, axis="y", which="both", alpha=0.3)
        axis.legend(fontsize=7, ncol=2)
    for index in range(len(launches), rows * columns):
        axes[index // columns][index % columns].set_visible(False)
    figure.suptitle(f"gw-bench {bench.name}")
    figure.tight_layout()
    path = out_dir / f"{bench.name}.png"
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def run_script(bench: Benchmark, opts, out_dir: Path) -> bool:
    """Runs a benchmark's own driver script, echoing its output."""
    command = [sys.executable, str(ROOT / bench.script), "--out", str(out_dir / bench.name),
               "--build-dir", opts.build_dir, "--mpi", opts.mpi, *(bench.quick_args if opts.quick else bench.args)]
    print(f"\n== {bench.name}: {shlex.join(command)}", flush=True)
    if opts.dry_run:
        return True
    status = subprocess.run(command).returncode
    if status != 0:
        print(f"!! {bench.name} failed with exit status {status} (log: {out_dir / bench.name})", flush=True)
    return status == 0


def report(benchmarks: list[Benchmark], out_dir: Path, plots: bool) -> str:
    results = load_results(out_dir)
    sections = []
    for bench in benchmarks:
        if bench.script:  # the driver wrote its own summary and plot
            folder = out_dir / bench.name
            if (folder / "summary.txt").exists():
                sections.append((folder / "summary.txt").read_text().rstrip())
                sections += [f"  plot: {image}" for image in sorted(folder.glob("*.png"))]
            continue
        records = results.get(bench.name, [])
        if not records:
            continue
        text = comparison_table(bench, records)
        extra = goal_lines(bench, records) + duel_lines(bench, records)
        if extra:
            text += "\n" + "\n".join(extra)
        sections.append(text)
        if plots:
            image = draw_plots(bench, records, out_dir)
            if image:
                sections.append(f"  plot: {image}")
    summary = "\n\n".join(sections)
    print("\n" + summary)
    (out_dir / "summary.txt").write_text(summary + "\n")
    return summary


# ---------------------------------------------------------------- command line

def select(opts) -> list[Benchmark]:
    names = [n for item in opts.only for n in item.split(",") if n]
    known = {b.name for b in SUITE}
    unknown = [n for n in names if n not in known]
    if unknown:
        sys.exit(f"run_suite: unknown benchmark {', '.join(unknown)} (known: {', '.join(b.name for b in SUITE)})")
    return [b for b in SUITE if not names or b.name in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="few sizes and short times (smoke test, CI)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only this benchmark (" + ", ".join(b.name for b in SUITE) + "); repeatable")
    parser.add_argument("--paths", default="intra,emulated,multihost",
                        help="launch paths to run, comma separated (default: all)")
    parser.add_argument("--sizes", default="", help="message sizes for the benchmarks that take them, e.g. 8-64K")
    parser.add_argument("--extra", default="", help="more arguments for every benchmark program, quoted")
    parser.add_argument("--build-dir", default=str(ROOT / "build"), help="build tree (default: build/)")
    parser.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"],
                        help="MPI of the build tree (multihost needs openmpi)")
    parser.add_argument("--results", default=str(ROOT / "results"), help="parent of the results folders")
    parser.add_argument("--report", metavar="DIR", help="only print the table and draw the plots of DIR")
    parser.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    opts = parser.parse_args()
    benchmarks = select(opts)

    if opts.report:
        report(benchmarks, Path(opts.report), plots=not opts.no_plots)
        return 0

    paths = [p for p in opts.paths.split(",") if p]
    for p in paths:
        if p not in ("intra", "emulated", "multihost"):
            sys.exit(f"run_suite: --paths: unknown path '{p}' (intra, emulated, multihost)")
    for bench in benchmarks:
        program = Path(opts.build_dir) / bench.program
        if not program.exists() and not opts.dry_run:
            sys.exit(f"run_suite: {program} does not exist; build it first (scripts/setup, or "
                     f"cmake --build {opts.build_dir} --target {Path(bench.program).name})")

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S") + ("-quick" if opts.quick else "")
    out_dir = Path(opts.results) / stamp
    if not opts.dry_run:
        out_dir.mkdir(parents=True, exist_ok=True)
    meta = new_meta(quick=opts.quick)
    announce("run_suite", out_dir, meta)

    failures = []
    for bench in benchmarks:
        if bench.script:
            if "intra" in paths and not run_script(bench, opts, out_dir):
                failures.append(bench.name)
            continue
        for launch in bench.launches:
            if launch.path not in paths:
                continue
            if launch.path == "multihost" and opts.mpi != "openmpi":
                print(f"\n== {bench.name} on {launch.label}: skipped (the multihost path needs Open MPI)")
                continue
            ok, _ = run_launch(bench, launch, opts, out_dir)
            if not ok:
                failures.append(f"{bench.name} on {launch.label}")
    if opts.dry_run:
        return 0

    finish_meta(meta, out_dir, failures)
    report(benchmarks, out_dir, plots=not opts.no_plots)
    print(f"\nrun_suite: results, logs, summary.txt and plots in {out_dir}")
    if failures:
        print("run_suite: FAILED: " + "; ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
