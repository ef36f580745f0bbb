#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""PetscSF types side by side (docs/BENCHMARKS.md, "PetscSF"): a DMDA's global-to-local scatter
(gw-petsc-sf-bench: 2-D 5-point and 3-D 7-point, 1 and 4 dof, forward Bcast and reverse Reduce) with
-sf_type basic, neighbor and ghostwire (and ghostwire with each transfer forced) in one job per
configuration, window in a job of its own beside basic (Open MPI's window SF slows every later memory
operation of the process: basic and the plain copy floor took twice as long after it), on 2 and 4
ranks of one node and 2 ranks on two hosts; and SNES ex5 with a nonlinear Gauss-Seidel smoother (a
global-to-local every sweep) per type, runs interleaved, scatter and total time from -log_view and
the residual history compared with basic's.

  bench/petsc/run_petsc_bench.py                 # everything (about 10 minutes on 2 cores)
  bench/petsc/run_petsc_bench.py --quick         # fewer sizes and rounds
  bench/petsc/run_petsc_bench.py --report DIR    # the table and plot of an earlier run
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_common as common  # noqa: E402
import goals  # noqa: E402

PROGRAM = "run_petsc_bench"
TYPES = ["basic", "neighbor", "window", "ghostwire"]
# Types timed in a job of their own beside basic, their times scaled to the main job's basic by the
# median of their own paired ratios: after Open MPI's window SF ran, the whole process is slower (the
# plain copy floor took twice as long), which would charge window's cost to whatever ran after it.
SEPARATE = ("window",)
FLOOR = "copy-floor"  # the owned values copied into the local vector: every type's share beyond messages
PACK_FLOOR = "pack-floor"  # and the units exchanged packed and unpacked in one process: a packing type's share
FLOORS = (FLOOR, PACK_FLOOR)
LAUNCHES = {name: common.APP_LAUNCHES[name] for name in ("intra-2", "intra-4", "multihost-2")}
SMALL_MESSAGE = 64 * 1024  # the goal's bound between 0.6x and 0.8x of basic


def library(opts) -> Path:
    return Path(opts.build_dir) / "bindings" / "petsc" / "libghostwire_petsc.so"


def sf_options(opts, types: list[str]) -> list[str]:
    extra = ["-types", ",".join(types)]
    if "ghostwire" in types:
        extra += ["-dll_append", str(library(opts))]
    return extra


def sizes_of(opts, dim: int) -> str:
    if opts.quick:
        return "64,512" if dim == 2 else "16,64"
    return opts.sizes_2d if dim == 2 else opts.sizes_3d


def sf_jobs(types: list[str], opts) -> list[tuple[str, list[str], int, int]]:
    """(job name, types, rounds, scatters per timing or 0 for automatic): the main job, then each
    separate type beside basic."""
    main = [t for t in types if t not in SEPARATE] + [f"ghostwire:{t}" for t in opts.transfers if "ghostwire" in types]
    return [("main", main, opts.repeats, 0)] + [(t, ["basic", t], opts.separate_repeats, opts.separate_iters)
                                               for t in types if t in SEPARATE]


# The model of the jobs' lengths, for the time budget (the pace measured by the first jobs corrects
# it): a gw-petsc-sf-bench job starts PETSc and sets up every type per size (~0.5 s besides
# mpirun's); a round times every type and floor for ~10 ms each (automatic -iters), per size and
# direction; with -iters fixed a timing is a few scatters. SNES ex5's NGS sweep costs ~50 ns a point.
SF_SETUP_SECONDS = 0.5
TIMING_SECONDS = 0.01
FIXED_ITERS_TIMING_SECONDS = 0.002
SNES_POINT_SWEEP_SECONDS = 5e-8


def sf_model(opts, dim: int, job_types: list[str], iters: int) -> tuple[float, float]:
    """(seconds per round, seconds of overhead) of one gw-petsc-sf-bench job."""
    sizes = len(sizes_of(opts, dim).split(","))
    timings = sizes * 2 * (len(job_types) + len(FLOORS))  # both directions; the floors time too
    return timings * (FIXED_ITERS_TIMING_SECONDS if iters else TIMING_SECONDS), common.JOB_OVERHEAD + SF_SETUP_SECONDS


