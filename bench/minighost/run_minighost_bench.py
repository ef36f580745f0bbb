#!/usr/bin/python3
"""The miniGhost benchmark of issue 6: gw-minighost's variants gw (ghostwire grids), mpi (plain MPI)
and commfree (no exchange: the compute bound) side by side, weak scaling with NDIM^3 cells per rank,
NDIM from 10 to 100, 1 and 20 variables, both comm methods (10 BSPMA, 11 SVAF), on 2 and 4 ranks of
one node. Like the original study (Barrett et al., miniGhost, 2012) it reports mesh elements per
second (cells per rank x ranks x variables / time per step).

    bench/minighost/run_minighost_bench.py                   the whole matrix (about 15 minutes)
    bench/minighost/run_minighost_bench.py --quick           a smoke test: 2 sizes, 1 run each
    bench/minighost/run_minighost_bench.py --launches emulated-2,multihost-2 --ndims 10,20,50
    bench/minighost/run_minighost_bench.py --report DIR      the table and plot of an earlier run again

Every point is the median of --repeats runs; the runs of one repeat go through all configurations
before the next repeat starts, and the variants of a configuration run in rotated order, so a slow
spell of the machine does not land on one variant. Each run is one mpirun of gw-minighost with enough
time steps for about --seconds of stepping. Writes results/minighost-<timestamp>/ (or --out):
minighost.jsonl (gw-minighost's JSON lines with the launch added), summary.txt, minighost.png and
meta.json. Only a run on an otherwise idle machine means anything: the load average is recorded.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_common import (LAUNCH, add_driver_options, announce, chosen_launches, finish_axis,  # noqa: E402
                          finish_meta, load_records, new_meta, paired_median, parse_json_line, pyplot, results_dir,
                          save_figure, write_report)
from bench_common import APP_LAUNCHES as LAUNCHES  # noqa: E402

VARIANTS = ["gw", "mpi", "commfree"]
COMM_NAMES = {10: "BSPMA", 11: "SVAF"}
# Issue 6: gw at least as fast as mpi everywhere, at least 1.3x faster for NDIM <= 20.
def goal_speedup(ndim: int) -> float:
    return 1.3 if ndim <= 20 else 1.0


# ---------------------------------------------------------------- running

def time_steps(ndim: int, num_vars: int, ranks: int, seconds: float) -> int:
    """Steps for about `seconds` of stepping. A 3D7PT cell update with its share of the exchange and
    the checks costs 1-2 ns per core here (NDIM 20: 7-10 us per step for 8000 cells; NDIM 75 with
    20 variables: 14-17 ms for 8.4 M), plus a few us per step; ranks beyond the cores share them.
    (An older estimate of 4 ns per cell with a 2000-step cap made small runs last 10-15 ms and
    large ones 5 steps, too short to leave start-up effects and the VM's jitter behind.)"""
    cores = os.cpu_count() or 1
    per_step = 1.5e-9 * ndim ** 3 * num_vars * max(1.0, ranks / cores) + 3e-6
    return max(10, min(100000, int(seconds / per_step)))


def run_one(launch: str, config: dict, variant: str, opts, log) -> dict | None:
    path, ranks, rpn = LAUNCHES[launch]
    program = Path(opts.build_dir) / "apps" / "minighost" / "gw-minighost"
    command = [str(LAUNCH), "--mpi", opts.mpi, "--path", path, "-n", str(ranks), "--timeout", str(opts.timeout)]
    if rpn:
        command += ["--rpn", str(rpn)]
    steps = time_steps(config["ndim"], config["vars"], ranks, opts.seconds)
    command += ["--", str(program), "--variant", variant, "--scaling", "2", "--ndim", str(config["ndim"]),
                "--num_vars", str(config["vars"]), "--comm_method", str(config["comm"]),
                "--stencil", str(opts.stencil), "--num_tsteps", str(steps), "--report_diffusion", "0"]
    log.write(f"\n== {shlex.join(command)}\n")
    if opts.dry_run:
        print(shlex.join(command))
        return None
    result = subprocess.run(command, capture_output=True, text=True)
    log.write(result.stdout + result.stderr)
    log.flush()
    records = [r for r in map(parse_json_line, result.stdout.splitlines()) if r and r.get("app") == "minighost"]
    if result.returncode != 0 or not records:
        print(f"!! {launch} {variant} {config}: exit status {result.returncode} (see the log)", flush=True)
        return None
    record = records[-1]
    record.pop("final_interior_sums", None)
    record["launch"] = launch
    record["path"] = path
    return record


def run_matrix(opts, launches: list[str], configs: list[dict], out_dir: Path) -> list[str]:
    failures = []
    total = opts.repeats * len(launches) * len(configs) * len(opts.variant_list)
    done = 0
    with open(out_dir / "minighost.jsonl", "a") as jsonl, open(out_dir / "minighost.log", "a") as log:
        for repeat in range(opts.repeats):
            for launch in launches:
                for index, config in enumerate(configs):
                    shift = (repeat + index) % len(opts.variant_list)
                    for variant in opts.variant_list[shift:] + opts.variant_list[:shift]:
                        record = run_one(launch, config, variant, opts, log)
                        done += 1
                        if record is None:
                            if not opts.dry_run:
                                failures.append(f"{launch} {variant} {config}")
                            continue
                        record["repeat"] = repeat
                        jsonl.write(json.dumps(record, separators=(",", ":")) + "\n")
                        jsonl.flush()
                        print(f"[{done}/{total}] run {repeat + 1} {launch} NDIM {config['ndim']:>3} "
                              f"vars {config['vars']:>2} {COMM_NAMES[config['comm']]:<5} {variant:<8} "
                              f"{record['elements_per_s']:.3e} elements/s", flush=True)
    return failures


# ---------------------------------------------------------------- reporting

def load(out_dir: Path) -> list[dict]:
    return load_records(out_dir / "minighost.jsonl", "elements_per_s")


def medians(records: list[dict]) -> dict[tuple, float]:
    """(launch, stencil, num_vars, comm_method, ndim, variant) -> median elements/s"""
    groups: dict[tuple, list[float]] = {}
    for r in records:
        key = (r["launch"], r["stencil"], r["num_vars"], r["comm_method"], r["nx"], r["variant"])
        groups.setdefault(key, []).append(r["elements_per_s"])
    return {key: statistics.median(values) for key, values in groups.items()}


def paired_ratio(records: list[dict], key: tuple) -> float | None:
    """Median over repeats of gw / mpi at one point (launch, stencil, num_vars, comm_method, ndim):
    in each repeat the variants of a point ran back to back, so the VM's slow and fast phases cancel."""
    by_repeat: dict[str, dict[int, float]] = {}
    for r in records:
        if "repeat" in r and (r["launch"], r["stencil"], r["num_vars"], r["comm_method"], r["nx"]) == key:
            by_repeat.setdefault(r["variant"], {})[r["repeat"]] = r["elements_per_s"]
    return paired_median(by_repeat.get("gw", {}), by_repeat.get("mpi", {}))


def ordered_launches(keys) -> list[str]:
    present = {k[0] for k in keys}
    return [name for name in LAUNCHES if name in present]


def summary(records: list[dict]) -> str:
    points = medians(records)
    runs = sorted({sum(1 for r in records if (r["launch"], r["stencil"], r["num_vars"], r["comm_method"], r["nx"],
                                               r["variant"]) == key) for key in points})
    lines = [f"miniGhost: mesh elements/s (median of {', '.join(map(str, runs))} runs), weak scaling, "
             "NDIM^3 cells per rank; gw/mpi > 1 means ghostwire is faster"]
    goals = []
    for launch in ordered_launches(points):
        groups = sorted({(k[1], k[2], k[3]) for k in points if k[0] == launch})
        for stencil, num_vars, comm in groups:
            ndims = sorted({k[4] for k in points if k[0] == launch and k[1:4] == (stencil, num_vars, comm)})
            lines.append("")
            lines.append(f"{launch}, stencil {stencil}, {num_vars} variable(s), comm_method {comm} "
                         f"({COMM_NAMES.get(comm, '?')})")
            lines.append(f"{'NDIM':<14}" + "".join(f"{n:>10}" for n in ndims))
            for variant in VARIANTS:
                cells = [points.get((launch, stencil, num_vars, comm, n, variant)) for n in ndims]
                if any(c is not None for c in cells):
                    lines.append(f"{variant:<14}" + "".join(f"{c:>10.3e}" if c else f"{'-':>10}" for c in cells))
            ratio_row = []
            for n in ndims:
                gw = points.get((launch, stencil, num_vars, comm, n, "gw"))
                mpi = points.get((launch, stencil, num_vars, comm, n, "mpi"))
                ratio = gw / mpi if gw and mpi else None
                ratio_row.append(f"{ratio:>10.2f}" if ratio else f"{'-':>10}")
                if ratio and launch in ("intra-2", "intra-4"):
                    want = goal_speedup(n)
                    paired = paired_ratio(records, (launch, stencil, num_vars, comm, n))
                    judged = paired if paired is not None else ratio
                    how = f" (median of paired repeats; ratio of medians {ratio:.2f})" if paired is not None else ""
                    verdict = "met" if judged >= want else "NOT MET"
                    goals.append(f"  goal {verdict:>7}: {launch} NDIM {n:>3}, {num_vars:>2} var, "
                                 f"{COMM_NAMES.get(comm, comm)}: gw / mpi = {judged:.2f}{how} (at least {want:.1f})")
            lines.append(f"{'gw / mpi':<14}" + "".join(ratio_row))
            free_row = []
            for n in ndims:
                gw = points.get((launch, stencil, num_vars, comm, n, "gw"))
                free = points.get((launch, stencil, num_vars, comm, n, "commfree"))
                free_row.append(f"{gw / free:>10.2f}" if gw and free else f"{'-':>10}")
            lines.append(f"{'gw / commfree':<14}" + "".join(free_row))
    if goals:
        met = sum(1 for g in goals if " met:" in g)
        lines += ["", f"Goals of issue 6 (one node): {met} of {len(goals)} met"] + goals
    return "\n".join(lines)


def plot(records: list[dict], out_dir: Path) -> Path | None:
    plt = pyplot()
    if plt is None:
        return None
    points = medians(records)
    if not points:
        return None
    launches = ordered_launches(points)
    var_counts = sorted({k[2] for k in points})
    figure, axes = plt.subplots(len(launches), len(var_counts), figsize=(5.6 * len(var_counts), 4.0 * len(launches)),
                                squeeze=False)
    styles = {10: "-", 11: "--"}
    colors = {"gw": "C0", "mpi": "C1", "commfree": "C7"}
    for row, launch in enumerate(launches):
        for col, num_vars in enumerate(var_counts):
            axis = axes[row][col]
            for stencil, comm, variant in sorted({(k[1], k[3], k[5]) for k in points
                                                  if k[0] == launch and k[2] == num_vars}):
                if variant == "commfree" and comm != 10:
                    continue  # commfree does not exchange: one line is enough
                xy = sorted((k[4], v) for k, v in points.items()
                            if k[0] == launch and k[1] == stencil and k[2] == num_vars and k[3] == comm
                            and k[5] == variant)
                label = variant if variant == "commfree" else f"{variant} {COMM_NAMES.get(comm, comm)}"
                axis.plot([x for x, _ in xy], [y for _, y in xy], marker="o", markersize=3, label=label,
                          color=colors.get(variant), linestyle=":" if variant == "commfree" else styles.get(comm, "-"))
            ranks = LAUNCHES[launch][1]
            axis.set_title(f"{launch}: {ranks} ranks, {num_vars} variable{'s' if num_vars > 1 else ''}", fontsize=10)
            ndims = sorted({k[4] for k in points if k[0] == launch})
            finish_axis(axis, ndims, "NDIM (NDIM^3 cells per rank)", "mesh elements / s")
    return save_figure(plt, figure, "gw-minighost: 3-D stencil with halo exchange, weak scaling, median elements/s",
                       out_dir / "minighost.png")


def report(out_dir: Path) -> str:
    return write_report("run_minighost_bench", out_dir, "minighost.jsonl", load(out_dir), summary, plot)


# ---------------------------------------------------------------- command line

def int_list(text: str, what: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v]
    except ValueError:
        sys.exit(f"run_minighost_bench: {what} must be comma-separated integers, got {text!r}")
    if not values or min(values) < 1:
        sys.exit(f"run_minighost_bench: {what} must be positive integers, got {text!r}")
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smoke test: NDIM 10 and 30, 1 run of about 0.05 s")
    parser.add_argument("--ndims", default="10,15,20,30,50,75,100", help="NDIM values (cells per rank NDIM^3)")
    parser.add_argument("--vars", default="1,20", help="numbers of variables")
    parser.add_argument("--comm-methods", default="10,11", help="10 BSPMA, 11 SVAF")
    parser.add_argument("--stencil", type=int, default=23, choices=[21, 22, 23, 24], help="miniGhost stencil")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="gw-minighost variants")
    parser.add_argument("--launches", default="intra-2,intra-4", help=f"comma separated, of: {', '.join(LAUNCHES)}")
    add_driver_options(parser, "minighost", repeats=3, seconds=0.3, seconds_help="stepping time of a run",
                       timeout=600, timeout_help="seconds per run")
    opts = parser.parse_args()

    if opts.report:
        return 0 if report(Path(opts.report)) else 1
    if opts.quick:
        opts.ndims, opts.repeats, opts.seconds = "10,30", 1, 0.05
    if opts.repeats < 1 or opts.seconds <= 0:
        sys.exit("run_minighost_bench: --repeats must be at least 1 and --seconds positive")
    opts.variant_list = [v for v in opts.variants.split(",") if v]
    unknown = [v for v in opts.variant_list if v not in VARIANTS]
    if unknown:
        sys.exit(f"run_minighost_bench: unknown variant {', '.join(unknown)} (known: {', '.join(VARIANTS)})")
    launches = chosen_launches("run_minighost_bench", opts.launches, LAUNCHES, opts.mpi)
    comms = int_list(opts.comm_methods, "--comm-methods")
    if any(c not in COMM_NAMES for c in comms):
        sys.exit(f"run_minighost_bench: --comm-methods takes 10 (BSPMA) and 11 (SVAF), got {opts.comm_methods!r}")
    configs = [{"ndim": n, "vars": v, "comm": c} for v in int_list(opts.vars, "--vars") for c in comms
               for n in int_list(opts.ndims, "--ndims")]
    program = Path(opts.build_dir) / "apps" / "minighost" / "gw-minighost"
    if not program.exists() and not opts.dry_run:
        sys.exit(f"run_minighost_bench: {program} does not exist; build it first "
                 f"(cmake --build {opts.build_dir} --target gw-minighost)")

    out_dir = results_dir(opts, "minighost")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = new_meta(launches=launches, configs=configs, stencil=opts.stencil, repeats=opts.repeats,
                    seconds=opts.seconds)
    announce("run_minighost_bench", out_dir, meta)
    failures = run_matrix(opts, launches, configs, out_dir)
    if opts.dry_run:
        return 0
    finish_meta(meta, out_dir, failures)
    report(out_dir)
    if failures:
        print(f"\nrun_minighost_bench: {len(failures)} run(s) failed:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
