#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The CFD-Proxy benchmark: gw-cfdproxy's variants gw (ghostwire plan, one slot per
partner), mpi (the reference's Isend/Irecv), commfree (no exchange: the study's optimum) and, in the
MPICH build, mpi-partitioned (MPI-4 partitioned communication) side by side on the DLR-F6 mesh (or a
generated mesh when the data is absent), METIS partitions, --init hash.

    bench/cfdproxy/run_cfdproxy_bench.py                  intra-2, intra-4, emulated-2, multihost-2
    bench/cfdproxy/run_cfdproxy_bench.py --hybrid         ranks x threads, both builds:
        Open MPI (build/): gw, mpi, commfree at intra-2x1, intra-1x2, intra-2x2 (oversubscribed on 2
        cores) and multihost-2x1; MPICH (build-mpich/): gw, mpi-partitioned, mpi at intra-2x1,
        intra-1x2, intra-2x2 (mpi-partitioned against gw on the same messages)
    bench/cfdproxy/run_cfdproxy_bench.py --quick          a smoke test on a small generated mesh
    bench/cfdproxy/run_cfdproxy_bench.py --hybrid --quick the hybrid matrix as a smoke test
    bench/cfdproxy/run_cfdproxy_bench.py --report DIR     the table, goals and plot of an earlier run