def snes_model(opts, launch: str, grid: int, sweeps: int, types: list[str]) -> float:
    """Seconds of one repeat of SNES ex5 (a job per type)."""
    cores = min(LAUNCHES[launch][1], os.cpu_count() or 1)
    return len(types) * (common.JOB_OVERHEAD + SF_SETUP_SECONDS + sweeps * grid * grid * SNES_POINT_SWEEP_SECONDS / cores)


class Work:
    """The jobs of a run in the order they run, with their expected seconds (for each job's share
    of the time budget: its expected seconds among those of the jobs still to run)."""

    def __init__(self, budget: common.Budget, expected: list[float]):
        self.budget, self.expected, self.index = budget, expected, 0

    def plan(self, rounds: int, per_round: float, overhead: float, key, keep: int = 1) -> int:
        """Rounds for the next job (0: skip it); moves on to the one after."""
        self.index += 1
        return self.budget.plan(rounds, per_round, overhead, sum(self.expected[self.index:]), key=key, keep=keep)[0]


def sf_job_list(opts, types: list[str]) -> list[tuple]:
    """(launch, dim, dof, job, job types, rounds, iters) of every SF job, in order."""
    return [(launch, dim, dof, *job) for launch in opts.launches for dim, dof in ((2, 1), (2, 4), (3, 1), (3, 4))
            for job in sf_jobs(types, opts)]


def snes_plan(opts, types: list[str]) -> tuple[int, int, list[str]]:
    """(grid, sweeps, types) of SNES ex5."""
    grid, sweeps = (256, 40) if opts.quick else (opts.snes_grid, 60)
    return grid, sweeps, [t for t in types if t in opts.snes_types]


def expected_work(opts, types: list[str]) -> list[float]:
    """The expected seconds of every job (SF jobs, SNES repeats, SNES's scatter alone), in order."""
    expected = []
    for _, dim, _, _, job_types, rounds, iters in sf_job_list(opts, types):
        per_round, overhead = sf_model(opts, dim, job_types, iters)
        expected.append(overhead + rounds * per_round)
    if not opts.no_snes:
        grid, sweeps, snes_types = snes_plan(opts, types)
        for launch in [l for l in opts.launches if l in opts.snes_launches]:
            expected += [snes_model(opts, launch, grid, sweeps, snes_types)] * opts.snes_repeats
            per_round, overhead = sf_model(opts, 2, ["basic", "ghostwire"], 0)
            expected.append(overhead + opts.repeats * per_round / 4)  # one size, one direction
    return expected


def run_sf(opts, out_dir: Path, log, types: list[str], failures: list[str], work: Work) -> None:
    results = out_dir / "sf.jsonl"
    for launch, dim, dof, job, job_types, asked, iters in sf_job_list(opts, types):
        what = f"{launch} {dim}-D dof {dof}" + ("" if job == "main" else f" ({job} beside basic)")
        per_round, overhead = sf_model(opts, dim, job_types, iters)
        # The main job's rounds are its goals' pairs: at least goals.MIN_PAIRS of them where it can.
        rounds = work.plan(asked, per_round, overhead, key=(launch, dim, dof, job),
                           keep=min(goals.MIN_PAIRS, asked) if job == "main" else 1)
        if rounds == 0:
            work.budget.skip(what, goals="ghostwire / basic and / best other type" if job == "main" else "")
            continue
        if rounds < asked:
            work.budget.cut(what, rounds, asked, "rounds")
        arguments = ["-dim", str(dim), "-dof", str(dof), "-sizes", sizes_of(opts, dim), "-reps", str(rounds)] \
            + (["-iters", str(iters)] if iters else []) + sf_options(opts, job_types)
        began = time.monotonic()
        run_sf_job(opts, launch, job, arguments, results, log, what, failures, asked)
        work.budget.done(overhead + rounds * per_round, time.monotonic() - began, key=(launch, dim, dof, job))


