#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The miniGhost benchmark: gw-minighost's variants gw (ghostwire grids), mpi (plain MPI)
and commfree (no exchange: the compute bound) side by side, weak scaling with NDIM^3 cells per rank,
NDIM from 10 to 100, 1 and 20 variables, both comm methods (10 BSPMA, 11 SVAF), on 2 and 4 ranks of
one node. Like the original study (Barrett et al., miniGhost, 2012) it reports mesh elements per
second (cells per rank x ranks x variables / time per step).

    bench/minighost/run_minighost_bench.py                   the whole matrix (about 15 minutes)
    bench/minighost/run_minighost_bench.py --quick           a smoke test: 2 sizes, 1 run each
    bench/minighost/run_minighost_bench.py --launches emulated-2,multihost-2 --ndims 10,20,50
    bench/minighost/run_minighost_bench.py --report DIR      the table and plot of an earlier run again
    bench/minighost/run_minighost_bench.py --fortran --ndims 10,20,30,50
                                                            also the Fortran app (gw-minighost-f)

Every point is one mpirun of gw-minighost in its side-by-side mode (--variant gw,mpi,commfree
--rounds R) per repeat: the three variants live in the same job and take turns, each doing its share
of the time steps in every round (about --seconds of stepping per variant in all), timed between
barriers in rotated order. The goals are judged by the median over all rounds of the per-round time
ratios: the variants of a round ran moments apart, so the VM's slow and fast spells (seconds long,
up to 1.5x apart) cancel. Writes results/minighost-<timestamp>/ (or --out): minighost.jsonl
(gw-minighost's JSON lines with the launch and repeat added), summary.txt, minighost.png and
meta.json. Only a run on an otherwise idle machine means anything: the load average is recorded.

With --fortran every point also runs gw-minighost-f (the Fortran app, those of its variants gw, mpi
and commfree that --variants names, side by side) in a job of its own right before or after the C++
job (the order alternates with the repeat); its variants appear as gw-f, mpi-f and commfree-f.
The Fortran app's goals: gw-f / mpi-f as gw / mpi (commfree-f its floor, from the same job), and
gw-f / gw at least 0.9 (the Fortran app within 10% of the C++ one), paired round by round across
the two jobs of a repeat (seconds apart, not moments: a weaker pairing, said in the verdict).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_common import (JOB_OVERHEAD, Budget, add_driver_options, announce, chosen_launches,  # noqa: E402
                          finish_axis, finish_meta, launch_command, load_records, new_meta, pyplot, results_dir,
                          rotated, run_side_by_side, save_figure, skipped_goals, write_report)
from bench_common import APP_LAUNCHES as LAUNCHES  # noqa: E402
import goals  # noqa: E402

VARIANTS = ["gw", "mpi", "commfree"]
FORTRAN_VARIANTS = ["gw", "mpi", "commfree"]   # gw-minighost-f's; reported as gw-f, mpi-f, commfree-f
TABLE_VARIANTS = VARIANTS + [f"{v}-f" for v in FORTRAN_VARIANTS]
COMM_NAMES = {10: "BSPMA", 11: "SVAF"}
# Issue 6: gw at least as fast as mpi everywhere, at least 1.3x faster for NDIM <= 20.
def goal_speedup(ndim: int) -> float:
    return 1.3 if ndim <= 20 else 1.0


# ---------------------------------------------------------------- running

def step_seconds(ndim: int, num_vars: int, ranks: int) -> float:
    """A time step's expected seconds. A 3D7PT cell update with its share of the exchange and the
    checks costs 1-3 ns per core here (NDIM 20: 7-10 us per step for 8000 cells; NDIM 100 with 20
    variables: 45-55 ms for 20 M), plus a few us per step; ranks beyond the cores share them."""
    cores = os.cpu_count() or 1
    return 1.5e-9 * ndim ** 3 * num_vars * max(1.0, ranks / cores) + 3e-6


def time_steps(ndim: int, num_vars: int, ranks: int, seconds: float, rounds: int) -> int:
    """Steps for about `seconds` of stepping per variant, at least two per round."""
    return max(2 * rounds, min(200000, int(seconds / step_seconds(ndim, num_vars, ranks))))


def job_model(launch: str, config: dict, opts) -> tuple[float, float]:
    """(seconds per round, seconds of overhead) of a point's jobs (the C++ one and, with --fortran,
    the Fortran one), for the time budget: every variant steps its share of the steps each round;
    setting up writes each variant's arrays once (about 2 ns a value, two arrays)."""
    ranks = LAUNCHES[launch][1]
    apps = [opts.variant_list] + ([opts.fortran_variants] if opts.fortran else [])
    steps = time_steps(config["ndim"], config["vars"], ranks, opts.seconds, opts.rounds)
    per_step = step_seconds(config["ndim"], config["vars"], ranks)
    per_round = sum(len(variants) for variants in apps) * steps * per_step / opts.rounds
    setup = sum(len(variants) for variants in apps) * 2 * 2e-9 * config["ndim"] ** 3 * config["vars"]
    return per_round, len(apps) * JOB_OVERHEAD + setup


def run_one(launch: str, config: dict, opts, log, repeat: int, fortran: bool = False,
            rounds: int | None = None) -> list[dict] | None:
    """One job running every variant of a configuration side by side, `rounds` rounds (default
    --rounds; fewer where the time budget cut it, each as long as a full job's); their JSON
    records. The variants are set up in an order that rotates with the repeat: a job's first
    allocations can land in memory that makes strided copies a few percent slower (seen at NDIM 100
    with 20 variables: whichever variant was set up first lost 2-5%), so repeats give each variant
    the first place in turn."""
    path, ranks, _ = LAUNCHES[launch]
    program = fortran_program(opts) if fortran else Path(opts.build_dir) / "apps" / "minighost" / "gw-minighost"
    variants = opts.fortran_variants if fortran else opts.variant_list
    rounds = rounds or opts.rounds
    steps = time_steps(config["ndim"], config["vars"], ranks, opts.seconds * rounds / opts.rounds, rounds)
    command = launch_command(opts, launch) + [
        "--", str(program), "--variant", ",".join(rotated(variants, repeat)),
        "--rounds", str(min(rounds, steps)), "--scaling", "2", "--ndim", str(config["ndim"]),
        "--num_vars", str(config["vars"]), "--comm_method", str(config["comm"]), "--stencil", str(opts.stencil),
        "--num_tsteps", str(steps), "--report_diffusion", "0"]
    records = run_side_by_side(command, log, "minighost", len(variants), f"{launch} {config}", opts.dry_run)
    if records is None:
        return None
    for record in records:
        record.pop("final_interior_sums", None)
        if fortran:
            record["variant"] += "-f"
        record.update(launch=launch, path=path, rounds_asked=opts.rounds, repeats_asked=opts.repeats)
    return records


def fortran_program(opts) -> Path:
    return Path(opts.build_dir) / "apps" / "minighost-f" / "gw-minighost-f"


def run_point(launch: str, config: dict, opts, log, repeat: int, rounds: int) -> list[dict] | None:
    """The C++ job of a point and, with --fortran, the Fortran one, in an order alternating with the
    repeat; None if any failed."""
    apps = [False, True] if opts.fortran else [False]
    if repeat % 2:
        apps.reverse()
    records = []
    for fortran in apps:
        part = run_one(launch, config, opts, log, repeat, fortran, rounds)
        if part is None:
            return None
        records += part
    return records


def point_name(launch: str, config: dict) -> str:
    return f"{launch} NDIM {config['ndim']} vars {config['vars']} {COMM_NAMES[config['comm']]}"


def run_matrix(opts, launches: list[str], configs: list[dict], out_dir: Path, budget: Budget) -> list[str]:
    """Every point once per repeat, repeats outermost; each job's rounds within its share of the
    time budget."""
    failures = []
    jobs = [(repeat, launch, config) for repeat in range(opts.repeats) for launch in launches for config in configs]
    models = [job_model(launch, config, opts) for _, launch, config in jobs]
    expected = [overhead + opts.rounds * per_round for per_round, overhead in models]
    total = len(jobs)
    done = 0
    with open(out_dir / "minighost.jsonl", "a") as jsonl, open(out_dir / "minighost.log", "a") as log:
        for k, ((repeat, launch, config), (per_round, overhead)) in enumerate(zip(jobs, models)):
            done += 1
            key = (launch, config["ndim"], config["vars"], config["comm"])
            where = f"{point_name(launch, config)}, repeat {repeat + 1}"
            keep = min(goals.MIN_PAIRS, opts.rounds) if launch in ("intra-2", "intra-4") else 1  # goals' pairs
            rounds, _ = budget.plan(opts.rounds, per_round, overhead, sum(expected[k + 1:]), key=key, keep=keep)
            if rounds == 0:
                budget.skip(where, goals="gw / mpi" if launch in ("intra-2", "intra-4") else "",
                            goal_where=verdict_where(launch, config["ndim"], config["vars"], config["comm"]))
                continue
            if rounds < opts.rounds:
                budget.cut(where, rounds, opts.rounds, "rounds")
            began = time.monotonic()
            records = run_point(launch, config, opts, log, repeat, rounds)
            if records is not None:  # a failed job's time says nothing of the pace
                budget.done(overhead + rounds * per_round, time.monotonic() - began, key=key)
            if records is None:
                if not opts.dry_run:
                    failures.append(f"{launch} {config}")
                continue
            for record in records:
                record["repeat"] = repeat
                jsonl.write(json.dumps(record, separators=(",", ":")) + "\n")
            jsonl.flush()
            by_variant = {r["variant"]: r for r in records}
            ratio = paired_ratio(records, (launch, opts.stencil, config["vars"], config["comm"], config["ndim"]))
            rates = "  ".join(f"{v} {r['elements_per_s']:.3e}" for v, r in by_variant.items())
            print(f"[{done}/{total}] {launch} NDIM {config['ndim']:>3} vars {config['vars']:>2} "
                  f"{COMM_NAMES[config['comm']]:<5} elements/s: {rates}"
                  + (f"  gw/mpi {ratio:.2f}" if ratio else ""), flush=True)
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


def round_rates(records: list[dict], key: tuple) -> dict[str, dict[tuple, float]]:
    """variant -> {(repeat, round): 1 / seconds of that round} at one point (launch, stencil,
    num_vars, comm_method, ndim); every variant does the same steps in a round, so these compare as
    speeds. Records without rounds (a run of one variant) count as one round."""
    rates: dict[str, dict[tuple, float]] = {}
    for r in records:
        if (r["launch"], r["stencil"], r["num_vars"], r["comm_method"], r["nx"]) != key:
            continue
        rounds = r.get("round_seconds") or [r["time_per_step_s"]]
        for k, seconds in enumerate(rounds):
            if seconds and seconds > 0:
                rates.setdefault(r["variant"], {})[(r.get("repeat", 0), k)] = 1.0 / seconds
    return rates


def paired_ratio(records: list[dict], key: tuple, top: str = "gw", bottom: str = "mpi") -> float | None:
    """Median over all rounds of top's speed over bottom's at one point: the variants of a round ran
    moments apart in one job, so the VM's slow and fast phases cancel."""
    rates = round_rates(records, key)
    ratios = goals.paired_ratios(rates.get(top, {}), rates.get(bottom, {}))
    return statistics.median(ratios) if ratios else None


def ordered_launches(keys) -> list[str]:
    present = {k[0] for k in keys}
    return [name for name in LAUNCHES if name in present]


def planned_pairs(records: list[dict], key: tuple) -> int | None:
    """The rounds the run asked for at a point (launch, stencil, num_vars, comm_method, ndim), over
    all its repeats: what the goals' pairs are counted against (None for runs from before the
    driver recorded it)."""
    asked = [r["rounds_asked"] * r["repeats_asked"] for r in records if "rounds_asked" in r
             and (r["launch"], r["stencil"], r["num_vars"], r["comm_method"], r["nx"]) == key]
    return max(asked) if asked else None


def verdict_where(launch: str, ndim: int, num_vars: int, comm: int) -> str:
    return f"{launch} NDIM {ndim:>3}, {num_vars:>2} var, {COMM_NAMES.get(comm, comm)}"


def verdicts(records: list[dict], skipped: list[tuple[str, str]] = ()) -> list[goals.Verdict]:
    """The goals on one node: gw / mpi in speed, the median over all rounds of the per-round
    ratios, at least 1.3 for NDIM <= 20 and 1.0 above. `skipped`: (where, goals) of points the time
    budget left out, not measured."""
    points = medians(records)
    found = []
    for launch in ordered_launches(points):
        if launch not in ("intra-2", "intra-4"):
            continue
        for stencil, num_vars, comm, n in sorted({k[1:5] for k in points if k[0] == launch}):
            rates = round_rates(records, (launch, stencil, num_vars, comm, n))
            planned = planned_pairs(records, (launch, stencil, num_vars, comm, n))
            where = verdict_where(launch, n, num_vars, comm)
            if "gw" in rates and "mpi" in rates:
                found.append(goals.judge(
                    "minighost", where, "gw / mpi", goals.paired_ratios(rates["gw"], rates["mpi"]), goal_speedup(n),
                    at_least=True, unit="paired rounds",
                    headline=(n, num_vars, comm) in ((10, 20, 11), (50, 20, 10), (100, 1, 11)), planned=planned))
            if "gw-f" in rates and "mpi-f" in rates:  # issue 18: the Fortran app, its commfree the floor
                floor = rates.get("commfree-f", {})
                found.append(goals.judge(
                    "minighost-f", where, "gw-f / mpi-f", goals.paired_ratios(rates["gw-f"], rates["mpi-f"]),
                    goal_speedup(n), at_least=True, unit="paired rounds", floor_text="commfree-f / mpi-f",
                    floor_ratios=goals.paired_ratios(floor, rates["mpi-f"]),
                    versus_floor=goals.paired_ratios(rates["gw-f"], floor), floor_bound=1.0, planned=planned))
            if "gw-f" in rates and "gw" in rates:
                found.append(goals.judge(
                    "minighost-f", where, "gw-f / gw (Fortran / C++)", goals.paired_ratios(rates["gw-f"], rates["gw"]),
                    0.9, at_least=True, unit="rounds paired across 2 jobs", planned=planned))
    found += goals.not_measured_where_skipped("minighost", skipped, found, at_least=True, unit="paired rounds")
    return [v for v in found if v]


def summary(records: list[dict], skipped: list[tuple[str, str]] = ()) -> str:
    points = medians(records)
    runs = sorted({sum(1 for r in records if (r["launch"], r["stencil"], r["num_vars"], r["comm_method"], r["nx"],
                                               r["variant"]) == key) for key in points})
    rounds = sorted({len(r.get("round_seconds") or [0]) for r in records})
    lines = [f"miniGhost: mesh elements/s (median of {', '.join(map(str, runs))} jobs of {', '.join(map(str, rounds))} "
             "rounds, the variants side by side), weak scaling, NDIM^3 cells per rank; gw/mpi > 1 means ghostwire "
             "is faster"]
    for launch in ordered_launches(points):
        groups = sorted({(k[1], k[2], k[3]) for k in points if k[0] == launch})
        for stencil, num_vars, comm in groups:
            ndims = sorted({k[4] for k in points if k[0] == launch and k[1:4] == (stencil, num_vars, comm)})
            lines.append("")
            lines.append(f"{launch}, stencil {stencil}, {num_vars} variable(s), comm_method {comm} "
                         f"({COMM_NAMES.get(comm, '?')})")
            lines.append(f"{'NDIM':<14}" + "".join(f"{n:>10}" for n in ndims))
            for variant in TABLE_VARIANTS:
                cells = [points.get((launch, stencil, num_vars, comm, n, variant)) for n in ndims]
                if any(c is not None for c in cells):
                    lines.append(f"{variant:<14}" + "".join(f"{c:>10.3e}" if c else f"{'-':>10}" for c in cells))
            for top_name, bottom in (("gw", "mpi"), ("gw", "commfree"), ("commfree", "mpi"), ("gw-f", "mpi-f"),
                                     ("gw-f", "commfree-f"), ("commfree-f", "mpi-f"), ("gw-f", "gw")):
                row = []
                for n in ndims:
                    top = points.get((launch, stencil, num_vars, comm, n, top_name))
                    under = points.get((launch, stencil, num_vars, comm, n, bottom))
                    ratio = goals.plain_ratio(top, under)
                    row.append(f"{ratio:>10.2f}" if ratio else f"{'-':>10}")
                if any(cell.strip() != "-" for cell in row):
                    lines.append(f"{top_name + ' / ' + bottom:<14}" + "".join(row))
    found = verdicts(records, skipped)
    if found:
        lines += ["", f"Goals (one node; gw / mpi in speed, the median over the rounds of each round's "
                  f"ratio, with its ~95% interval): {goals.summary_line(found)}"]
        lines += [v.line() for v in found]
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
    colors = {"gw": "C0", "mpi": "C1", "commfree": "C7", "gw-f": "C2", "mpi-f": "C3", "commfree-f": "C8"}
    for row, launch in enumerate(launches):
        for col, num_vars in enumerate(var_counts):
            axis = axes[row][col]
            for stencil, comm, variant in sorted({(k[1], k[3], k[5]) for k in points
                                                  if k[0] == launch and k[2] == num_vars}):
                if variant.startswith("commfree") and comm != 10:
                    continue  # commfree does not exchange: one line is enough
                xy = sorted((k[4], v) for k, v in points.items()
                            if k[0] == launch and k[1] == stencil and k[2] == num_vars and k[3] == comm
                            and k[5] == variant)
                free = variant.startswith("commfree")
                label = variant if free else f"{variant} {COMM_NAMES.get(comm, comm)}"
                axis.plot([x for x, _ in xy], [y for _, y in xy], marker="o", markersize=3, label=label,
                          color=colors.get(variant), linestyle=":" if free else styles.get(comm, "-"))
            ranks = LAUNCHES[launch][1]
            axis.set_title(f"{launch}: {ranks} ranks, {num_vars} variable{'s' if num_vars > 1 else ''}", fontsize=10)
            ndims = sorted({k[4] for k in points if k[0] == launch})
            finish_axis(axis, ndims, "NDIM (NDIM^3 cells per rank)", "mesh elements / s")
    return save_figure(plt, figure, "gw-minighost: 3-D stencil with halo exchange, weak scaling, median elements/s",
                       out_dir / "minighost.png")


def report(out_dir: Path) -> str:
    skipped = skipped_goals(out_dir)
    records = load(out_dir)
    text = write_report("run_minighost_bench", out_dir, "minighost.jsonl", records, lambda r: summary(r, skipped), plot)
    goals.write(out_dir / "goals.json", verdicts(records, skipped))
    return text


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
    parser.add_argument("--fortran", action="store_true",
                        help="also run the Fortran app gw-minighost-f (its variants among --variants) at every "
                             "point")
    parser.add_argument("--rounds", type=int, default=15,
                        help="rounds in which the variants of a job take turns (the goals' statistic is over them)")
    add_driver_options(parser, "minighost", repeats=1, seconds=0.5,
                       seconds_help="stepping time of each variant in a job", timeout=600,
                       timeout_help="seconds per job", budget=True)
    opts = parser.parse_args()

    if opts.report:
        return 0 if report(Path(opts.report)) else 1
    if opts.quick:
        opts.ndims, opts.repeats, opts.seconds, opts.rounds = "10,30", 1, 0.05, 3
    if opts.repeats < 1 or opts.seconds <= 0 or opts.rounds < 1:
        sys.exit("run_minighost_bench: --repeats and --rounds must be at least 1 and --seconds positive")
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
    opts.fortran_variants = [v for v in FORTRAN_VARIANTS if v in opts.variant_list] if opts.fortran else []
    if opts.fortran and not opts.fortran_variants:
        sys.exit("run_minighost_bench: --fortran needs gw or mpi among --variants")
    programs = [Path(opts.build_dir) / "apps" / "minighost" / "gw-minighost"] + ([fortran_program(opts)] if opts.fortran else [])
    for program in programs:
        if not program.exists() and not opts.dry_run:
            sys.exit(f"run_minighost_bench: {program} does not exist; build it first "
                     f"(cmake --build {opts.build_dir} --target {program.name})")

    out_dir = results_dir(opts, "minighost")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = new_meta(launches=launches, configs=configs, stencil=opts.stencil, repeats=opts.repeats,
                    seconds=opts.seconds)
    announce("run_minighost_bench", out_dir, meta)
    budget = Budget("run_minighost_bench", opts.budget)
    failures = run_matrix(opts, launches, configs, out_dir, budget)
    if opts.dry_run:
        return 0
    budget.save(out_dir)
    meta["budget"] = budget.record()
    finish_meta(meta, out_dir, failures)
    report(out_dir)
    if failures:
        print(f"\nrun_minighost_bench: {len(failures)} run(s) failed:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