A launch is <path>-<ranks>[x<threads>]: path intra, emulated (nodes of ranks/2) or multihost; threads
per rank through scripts/launch --threads (default 1). Every launch is one job per repeat running all
variants in its side-by-side mode (--variant ... --rounds R): the variants take turns round by round
in a rotated order, each round `--iterations` iterations between barriers. Goals are judged by the
median over all rounds of the per-round ratios (the variants of a round ran moments apart, so the
VM's phases cancel): gw within 3% of commfree and at least as fast as mpi at every one-thread launch,
gw's exchange phase at most 0.5x mpi's inside a node; with threads, gw at least as fast as mpi and as
mpi-partitioned. Writes results/cfdproxy-<timestamp>/ (or --out): cfdproxy.jsonl (one JSON record per
variant and job, with "build" and "launch"), cfdproxy.log, summary.txt, goals.json, cfdproxy.png,
meta.json.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_common import (JOB_OVERHEAD, LAUNCH, ROOT, Budget, add_driver_options, announce,  # noqa: E402
                          finish_meta, load_records, new_meta, pyplot, results_dir, rotated, run_side_by_side,
                          save_figure, skipped_goals, write_report)
import goals  # noqa: E402

VARIANTS = ["gw", "mpi", "mpi-partitioned", "commfree"]
F6 = ROOT.parent / "shared" / "data" / "dlr-f6-dualgrid-lvl2-48"
PHASES = ("gradient", "exchange", "flux")
HYBRID = {  # build -> (launches, variants)
    "openmpi": (["intra-2x1", "intra-1x2", "intra-2x2", "multihost-2x1"], ["gw", "mpi", "commfree"]),
    "mpich": (["intra-2x1", "intra-1x2", "intra-2x2"], ["gw", "mpi-partitioned", "mpi"]),
}
LAUNCH_NAME = re.compile(r"^(intra|emulated|multihost)-([1-9][0-9]*)(?:x([1-9][0-9]*))?$")


def default_mesh() -> str:
    return str(F6) if F6.is_dir() else "generated:200000"


def parse_launch(name: str) -> tuple[str, int, int]:
    """(path, ranks, threads) of a launch name; exits with a message for a bad one."""
    match = LAUNCH_NAME.match(name)
    if not match:
        sys.exit(f"run_cfdproxy_bench: launch '{name}': expected <intra|emulated|multihost>-<ranks>[x<threads>], "
                 "e.g. intra-2 or intra-2x2")
    path, ranks, threads = match.group(1), int(match.group(2)), int(match.group(3) or 1)
    if path == "multihost" and ranks < 2:
        sys.exit(f"run_cfdproxy_bench: launch '{name}': multihost needs at least 2 ranks")
    return path, ranks, threads


def launch_command(opts, build: str, launch: str) -> list[str]:
    path, ranks, threads = parse_launch(launch)
    command = [str(LAUNCH), "--mpi", build, "--path", path, "-n", str(ranks), "--timeout", str(opts.timeout)]
    if path == "emulated":
        command += ["--rpn", str(max(1, ranks // 2))]
    if threads > 1:
        command += ["--threads", str(threads)]
    return command


def program(opts, build: str) -> Path:
    tree = opts.build_dir if build == "openmpi" else opts.mpich_build_dir
    return Path(tree) / "apps" / "cfdproxy" / "gw-cfdproxy"


def label(build: str, launch: str) -> str:
    """How a (build, launch) is named in tables and verdicts: the Open MPI build's launches plain."""
    return launch if build == "openmpi" else f"{build}/{launch}"


# The model of a job's length, for the time budget (the pace measured by the first job corrects
# it): on the DLR-F6 mesh (308,899 points) an iteration takes ~36 ms on 2 ranks of the 2-core VM,
# about 0.23 us per point and core; reading, partitioning (METIS) and setting up take ~10 s a job.
F6_POINTS = 308899
POINT_ITERATION_SECONDS = 0.23e-6
SETUP_SECONDS_PER_POINT = 3e-5


def mesh_points(mesh: str) -> int:
    return int(mesh.split(":", 1)[1]) if mesh.startswith("generated:") else F6_POINTS


def job_model(opts, launch: str, variants: list[str]) -> tuple[float, float]:
    """(seconds per round, seconds of overhead) of one job."""
    _, ranks, threads = parse_launch(launch)
    points = mesh_points(opts.mesh)
    cores = min(ranks * threads, os.cpu_count() or 1)
    per_round = len(variants) * opts.iterations * POINT_ITERATION_SECONDS * points / cores
    return per_round, JOB_OVERHEAD + SETUP_SECONDS_PER_POINT * points


def run_one(opts, build: str, launch: str, variants: list[str], log, repeat: int,
            rounds: int | None = None) -> list[dict] | None:
    """One job of every variant side by side, `rounds` rounds (default --rounds)."""
    threads = parse_launch(launch)[2]
    command = launch_command(opts, build, launch) + [
        "--", str(program(opts, build)), "--mesh", opts.mesh, "--partition", "metis", "--init", opts.init,
        "--threads", str(threads), "--variant", ",".join(rotated(variants, repeat)),
        "--rounds", str(rounds or opts.rounds), "--iterations", str(opts.iterations)]
    records = run_side_by_side(command, log, "gw-cfdproxy", len(variants), label(build, launch), opts.dry_run)
    if records is None:
        return None
    for record in records:
        record.update(build=build, launch=label(build, launch), repeat=repeat, rounds_asked=opts.rounds,
                      repeats_asked=opts.repeats)
    return records


def load(out_dir: Path) -> list[dict]:
    return load_records(out_dir / "cfdproxy.jsonl", "time_per_iteration_s")


def round_values(records: list[dict], launch: str, variant: str, phase: str | None = None) -> dict[tuple, float]:
    """{(repeat, round): seconds} of one variant at one launch: the round's time, or a phase's."""
    values = {}
    for r in records:
        if r["launch"] != launch or r["variant"] != variant:
            continue
        if phase is None:
            for k, seconds in enumerate(r.get("round_seconds") or []):
                values[(r["repeat"], k)] = seconds
        else:
            for k, phases in enumerate(r.get("round_phases") or []):
                values[(r["repeat"], k)] = phases[PHASES.index(phase)]
    return values


def ordered_launches(records: list[dict]) -> list[str]:
    """In the order they first ran."""
    seen = []
    for r in records:
        if r["launch"] not in seen:
            seen.append(r["launch"])
    return seen


def threads_of(records: list[dict], launch: str) -> int:
    return next((r.get("threads", 1) for r in records if r["launch"] == launch), 1)


def medians(records: list[dict]) -> dict[tuple, float]:
    """(launch, variant, 'total'|phase) -> median seconds per iteration over the jobs."""
    groups: dict[tuple, list[float]] = {}
    for r in records:
        groups.setdefault((r["launch"], r["variant"], "total"), []).append(r["time_per_iteration_s"])
        for phase in PHASES:
            groups.setdefault((r["launch"], r["variant"], phase), []).append(r[f"{phase}_s"])
    return {key: statistics.median(values) for key, values in groups.items()}


def planned_pairs(records: list[dict], launch: str) -> int | None:
    """The rounds the run asked for at a launch, over all its repeats (None for runs from before the
    driver recorded it)."""
    asked = [r["rounds_asked"] * r["repeats_asked"] for r in records if r["launch"] == launch and "rounds_asked" in r]
    return max(asked) if asked else None


def verdicts(records: list[dict], skipped: list[tuple[str, str]] = ()) -> list[goals.Verdict]:
    """`skipped`: (where, goals) of the jobs the time budget left out, not measured."""
    found = []
    for launch in ordered_launches(records):
        gw, threaded = round_values(records, launch, "gw"), threads_of(records, launch) > 1
        mpi, commfree = round_values(records, launch, "mpi"), round_values(records, launch, "commfree")
        planned = planned_pairs(records, launch)
        has = {r["variant"] for r in records if r["launch"] == launch}
        if not threaded and "commfree" in has:
            found.append(goals.judge("cfdproxy", launch, "gw / commfree", goals.paired_ratios(gw, commfree), 1.03,
                                     at_least=False, unit="paired rounds", headline=launch == "intra-2", planned=planned))
        # No exchange can beat none: where mpi's exchange is a few percent of an iteration, commfree /
        # mpi is the floor of gw / mpi, and gw is judged against commfree when that floor is at the bound.
        if "mpi" in has:
            found.append(goals.judge("cfdproxy", launch, "gw / mpi", goals.paired_ratios(gw, mpi), 1.0, at_least=False,
                                     unit="paired rounds", floor_text="commfree / mpi",
                                     floor_ratios=goals.paired_ratios(commfree, mpi),
                                     versus_floor=goals.paired_ratios(gw, commfree), planned=planned))
        if "mpi-partitioned" in has:
            found.append(goals.judge("cfdproxy", launch, "gw / mpi-partitioned (same messages)",
                                     goals.paired_ratios(gw, round_values(records, launch, "mpi-partitioned")), 1.0,
                                     at_least=False, unit="paired rounds", headline=launch.endswith("intra-2x1"),
                                     planned=planned))
        if launch.startswith("intra") and not threaded and "mpi" in has:
            found.append(goals.judge("cfdproxy", launch, "exchange phase gw / mpi",
                                     goals.paired_ratios(round_values(records, launch, "gw", "exchange"),
                                                         round_values(records, launch, "mpi", "exchange")),
                                     0.5, at_least=False, unit="paired rounds", planned=planned))
    found += goals.not_measured_where_skipped("cfdproxy", skipped, found, at_least=False, unit="paired rounds")
    return [v for v in found if v]


def hybrid_lines(points: dict[tuple, float], launches: list[str]) -> list[str]:
    """Per build and variant: each threaded intra launch against the one-thread intra launch of the
    same build with the most ranks up to its ranks x threads (2x2 and 1x2 against 2x1 on 2 cores)."""
    shape = re.compile(r"^(.*intra)-(\d+)(?:x(\d+))?$")
    flat: dict[tuple[str, int], str] = {}  # (build prefix, ranks) -> one-thread launch
    threaded = []
    for launch in launches:
        match = shape.match(launch)
        if match and (match.group(3) or "1") == "1":
            flat[(match.group(1), int(match.group(2)))] = launch
        elif match:
            threaded.append((launch, match.group(1), int(match.group(2)) * int(match.group(3))))
    lines = []
    for launch, prefix, cores in threaded:
        ranks = [n for (p, n) in flat if p == prefix and n <= cores]
        if not ranks:
            continue
        base = flat[(prefix, max(ranks))]
        for variant in VARIANTS:
            ratio = goals.plain_ratio(points.get((launch, variant, "total")), points.get((base, variant, "total")))
            if ratio:
                lines.append(f"{variant:<16} {launch} / {base} = {ratio:.3f} (time per iteration, threads / flat)")
    return lines


def summary(records: list[dict], skipped: list[tuple[str, str]] = ()) -> str:
    points = medians(records)
    first = records[0]
    lines = [f"CFD-Proxy: {first['mesh']}, {first['points']} points, partition {first['partition']}, init "
             f"{first['init']}, {first['iterations']} iterations x {first['rounds']} rounds per job; "
             "milliseconds per iteration (median over jobs; phases: the slowest rank's)"]
    for launch in ordered_launches(records):
        lines += ["", f"{launch}", f"{'variant':<16}{'total':>10}{'gradient':>10}{'exchange':>10}{'flux':>10}"]
        for variant in VARIANTS:
            if (launch, variant, "total") not in points:
                continue
            cells = [points[(launch, variant, p)] * 1e3 for p in ("total",) + PHASES]
            lines.append(f"{variant:<16}" + "".join(f"{c:>10.3f}" for c in cells))
        gw = round_values(records, launch, "gw")
        for versus in ("mpi", "mpi-partitioned", "commfree"):
            ratios = goals.paired_ratios(gw, round_values(records, launch, versus))
            if ratios:
                lines.append(f"gw / {versus:<16}{statistics.median(ratios):>6.3f}  "
                             f"(median of {len(ratios)} paired rounds)")
    hybrid = hybrid_lines(points, ordered_launches(records))
    if hybrid:
        lines += ["", "Hybrid against flat (same cores; timing on a shared 2-core VM is indicative only):"] + hybrid
    found = verdicts(records, skipped)
    if found:
        lines += ["", f"Goals (time ratios, the median over the rounds of each round's ratio, with its ~95% "
                  f"interval): {goals.summary_line(found)}"]
        lines += [v.line() for v in found]
    return "\n".join(lines)


def plot(records: list[dict], out_dir: Path) -> Path | None:
    plt = pyplot()
    if plt is None or not records:
        return None
    points = medians(records)
    launches = ordered_launches(records)
    variants = [v for v in VARIANTS if any((launch, v, "total") in points for launch in launches)]
    figure, axis = plt.subplots(figsize=(2.2 + 2.2 * len(launches), 4.4))
    width = 0.8 / len(variants)
    colours = {"gradient": "C0", "exchange": "C3", "flux": "C2"}
    for i, launch in enumerate(launches):
        for j, variant in enumerate(variants):
            if (launch, variant, "total") not in points:
                continue
            x = i + (j - (len(variants) - 1) / 2) * width
            bottom = 0.0
            for phase in PHASES:
                height = points[(launch, variant, phase)] * 1e3
                axis.bar(x, height, width * 0.9, bottom=bottom, color=colours[phase],
                         label=phase if i == 0 and j == 0 else None)
                bottom += height
            axis.text(x, bottom, variant, ha="center", va="bottom", fontsize=7, rotation=90)
    axis.set_xticks(range(len(launches)), launches, fontsize=8, rotation=15)
    axis.set_ylabel("milliseconds per iteration (phases of the slowest rank)")
    axis.legend(fontsize=8)
    axis.grid(axis="y", alpha=0.3)
    return save_figure(plt, figure, "gw-cfdproxy: gradient, exchange and flux per iteration (ranks x threads)",
                       out_dir / "cfdproxy.png")


def report(out_dir: Path) -> str:
    skipped = skipped_goals(out_dir)
    records = load(out_dir)
    text = write_report("run_cfdproxy_bench", out_dir, "cfdproxy.jsonl", records, lambda r: summary(r, skipped), plot)
    goals.write(out_dir / "goals.json", verdicts(records, skipped))
    return text


def plan_jobs(opts) -> list[tuple[str, str, list[str]]]:
    """(build, launch, variants) of every job of one repeat."""
    if opts.hybrid:
        builds = [b for b in HYBRID if b in opts.builds.split(",")]
        return [(b, launch, HYBRID[b][1]) for b in builds for launch in HYBRID[b][0]]
    variants = [v for v in opts.variants.split(",") if v]
    if not variants or any(v not in VARIANTS for v in variants):
        sys.exit(f"run_cfdproxy_bench: --variants takes some of {', '.join(VARIANTS)}, got {opts.variants!r}")
    launches = [name for name in opts.launches.split(",") if name]
    for name in launches:
        parse_launch(name)
    if opts.mpi != "openmpi" and any(name.startswith("multihost") for name in launches):
        print("run_cfdproxy_bench: the multihost launches need Open MPI; skipping them")
        launches = [name for name in launches if not name.startswith("multihost")]
    return [(opts.mpi, launch, variants) for launch in launches]


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smoke test: generated:20000, 3 rounds of 2 iterations")
    parser.add_argument("--hybrid", action="store_true", help="the ranks x threads matrix (see above)")
    parser.add_argument("--builds", default="openmpi,mpich", help="with --hybrid: which builds (openmpi, mpich)")
    parser.add_argument("--mpich-build-dir", default=str(ROOT / "build-mpich"), help="the MPICH build tree")
    parser.add_argument("--mesh", default=default_mesh(), help="--mesh of gw-cfdproxy (default: the F6 data if present)")
    parser.add_argument("--init", default="hash", choices=["one", "hash"])
    parser.add_argument("--variants", default="gw,mpi,commfree", help="without --hybrid")
    parser.add_argument("--launches", default="intra-2,intra-4,emulated-2,multihost-2",
                        help="without --hybrid: comma separated <path>-<ranks>[x<threads>]")
    parser.add_argument("--rounds", type=int, default=15, help="rounds per job (the goals' statistic is over them)")
    parser.add_argument("--iterations", type=int, default=10, help="iterations per round")
    add_driver_options(parser, "cfdproxy", repeats=1, seconds=0, seconds_help="unused (rounds x iterations set "
                       "the length)", timeout=900, timeout_help="seconds per job", budget=True)
    opts = parser.parse_args()
    if opts.quick:
        opts.mesh, opts.rounds, opts.iterations = "generated:20000", 3, 2
    if opts.repeats < 1 or opts.rounds < 1 or opts.iterations < 1:
        sys.exit("run_cfdproxy_bench: --repeats, --rounds and --iterations must be at least 1")
    return opts


def main() -> int:
    opts = options()
    if opts.report:
        return 0 if report(Path(opts.report)) else 1
    jobs = plan_jobs(opts)
    missing = sorted({str(program(opts, build)) for build, _, _ in jobs if not program(opts, build).exists()})
    if missing and not opts.dry_run:
        sys.exit(f"run_cfdproxy_bench: {', '.join(missing)} missing; build it first (scripts/setup builds both "
                 "trees; or cmake --build <tree> --target gw-cfdproxy)")
    out_dir = results_dir(opts, "cfdproxy")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = new_meta(jobs=[f"{label(b, launch)}: {','.join(v)}" for b, launch, v in jobs], mesh=opts.mesh,
                    init=opts.init, rounds=opts.rounds, iterations=opts.iterations, repeats=opts.repeats)
    announce("run_cfdproxy_bench", out_dir, meta)
    budget = Budget("run_cfdproxy_bench", opts.budget)
    failures, total, done = [], opts.repeats * len(jobs), 0
    models = [job_model(opts, launch, variants) for _, launch, variants in jobs] * opts.repeats
    expected = [overhead + opts.rounds * per_round for per_round, overhead in models]
    with open(out_dir / "cfdproxy.jsonl", "a") as jsonl, open(out_dir / "cfdproxy.log", "a") as log:
        for repeat in range(opts.repeats):
            for build, launch, variants in jobs:
                per_round, overhead = models[done]
                rounds, _ = budget.plan(opts.rounds, per_round, overhead, sum(expected[done + 1:]), key=(build, launch),
                                        keep=min(goals.MIN_PAIRS, opts.rounds))  # every launch has goals
                done += 1
                where = label(build, launch) + (f", repeat {repeat + 1}" if opts.repeats > 1 else "")
                if rounds == 0:
                    budget.skip(where, goals="its goals (gw / mpi, gw / commfree, ...)", goal_where=label(build, launch))
                    continue
                if rounds < opts.rounds:
                    budget.cut(where, rounds, opts.rounds, "rounds")
                began = time.monotonic()
                records = run_one(opts, build, launch, variants, log, repeat, rounds)
                if records is not None:  # a failed job's time says nothing of the pace
                    budget.done(overhead + rounds * per_round, time.monotonic() - began, key=(build, launch))
                if records is None:
                    if not opts.dry_run:
                        failures.append(label(build, launch))
                    continue
                for record in records:
                    jsonl.write(json.dumps(record, separators=(",", ":")) + "\n")
                jsonl.flush()
                times = "  ".join(f"{r['variant']} {r['time_per_iteration_s'] * 1e3:.3f}" for r in records)
                print(f"[{done}/{total}] {label(build, launch)}: ms per iteration {times}", flush=True)
    if opts.dry_run:
        return 0
    budget.save(out_dir)
    meta["budget"] = budget.record()
    finish_meta(meta, out_dir, failures)
    report(out_dir)
    if failures:
        print(f"\nrun_cfdproxy_bench: {len(failures)} run(s) failed: {', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