def run_sf_job(opts, launch: str, job: str, arguments: list[str], results: Path, log, what: str,
               failures: list[str], asked: int) -> None:
    """One gw-petsc-sf-bench run on `launch`, its JSON lines appended to `results` with their launch,
    job and the rounds the run asked for (`asked`; -reps may be fewer where the time budget cut it)."""
    program = Path(opts.build_dir) / "bench" / "petsc" / "gw-petsc-sf-bench"
    before = len(common.load_records(results, "round_seconds"))
    command = common.launch_command(opts, launch) + ["--", str(program)] + arguments + ["-json", str(results)]
    print(f"== {what}", flush=True)
    done = common.run_logged(command, log, opts.dry_run)
    if done is None:
        return
    added = common.load_records(results, "round_seconds")[before:]
    for record in added:
        record.update(launch=launch, job=job, rounds_asked=asked)
    rewrite_tail(results, before, added)
    if done.returncode != 0 or not added:
        failures.append(what)
        print(f"!! {what}: exit status {done.returncode} (see {log.name})", flush=True)


def rewrite_tail(path: Path, keep: int, records: list[dict]) -> None:
    """The file's first `keep` records, then `records` (the program's lines, now with their launch)."""
    kept = common.load_records(path, "round_seconds")[:keep]
    with open(path, "w") as out:
        common.append_records(out, kept + records)


LOG_LINE = re.compile(r"^(VecScatterBegin|VecScatterEnd|SFSetUp)\s+\d+\s+[\d.]+\s+([\d.e+-]+)")
TOTAL = re.compile(r"^Time \(sec\):\s+([\d.e+-]+)")


def parse_log_view(text: str) -> tuple[float, float, float]:
    """Total seconds, seconds in VecScatterBegin + End and in SFSetUp (the slowest rank's) of a
    -log_view. PETSc sets an SF up at its first scatter, so the set-up is inside VecScatterBegin."""
    total = scatter = setup = 0.0
    for line in text.splitlines():
        if m := TOTAL.match(line):
            total = float(m.group(1))
        elif m := LOG_LINE.match(line):
            if m.group(1) == "SFSetUp":
                setup += float(m.group(2))
            else:
                scatter += float(m.group(2))
    return total, scatter, setup


def run_snes(opts, out_dir: Path, log, types: list[str], failures: list[str], work: Work) -> None:
    """SNES ex5 per type, repeats outermost (a repeat is a job per type, the pairs of its goals);
    a repeat the time budget has no room for is left out, and those after it."""
    program = Path(opts.build_dir) / "bench" / "petsc" / "petsc-snes-ex5"
    grid, sweeps, snes_types = snes_plan(opts, types)
    results = out_dir / "snes.jsonl"
    for launch in [l for l in opts.launches if l in opts.snes_launches]:
        repeats = opts.snes_repeats
        for repeat in range(opts.snes_repeats):
            fits = work.plan(1, snes_model(opts, launch, grid, sweeps, snes_types), 0.0, key=("snes", launch))
            if repeat >= repeats or not fits:
                repeats = min(repeats, repeat)  # a repeat left out: the ones after it too
                continue
            began = time.monotonic()
            for sf_type in common.rotated(snes_types, repeat):
                view = out_dir / f"snes-{launch}-{sf_type}-{repeat}.log"
                command = common.launch_command(opts, launch) + [
                    "--", str(program), "-da_grid_x", str(grid), "-da_grid_y", str(grid), "-snes_type", "ngs",
                    "-snes_max_it", str(sweeps), "-snes_monitor", "-sf_type", sf_type, "-log_view", f":{view}"]
                if sf_type == "ghostwire":
                    command += ["-dll_append", str(library(opts))]
                done = common.run_logged(command, log, opts.dry_run)
                if done is None:
                    continue
                if done.returncode != 0 or not view.exists():
                    failures.append(f"snes {launch} {sf_type}")
                    continue
                total, scatter, setup = parse_log_view(view.read_text())
                residuals = [line.strip() for line in done.stdout.splitlines() if "SNES Function norm" in line]
                with open(results, "a") as out:
                    common.append_records(out, [{"bench": "snes-ex5-ngs", "launch": launch, "type": sf_type,
                                                 "repeat": repeat, "repeats_asked": opts.snes_repeats,
                                                 "grid": grid, "sweeps": sweeps,
                                                 "total_seconds": total, "scatter_seconds": max(scatter - setup, 0.0),
                                                 "setup_seconds": setup, "scatter_with_setup_seconds": scatter,
                                                 "residuals": residuals}])
            work.budget.done(snes_model(opts, launch, grid, sweeps, snes_types), time.monotonic() - began,
                             key=("snes", launch))
            print(f"== snes {launch} repeat {repeat + 1}/{opts.snes_repeats}", flush=True)
        if repeats < opts.snes_repeats:
            if repeats:
                work.budget.cut(f"SNES ex5 {launch}", repeats, opts.snes_repeats, "repeats")
            else:
                work.budget.skip(f"SNES ex5 {launch}", goals="SNES ex5's scatter and total time ghostwire / basic")
        run_snes_scatter(opts, out_dir, log, launch, grid, [t for t in snes_types if t in ("basic", "ghostwire")],
                         failures, work)


def run_snes_scatter(opts, out_dir: Path, log, launch: str, grid: int, types: list[str], failures: list[str],
                     work: Work) -> None:
    """The scatter SNES ex5 does every sweep (its DMDA's global-to-local), timed alone per type with
    its floors (gw-petsc-sf-bench -global): how much of the scatter any type must spend copying
    the owned values (named beside an unmet SNES scatter goal: judge_scatter_alone)."""
    what = f"snes {launch}: its scatter alone, with the floors"
    per_round, overhead = sf_model(opts, 2, types, 0)
    per_round /= 4  # one size, one direction
    rounds = work.plan(opts.repeats, per_round, overhead, key=("snes scatter", launch))
    if rounds == 0:
        work.budget.skip(what)
        return
    if rounds < opts.repeats:
        work.budget.cut(what, rounds, opts.repeats, "rounds")
    arguments = ["-dim", "2", "-global", f"{grid},{grid}", "-ops", "forward", "-reps", str(rounds)] \
        + sf_options(opts, types)
    began = time.monotonic()
    run_sf_job(opts, launch, "main", arguments, out_dir / "snes_sf.jsonl", log, what, failures, opts.repeats)
    work.budget.done(overhead + rounds * per_round, time.monotonic() - began, key=("snes scatter", launch))


def point_name(record: dict) -> str:
    """The type's name, or "<type>@<job>" for the basic and copy floor of a separate type's job."""
    job = record.get("job", "main")
    return record["type"] if job in ("main", record["type"]) else f"{record['type']}@{job}"


def sf_points(records: list[dict]) -> dict[tuple, dict[str, dict]]:
    """By (launch, op, dim, dof, n): each type's record by point_name (basic and the floor are the
    main job's). A type whose result differed from basic's ("verified": false) is
    left out of every comparison (summary() names them)."""
    points: dict[tuple, dict[str, dict]] = {}
    for r in records:
        if not r.get("verified", True):
            continue
        key = (r["launch"], r["op"], r["dim"], r["dof"], r["n"])
        points.setdefault(key, {})[point_name(r)] = r
    return points


def per_round(values: list[float]) -> dict[int, float]:
    return dict(enumerate(values))


def rounds_of(types: dict[str, dict], name: str) -> dict[int, float]:
    """A type's seconds per round; a separate job's type scaled onto the main job's basic rounds by
    the median of its own paired ratios to the basic beside it."""
    mine = per_round(types[name]["round_seconds"])
    job = types[name].get("job", "main")
    if job == "main":
        return mine
    beside = types.get(f"basic@{job}")
    if not beside or "basic" not in types:
        return {}
    scale = goals.paired_median(mine, per_round(beside["round_seconds"]))
    if scale is None:
        return {}
    return {k: scale * v for k, v in per_round(types["basic"]["round_seconds"]).items()}


def is_peer(name: str) -> bool:
    """A type ghostwire is compared with: not ghostwire in any form, not the floor, not a job's basic."""
    return not name.startswith("ghostwire") and name not in FLOORS and "@" not in name


def best_other(types: dict[str, dict]) -> dict[int, float]:
    """The rounds of the type other than ghostwire with the lowest median (rounds ran every type back
    to back). One type's rounds, not each round's fastest type: the minimum of two noisy types of
    equal speed is below both, so a type equal to basic would measure slower than "the best"."""
    others = [o for o in (rounds_of(types, t) for t in types if is_peer(t)) if o]
    return min(others, key=lambda o: statistics.median(o.values()), default={})


def sf_verdicts(records: list[dict], skipped: list[tuple[str, str]] = ()) -> list[goals.Verdict]:
    """`skipped`: (where, goals) of the jobs the time budget left out, not measured."""
    verdicts = []
    for (launch, op, dim, dof, n), types in sorted(sf_points(records).items()):
        if "ghostwire" not in types or "basic" not in types:
            continue
        gw = per_round(types["ghostwire"]["round_seconds"])
        size = types["ghostwire"]["bytes_per_neighbour"]
        planned = types["ghostwire"].get("rounds_asked")
        where = f"{launch}, {dim}-D dof {dof} n={n} ({size} B/neighbour), {op}"
        intra = LAUNCHES[launch][0] == "intra"
        if intra:
            bound = 0.6 if op == "reverse" or size <= SMALL_MESSAGE else 0.8
            what = "ghostwire / basic" + (" (PetscSF Reduce)" if op == "reverse" else "")
            basic = per_round(types["basic"]["round_seconds"])
            verdict = goals.judge("petsc-sf", where, what, goals.paired_ratios(gw, basic), bound, False,
                                  unit="paired rounds", planned=planned)
            floor = next((f for f in reversed(FLOORS) if f in types), None)
            if verdict and floor:
                judge_beyond_floor(verdict, gw, basic, floor, per_round(types[floor]["round_seconds"]))
            verdicts.append(verdict)
        verdicts.append(goals.judge("petsc-sf", where, "ghostwire / best other type",
                                    goals.paired_ratios(gw, best_other(types)), 1.0, False, unit="paired rounds",
                                    planned=planned))
    verdicts += goals.not_measured_where_skipped("petsc-sf", [s for s in skipped if not s[0].startswith("SNES")],
                                                 verdicts, False, unit="paired rounds")
    return [v for v in verdicts if v]


def judge_beyond_floor(verdict: goals.Verdict, gw: dict, basic: dict, name: str, floor: dict) -> None:
    """Where the floor alone (the pack floor where measured, else the copy floor) leaves no room for
    the bound (floor / basic above it, or within the reproducibility of it), the goal is judged on
    the time beyond the floor: (ghostwire - floor) / (basic - floor) at most the bound is status
    "floor" (what messages cost is within the goal). That share is a ratio of differences, negative
    in a round where the floor took longer than ghostwire itself: the verdict line says so in words
    (goals.Floor.describe) and gives the plain ghostwire / floor ratio of times instead."""
    if verdict.status in ("met", goals.NOT_MEASURED):
        return
    floor_ratios = goals.paired_ratios(floor, basic)
    if not floor_ratios or statistics.median(floor_ratios) < verdict.bound * (1 - goals.REPRODUCIBILITY):
        return
    keys = [k for k in gw if k in basic and k in floor and goals.positive(gw[k]) and goals.positive(floor[k])
            and goals.positive(basic[k]) and basic[k] > floor[k]]
    if not keys:
        return
    median, low, high = goals.median_interval([(gw[k] - floor[k]) / (basic[k] - floor[k]) for k in keys])
    plain = statistics.median(gw[k] / floor[k] for k in keys)
    below = sum(1 for k in keys if gw[k] < floor[k])
    verdict.floor = goals.Floor(f"{name} / basic", statistics.median(floor_ratios), median, low, high, verdict.bound,
                                kind="beyond", plain=plain, below=below, pairs=len(keys))
    verdict.notes.append(f"judged beyond the {name}: (ghostwire - floor) / (basic - floor)")
    if goals.satisfies(median, verdict.bound, False):
        verdict.status = "floor"
    elif goals.satisfies(low, verdict.bound, False):
        verdict.status = "tie"


def snes_verdicts(records: list[dict], alone: list[dict], skipped: list[tuple[str, str]] = ()) -> list[goals.Verdict]:
    """Total and scatter time from the -log_view of each run; the scatter goal, where the copy floor
    of SNES's scatter (timed alone, `alone`) leaves no room for it, judged beyond that floor.
    `skipped`: (where, goals) of the jobs the time budget left out, not measured."""
    verdicts = []
    for launch in sorted({r["launch"] for r in records}):
        mine = [r for r in records if r["launch"] == launch]
        by = {t: {r["repeat"]: r for r in mine if r["type"] == t} for t in TYPES}
        if not by["ghostwire"] or not by["basic"]:
            continue
        planned = max([r.get("repeats_asked") or 0 for r in mine]) or None
        for key, bound, text in (("scatter_seconds", 0.6, "scatter time (SF set-up apart) ghostwire / basic"),
                                 ("total_seconds", 1.0, "total time ghostwire / basic")):
            gw = {k: r[key] for k, r in by["ghostwire"].items()}
            basic = {k: r[key] for k, r in by["basic"].items()}
            verdict = goals.judge("petsc-snes-ex5", f"{launch}, NGS", text, goals.paired_ratios(gw, basic), bound, False,
                                  planned=planned)
            if verdict and key == "scatter_seconds":
                judge_scatter_alone(verdict, [r for r in alone if r["launch"] == launch])
            if verdict:
                verdicts.append(verdict)
    verdicts += goals.not_measured_where_skipped("petsc-snes-ex5", [s for s in skipped if s[0].startswith("SNES")],
                                                 verdicts, False)
    return verdicts


def judge_scatter_alone(verdict: goals.Verdict, alone: list[dict]) -> None:
    """Beside an unmet SNES scatter goal, what bounds it: the floors' shares of SNES's DMDA
    scatter timed alone. Only a note: SNES's scatter time also holds its local-only scatters and
    runs on cold caches, so the share does not carry over to it as a floor."""
    if verdict.status in ("met", goals.NOT_MEASURED):
        return
    types = {r["type"]: r for r in alone if r.get("verified", True)}
    if "basic" not in types:
        return
    basic = per_round(types["basic"]["round_seconds"])
    medians = {f: goals.paired_median(per_round(types[f]["round_seconds"]), basic) for f in FLOORS if f in types}
    shares = [f"the {f} alone is {share:.2f}" for f, share in medians.items() if share is not None]
    if shares:
        verdict.notes.append(f"its scatter timed alone: {', '.join(shares)} of basic's time "
                             "(gw-petsc-sf-bench -global, snes_sf.jsonl)")


def residuals_differ(records: list[dict]) -> list[str]:
    """Runs whose residual history is not basic's (the solution would differ)."""
    reference = {(r["launch"], r["repeat"]): r["residuals"] for r in records if r["type"] == "basic"}
    return [f"{r['launch']} {r['type']} repeat {r['repeat']}" for r in records
            if r["type"] != "basic" and reference.get((r["launch"], r["repeat"])) not in (None, r["residuals"])]


def columns(records: list[dict]) -> list[str]:
    """The types in the table's order: PETSc's, ghostwire, its forced transfers, the floors."""
    present = {r["type"] for r in records}
    transfers = sorted(t for t in present if t.startswith("ghostwire:"))
    return [t for t in TYPES if t in present] + transfers + [f for f in FLOORS if f in present]


def summary(records: list[dict], snes: list[dict], alone: list[dict], skipped: list[tuple[str, str]] = ()) -> str:
    shown = columns(records)
    lines = [f"{'launch':<12} {'op':<8} {'case':<14} {'B/nbr':>8}  " + " ".join(f"{t:>11}" for t in shown)
             + "  gw/basic  gw/best"]
    for (launch, op, dim, dof, n), types in sorted(sf_points(records).items()):
        size = next(iter(types.values()))["bytes_per_neighbour"]
        cells = " ".join(f"{1e6 * types[t]['seconds']:>8.2f} us" if t in types else f"{'-':>11}" for t in shown)
        to_basic = types["ghostwire"]["ratio_to_basic"] if "ghostwire" in types else None
        ratio = f"{to_basic:>8.3f}" if goals.positive(to_basic) else f"{'-':>8}"
        best = goals.paired_median(per_round(types["ghostwire"]["round_seconds"]), best_other(types)) \
            if "ghostwire" in types else None
        best_text = f"{best:>8.3f}" if best else f"{'-':>8}"
        lines.append(f"{launch:<12} {op:<8} {f'{dim}-D dof{dof} n={n}':<14} {size:>8}  {cells}  {ratio}  {best_text}")
    separate = [t for t in SEPARATE if t in shown]
    if separate:
        lines += ["", f"{', '.join(separate)}: timed in a job of its own beside basic (its time there; compared "
                      "with ghostwire through its paired ratios to that basic)"]
    unverified = sorted({f"{r['type']} ({r['launch']}, {r['op']}, {r['dim']}-D dof {r['dof']} n={r['n']})"
                         for r in records if not r.get("verified", True)})
    if unverified:
        lines += ["", "left out, their results differ from basic's: " + ", ".join(unverified)]
    if snes:
        lines += ["", "SNES ex5, nonlinear Gauss-Seidel (median of repeats): total, scatter (VecScatterBegin + End "
                      "without the SF set-up PETSc does in the first) and SF set-up seconds"]
        for launch in sorted({r["launch"] for r in snes}):
            for t in TYPES:
                mine = [r for r in snes if r["launch"] == launch and r["type"] == t]
                if mine:
                    lines.append(f"  {launch:<12} {t:<10} total {statistics.median(r['total_seconds'] for r in mine):8.3f} s"
                                 f"  scatter {statistics.median(r['scatter_seconds'] for r in mine):8.3f} s"
                                 f"  SF set-up {statistics.median(r.get('setup_seconds', 0.0) for r in mine):8.4f} s")
        differ = residuals_differ(snes)
        lines.append("  residual histories: " + ("all equal to basic's" if not differ else "DIFFER: " + ", ".join(differ)))
        for r in sorted(alone, key=lambda r: (r["launch"], r["type"])):
            share = f"  x{r['ratio_to_basic']:.3f} of basic" if goals.positive(r["ratio_to_basic"]) else ""
            lines.append(f"  its scatter alone ({r['launch']}, {r['global'][0]}x{r['global'][1]}): {r['type']:<10} "
                         f"{1e6 * r['seconds']:9.2f} us{share}")
    verdicts = sf_verdicts(records, skipped) + snes_verdicts(snes, alone, skipped)
    lines += ["", "Goals (medians of paired rounds): " + goals.summary_line(verdicts)]
    lines += [v.line() for v in verdicts if v.status != "met"]
    return "\n".join(lines)


def plot(records: list[dict], out_dir: Path):
    plt = common.pyplot()
    if plt is None:
        return None
    launches = [l for l in LAUNCHES if any(r["launch"] == l for r in records)]
    figure, axes = plt.subplots(2, len(launches), figsize=(5 * len(launches), 7), squeeze=False)
    for column, launch in enumerate(launches):
        for row, op in enumerate(("forward", "reverse")):
            axis = axes[row][column]
            mine = [r for r in records if r["launch"] == launch and r["op"] == op and "@" not in point_name(r)]
            sizes = sorted({r["bytes_per_neighbour"] for r in mine})
            for t in [c for c in columns(records) if c != "basic"]:
                points = sorted((r["bytes_per_neighbour"], r["ratio_to_basic"], r["dim"], r["dof"]) for r in mine if r["type"] == t)
                for dim, dof in sorted({(p[2], p[3]) for p in points}):
                    xs = [p for p in points if (p[2], p[3]) == (dim, dof)]
                    axis.plot([p[0] for p in xs], [p[1] for p in xs], marker="o", linewidth=1,
                              label=f"{t} {dim}-D dof {dof}",
                              linestyle="-" if t == "ghostwire" else "--" if t in FLOORS else ":")
            axis.axhline(1.0, color="grey", linewidth=0.8)
            if sizes:
                common.finish_axis(axis, sizes, "bytes per neighbour", "time / basic's", log_base=2)
                axis.tick_params(axis="x", labelrotation=45, labelsize=6)
            axis.set_title(f"{launch}, {op}", fontsize=9)
    return common.save_figure(plt, figure, "PetscSF types on a DMDA global-to-local scatter", out_dir / "petsc_sf.png")


def report(out_dir: Path) -> None:
    records = common.load_records(out_dir / "sf.jsonl", "round_seconds")
    snes = common.load_records(out_dir / "snes.jsonl", "total_seconds")
    alone = common.load_records(out_dir / "snes_sf.jsonl", "round_seconds")
    skipped = common.skipped_goals(out_dir)
    common.write_report(PROGRAM, out_dir, "sf.jsonl", records, lambda r: summary(r, snes, alone, skipped), plot)
    goals.write(out_dir / "goals.json", sf_verdicts(records, skipped) + snes_verdicts(snes, alone, skipped))


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common.add_driver_options(parser, "petsc", repeats=11, seconds=0.0, seconds_help="(unused)", timeout=900,
                              timeout_help="seconds per job", budget=True)
    parser.add_argument("--launches", default=",".join(LAUNCHES), help="of " + ", ".join(LAUNCHES))
    parser.add_argument("--sizes-2d", default="64,256,1024", help="2-D points per rank per dimension")
    parser.add_argument("--sizes-3d", default="16,32,64,128", help="3-D points per rank per dimension")
    parser.add_argument("--separate-repeats", type=int, default=5,
                        help="rounds of the jobs of " + ", ".join(SEPARATE) + " beside basic")
    parser.add_argument("--separate-iters", type=int, default=0,
                        help="scatters per timing in those jobs (default 0: about 10 ms of basic's, at least 5)")
    parser.add_argument("--transfers", default="segment,cma",
                        help="ghostwire's transfers also timed forced (-sf_ghostwire_transfer), comma-separated; "
                             "empty for none")
    parser.add_argument("--snes-repeats", type=int, default=3, help="SNES ex5 runs per type and launch")
    parser.add_argument("--snes-launches", help="launches SNES ex5 runs on (default: all of --launches)")
    parser.add_argument("--snes-types", default=",".join(TYPES), help="types SNES ex5 runs with")
    parser.add_argument("--snes-grid", type=int, default=1024, help="SNES ex5 grid points per dimension")
    parser.add_argument("--no-snes", action="store_true", help="skip SNES ex5")
    parser.add_argument("--quick", action="store_true", help="fewer sizes, smaller SNES grid")
    opts = parser.parse_args()
    opts.launches = common.chosen_launches(PROGRAM, opts.launches, LAUNCHES, opts.mpi)
    opts.snes_launches = opts.launches if opts.snes_launches is None else opts.snes_launches.split(",")
    opts.snes_types = ["basic"] + [t for t in opts.snes_types.split(",") if t and t != "basic"]
    unknown = [t for t in opts.snes_types if t not in TYPES]
    if unknown:
        parser.error(f"--snes-types: unknown type {', '.join(unknown)} (known: {', '.join(TYPES)})")
    opts.transfers = [t for t in opts.transfers.split(",") if t]
    bad = [t for t in opts.transfers if t not in ("segment", "cma")]
    if bad:
        parser.error(f"--transfers: unknown transfer {', '.join(bad)} (known: segment, cma)")
    return opts


def main() -> int:
    opts = options()
    if opts.report:
        report(Path(opts.report))
        return 0
    program = Path(opts.build_dir) / "bench" / "petsc" / "gw-petsc-sf-bench"
    if not program.exists() and not opts.dry_run:
        # Built only where PETSc is (Debian's petsc-dev, on Open MPI): say so and leave no goals.
        out_dir = common.results_dir(opts, "petsc")
        out_dir.mkdir(parents=True, exist_ok=True)
        why = f"PetscSF benchmark skipped: {program} is not built (PETSc missing, or a tree on another MPI)"
        (out_dir / "summary.txt").write_text(why + "\n")
        goals.write(out_dir / "goals.json", [])
        print(f"{PROGRAM}: {why}")
        return 0
    types = TYPES if library(opts).exists() else TYPES[:3]
    if len(types) < len(TYPES):
        print(f"{PROGRAM}: {library(opts)} is missing: measuring PETSc's own types only")
    out_dir = common.results_dir(opts, "petsc")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = common.new_meta(launches=opts.launches, types=types, repeats=opts.repeats)
    common.announce(PROGRAM, out_dir, meta)
    failures: list[str] = []
    budget = common.Budget(PROGRAM, opts.budget)
    work = Work(budget, expected_work(opts, types))
    with open(out_dir / "log.txt", "w") as log:
        run_sf(opts, out_dir, log, types, failures, work)
        if not opts.no_snes:
            run_snes(opts, out_dir, log, types, failures, work)
    if opts.dry_run:
        return 0
    budget.save(out_dir)
    meta["budget"] = budget.record()
    return common.conclude(PROGRAM, meta, out_dir, failures, report)


if __name__ == "__main__":
    sys.exit(main())
