#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The CloverLeaf benchmark: every exchange variant of gw-cloverleaf (as its --help lists
them: mpi, the reference's scheme, and the ghostwire variants) x sync mode (p2p, global) side by
side, on clover_bm_short (960 x 960) and on a strong-scaling case where the exchange matters
(clover_strong, 128 x 128: 64 x 128 cells per rank at 2 ranks, 64 x 64 at 4), at 1, 2 and 4 ranks on one node,
2 ranks on emulated nodes and 2 ranks on two hosts; optionally gw-cloverleaf against the reference
Fortran code on one rank.

    bench/cloverleaf/run_cloverleaf_bench.py                    the default matrix (about 2-3 minutes)
    bench/cloverleaf/run_cloverleaf_bench.py --quick            a smoke test: few steps, 2 rounds
    bench/cloverleaf/run_cloverleaf_bench.py --reference /path/to/CloverLeaf_ref/clover_leaf
    bench/cloverleaf/run_cloverleaf_bench.py --report DIR       the table, goals and plot of an earlier run

Every (launch, deck) is one job of gw-cloverleaf's side-by-side mode (--exchange all of them --sync
p2p,global --rounds R): every variant runs once per round, in an order rotated from round to round,
each from a freshly generated problem, the same steps. Speeds are steps per second of the timestep
loop (the JSON line's wall_s). Goals are judged by the median over the rounds of each round's time
ratio (the variants of a round ran moments apart, so the VM's slow and fast spells cancel): the best
ghostwire variant (the gw-* exchange and sync with the smallest median time) at most mpi's time (the
faster of its sync modes) at every launch and deck, and at most 1/1.1 of it on the strong-scaling
case at 2 and 4 ranks on one node; there `commfree` (no exchange at all: wrong physics, the same
steps) runs too, and where even it is not 1.1x faster than mpi, the best variant is judged against
it instead (at most 1.0x its time). With --reference (or CLOVERLEAF_REF) the reference's clover_leaf
runs clover_bm_short on one rank (in a temporary folder, the deck copied to clover.in,
OMP_NUM_THREADS=1, mpirun -np 1; its time is clover.out's last "Wall clock"), interleaved round by
round with a job of gw-cloverleaf's mpi variant on the same deck; goal gw / reference at most 1.0.

Writes results/cloverleaf-<timestamp>/ (or --out): cloverleaf.jsonl (gw-cloverleaf's JSON lines with
launch, deck name and repeat added, and the reference's runs), cloverleaf.log, summary.txt,
goals.json, cloverleaf.png, meta.json. Only a run on an otherwise idle machine means anything.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_common import (JOB_OVERHEAD, ROOT, Budget, add_driver_options, announce,  # noqa: E402
                          append_records, chosen_launches, conclude, launch_command, load_records, new_meta,
                          parse_json_line, pyplot, results_dir, run_side_by_side, save_figure, skipped_goals,
                          write_report)
from bench_common import APP_LAUNCHES as LAUNCHES  # noqa: E402
import goals  # noqa: E402

DECK_DIR = ROOT / "apps" / "cloverleaf" / "decks"
DECKS = ["clover_bm_short", "clover_strong"]
STRONG = "clover_strong"
SYNCS = ["p2p", "global"]
DEFAULT_LAUNCHES = "intra-1,intra-2,intra-4,emulated-2,multihost-2"

# The default length of a job, chosen for the suite's budget of about 2-3 minutes on 2 cores with
# the 8 variants of today's build (4 exchanges x 2 sync modes). Measured on the 2-vCPU VM (lightly
# loaded): clover_bm_short's 960 x 960 step takes ~80 ms on one rank and ~45 ms on two, plus ~0.15 s
# per run to allocate and generate the fields; clover_strong's 128 x 128 step ~0.8 ms and ~0.45 ms.
#  - Steps per run: 6 of clover_bm_short's 87 (0.4-0.6 s per run; its test problem is not checked
#    then, the tests do that), 300 of clover_strong's 1000 (0.2-0.3 s). Shorter runs are dominated
#    by the VM's jitter; every variant computes the same steps.
#  - Rounds: 7 on clover_strong at intra-2 and intra-4 (its 1.1x goal needs the narrowest interval;
#    with 3 rounds verdicts flipped between runs: a median of 3 paired rounds moves with one slow
#    round), 5 elsewhere; 2 on one rank, where no variant exchanges anything (one chunk) and the goal
#    only checks that a variant costs nothing there.
# The section took 5.3 minutes on the Intel Xeon VM with 8 and 400 steps and 7 rounds everywhere
# (the main job at 19.4 of its 15 minutes once the PetscSF section came in); these settings cut it
# by about a third.
DEFAULT_STEPS = {"clover_bm_short": 6, "clover_strong": 300}
QUICK_STEPS = {"clover_bm_short": 3, "clover_strong": 60}
GOAL_ROUNDS = 7
OTHER_ROUNDS = 5
SINGLE_RANK_ROUNDS = 2
STRONG_GOAL_LAUNCHES = ("intra-2", "intra-4")
STRONG_SPEEDUP = 1.1
# No exchange at all (wrong physics, the same steps): the floor of the 1.1x goal, run on STRONG only.
COMMFREE = "commfree"
# The reference comparison: the whole clover_bm_short (87 steps, 4-5 s a run on one rank) per round.
REFERENCE_LAUNCH, REFERENCE_DECK, REFERENCE_ROUNDS = "intra-1", "clover_bm_short", 3
# The study's questions, answered where both variants ran: (question, faster-if-above-1 variant, other).
# gw-buffers packs every field of a call into one message per neighbour, gw-sections moves each
# field's face straight from the field, one message each: in this set of variants one pair answers
# both "buffers vs sections" and "aggregated vs per-field".
QUESTIONS = [("buffers vs sections, aggregated vs per-field", "gw-buffers", "gw-sections"),
             ("diagonal neighbours vs two hops", "gw-grid", "gw-buffers"),
             ("ghostwire vs MPI, both buffers in two hops", "gw-buffers", "mpi")]
WALL_CLOCK = re.compile(r"Wall clock\s+([0-9.EeDd+-]+)")


# ---------------------------------------------------------------- running

def exchanges_in_build(program: Path) -> list[str]:
    """The names under gw-cloverleaf --help's "exchanges in this build:", up to the blank line."""
    text = subprocess.run([str(program), "--help"], capture_output=True, text=True, check=True).stdout
    lines = text.splitlines()
    names = []
    for line in lines[lines.index("exchanges in this build:") + 1:]:
        if not line.strip():
            break
        names.append(line.split()[0])
    return names


def rounds_for(opts, launch: str, deck: str) -> int:
    if opts.rounds:
        return opts.rounds
    if LAUNCHES[launch][1] == 1:
        return SINGLE_RANK_ROUNDS
    return GOAL_ROUNDS if deck == STRONG and launch in STRONG_GOAL_LAUNCHES else OTHER_ROUNDS


def deck_path(deck: str) -> Path:
    return DECK_DIR / f"{deck}.in"


# The model of a job's length, for the time budget (the pace measured by the first job corrects
# it), from the numbers above: a step on one rank, and a run's set-up, both for the deck's cells.
STEP_SECONDS_ONE_RANK = {"clover_bm_short": 0.080, "clover_strong": 0.0008}
RUN_SETUP_SECONDS = {"clover_bm_short": 0.15, "clover_strong": 0.003}
REFERENCE_ROUND_SECONDS = 10.0  # the reference and gw-cloverleaf on all 87 steps, one rank


def job_exchanges(opts, deck: str) -> list[str]:
    return [e for e in opts.exchange_list if e != COMMFREE or deck == STRONG]


def job_model(opts, launch: str, deck: str) -> tuple[float, float]:
    """(seconds per round, seconds of overhead) of a job: every variant runs once a round; ranks
    share the cores (2 ranks: ~0.55 of one rank's step)."""
    ranks = LAUNCHES[launch][1]
    cores = min(ranks, os.cpu_count() or 1)
    step = STEP_SECONDS_ONE_RANK.get(deck, 0.01) * (1.0 if cores == 1 else 1.1 / cores)
    variants = len(job_exchanges(opts, deck)) * len(opts.sync_list)
    return variants * (opts.steps[deck] * step + RUN_SETUP_SECONDS.get(deck, 0.1)), JOB_OVERHEAD


def run_job(launch: str, deck: str, opts, log, repeat: int, work: Path, rounds: int | None = None) -> list[dict] | None:
    """One job of every variant side by side on one deck, `rounds` rounds (default rounds_for);
    their JSON records (one per run)."""
    asked = rounds_for(opts, launch, deck)
    rounds = rounds or asked
    exchanges = job_exchanges(opts, deck)
    command = launch_command(opts, launch) + [
        "--", str(opts.program), str(deck_path(deck)), "--quiet", "--exchange", ",".join(exchanges),
        "--sync", ",".join(opts.sync_list), "--rounds", str(rounds), "--end-step", str(opts.steps[deck]),
        "--out", str(work / f"{launch}.{deck}.out")]
    variants = len(exchanges) * len(opts.sync_list)
    records = run_side_by_side(command, log, "cloverleaf", variants * rounds, f"{launch} {deck}", opts.dry_run)
    if records is None:
        return None
    for record in records:
        record.update(launch=launch, deck_name=deck, repeat=repeat, rounds=rounds, rounds_asked=asked,
                      repeats_asked=opts.repeats)
        record.pop("kernel_s", None)
    return records


def run_reference_round(opts, log, repeat: int, round_: int, work: Path) -> list[dict] | None:
    """One round of the single-rank comparison: the reference's clover_leaf and gw-cloverleaf's mpi
    variant on the whole clover_bm_short, one after the other (the order alternates by round), each
    a job of its own; a record of each, or None on a failure."""
    deck = deck_path(REFERENCE_DECK)
    folder = work / f"reference.{repeat}.{round_}"
    folder.mkdir()
    shutil.copyfile(deck, folder / "clover.in")
    base = launch_command(opts, REFERENCE_LAUNCH)
    jobs = {"reference": base + ["--", opts.reference],
            "gw": base + ["--", str(opts.program), str(deck), "--quiet", "--exchange", "mpi",
                          "--out", str(folder / "gw.out")]}
    order = ["reference", "gw"] if round_ % 2 == 0 else ["gw", "reference"]
    records = []
    for which in order:
        shown = f"(in {folder}) OMP_NUM_THREADS=1 {shlex.join(jobs[which])}"
        log.write(f"\n== {shown}\n")
        if opts.dry_run:
            print(shown)
            continue
        result = subprocess.run(jobs[which], capture_output=True, text=True, cwd=folder,
                                env={**os.environ, "OMP_NUM_THREADS": "1"})
        log.write(result.stdout[-4000:] + result.stderr)
        log.flush()
        if result.returncode != 0:
            print(f"!! reference comparison, round {round_}: {which} exit status {result.returncode} "
                  f"(see {log.name})", flush=True)
            return None
        common = {"launch": REFERENCE_LAUNCH, "deck_name": REFERENCE_DECK, "repeat": repeat, "round": round_}
        if which == "gw":
            found = [r for r in map(parse_json_line, result.stdout.splitlines()) if r and r.get("app") == "cloverleaf"]
            if len(found) != 1:
                print(f"!! reference comparison, round {round_}: no JSON line from gw-cloverleaf", flush=True)
                return None
            found[0].pop("kernel_s", None)
            records.append({**found[0], **common, "pair": "reference"})
        else:
            text = (folder / "clover.out").read_text(errors="replace") if (folder / "clover.out").exists() else ""
            clocks = WALL_CLOCK.findall(text)
            if not clocks:
                print(f"!! reference comparison, round {round_}: no 'Wall clock' line in {folder}/clover.out",
                      flush=True)
                return None
            records.append({"app": "cloverleaf-reference", **common, "program": opts.reference,
                            "rounds_asked": opts.reference_rounds * opts.repeats,
                            "wall_s": float(clocks[-1].replace("D", "E").replace("d", "e")),
                            "verdict": "PASSED" if "This test is considered PASSED" in text else "NOT PASSED"})
    return records


def check_agreement(records: list[dict], what: str) -> None:
    """Every run of a job did the same computation: their final summaries must agree (1e-9), and a
    checked test problem must have PASSED. Says so where not (the timings would mean nothing).
    commfree computes something else by design and is left out."""
    records = [r for r in records if r["exchange"] != COMMFREE]
    if not records:
        return
    first = records[0]["summary"]
    for r in records[1:]:
        for key, value in r["summary"].items():
            base = first.get(key)
            if base != value and abs(value - base) > 1e-9 * max(abs(value), abs(base)):
                print(f"!! {what}: {r['exchange']} {r['sync']} round {r.get('round')}: final {key} {value!r}, "
                      f"{records[0]['exchange']} {records[0]['sync']}: {base!r}", flush=True)
                return
    failed = [f"{r['exchange']} {r['sync']}" for r in records if r.get("verdict") not in (None, "PASSED")]
    if failed:
        print(f"!! {what}: test problem NOT PASSED by {', '.join(failed)}", flush=True)


# ---------------------------------------------------------------- reporting

def load(out_dir: Path) -> list[dict]:
    return load_records(out_dir / "cloverleaf.jsonl", "wall_s")


def variant_of(record: dict) -> str:
    return f"{record['exchange']} {record['sync']}"


def side_by_side_records(records: list[dict]) -> list[dict]:
    return [r for r in records if r.get("app") == "cloverleaf" and "pair" not in r]


def round_times(records: list[dict], launch: str, deck: str) -> dict[str, dict[tuple, float]]:
    """variant -> {(repeat, round): seconds of the run's timestep loop} at one launch and deck."""
    times: dict[str, dict[tuple, float]] = {}
    for r in side_by_side_records(records):
        if r["launch"] == launch and r["deck_name"] == deck and r["wall_s"] > 0:
            times.setdefault(variant_of(r), {})[(r["repeat"], r.get("round", 1))] = r["wall_s"]
    return times


def ordered(records: list[dict]) -> tuple[list[str], list[str], list[str]]:
    """The launches, decks and variants present, in the driver's order (variants as the job ran them:
    exchanges by --help's order, mpi first, then the sync modes)."""
    runs = side_by_side_records(records)
    launches = [name for name in LAUNCHES if any(r["launch"] == name for r in runs)]
    decks = [d for d in DECKS if any(r["deck_name"] == d for r in runs)]
    decks += sorted({r["deck_name"] for r in runs} - set(decks))
    exchanges = sorted({r["exchange"] for r in runs}, key=exchange_order)
    syncs = [s for s in SYNCS if any(r["sync"] == s for r in runs)]
    return launches, decks, [f"{e} {s}" for e in exchanges for s in syncs]


def exchange_order(exchange: str) -> tuple:
    """mpi first, commfree (the floor) last, the rest by name."""
    return (exchange == COMMFREE, exchange != "mpi", exchange)


def median_time(times: dict[tuple, float]) -> float:
    return statistics.median(times.values())


def best(times: dict[str, dict[tuple, float]], prefix: str) -> str | None:
    """The variant of an exchange starting with `prefix` with the smallest median time."""
    candidates = [v for v in times if v.split()[0].startswith(prefix)]
    return min(candidates, key=lambda v: median_time(times[v])) if candidates else None


def speed_ratio(times: dict[str, dict[tuple, float]], top: str, bottom: str) -> float | None:
    """Median over the rounds of top's speed over bottom's (bottom's time / top's time)."""
    ratios = goals.paired_ratios(times.get(bottom, {}), times.get(top, {}))
    return statistics.median(ratios) if ratios else None


def reference_times(records: list[dict]) -> tuple[dict[tuple, float], dict[tuple, float]]:
    gw, ref = {}, {}
    for r in records:
        key = (r["repeat"], r["round"])
        if r.get("app") == "cloverleaf-reference":
            ref[key] = r["wall_s"]
        elif r.get("pair") == "reference":
            gw[key] = r["wall_s"]
    return gw, ref


def planned_rounds(records: list[dict], launch: str, deck: str) -> int | None:
    """The rounds the run asked for at a launch and deck, over all its repeats (None for runs from
    before the driver recorded it)."""
    asked = [r["rounds_asked"] * r["repeats_asked"] for r in side_by_side_records(records)
             if r["launch"] == launch and r["deck_name"] == deck and "rounds_asked" in r]
    return max(asked) if asked else None


def verdicts(records: list[dict], skipped: list[tuple[str, str]] = ()) -> list[goals.Verdict]:
    """`skipped`: (where, goals) of the jobs the time budget left out, not measured."""
    launches, decks, _ = ordered(records)
    found = []
    for deck in decks:
        for launch in launches:
            times = round_times(records, launch, deck)
            gw, mpi = best(times, "gw"), best(times, "mpi")
            if not gw or not mpi:
                continue
            # Choosing the best of several variants by the same rounds favours it slightly (the
            # suite's "best MPI variant" goals do the same the other way round).
            ratios = goals.paired_ratios(times[gw], times[mpi])
            where = f"{launch}, {deck}"
            text = f"best gw ({gw}) / {mpi}"
            planned = planned_rounds(records, launch, deck)
            found.append(goals.judge("cloverleaf", where, text, ratios, 1.0, at_least=False, unit="paired rounds",
                                     headline=deck == STRONG and launch == "intra-2", planned=planned))
            if deck == STRONG and launch in STRONG_GOAL_LAUNCHES:
                # No exchange beats none: where commfree / mpi itself is above 1/1.1 (mpi's exchange
                # is less than a tenth of a step), best gw is judged against commfree instead, at
                # most 1.0 (as fast as no exchange at all).
                commfree = times.get(f"{COMMFREE} p2p", {})
                found.append(goals.judge("cloverleaf", where, text, ratios, 1.0 / STRONG_SPEEDUP, at_least=False,
                                         unit="paired rounds", floor_text=f"{COMMFREE} p2p / {mpi}",
                                         floor_ratios=goals.paired_ratios(commfree, times[mpi]),
                                         versus_floor=goals.paired_ratios(times[gw], commfree), floor_bound=1.0,
                                         planned=planned))
    gw, ref = reference_times(records)
    if ref:
        asked = [r.get("rounds_asked") for r in records if r.get("app") == "cloverleaf-reference"]
        found.append(goals.judge("cloverleaf", f"{REFERENCE_LAUNCH}, {REFERENCE_DECK} (all 87 steps)",
                                 "gw-cloverleaf mpi / reference Fortran", goals.paired_ratios(gw, ref), 1.0,
                                 at_least=False, unit="paired rounds", headline=True,
                                 planned=max([a for a in asked if a], default=None)))
    found += goals.not_measured_where_skipped("cloverleaf", skipped, found, at_least=False, unit="paired rounds")
    return [v for v in found if v]


def summary(records: list[dict], skipped: list[tuple[str, str]] = ()) -> str:
    launches, decks, variants = ordered(records)
    runs = side_by_side_records(records)
    lines = ["CloverLeaf: steps per second of the timestep loop (median over the rounds), every variant side by "
             "side in one job per launch and deck; in brackets its speed / mpi p2p's (median of the paired "
             "rounds; above 1 is faster)"]
    for deck in decks:
        some = next(r for r in runs if r["deck_name"] == deck)
        rounds = sorted({r["rounds"] for r in runs if r["deck_name"] == deck})
        lines += ["", f"{deck}: {some['x_cells']} x {some['y_cells']} cells, {some['steps']} steps per run, "
                      f"{'/'.join(map(str, rounds))} rounds per job",
                  f"{'variant':<20}" + "".join(f"{launch:>17}" for launch in launches)]
        table = {launch: round_times(records, launch, deck) for launch in launches}
        for variant in [v for v in variants if any(v in times for times in table.values())]:
            cells = []
            for launch in launches:
                times = table[launch].get(variant)
                if not times:
                    cells.append(f"{'-':>17}")
                    continue
                speed = some["steps"] / median_time(times)
                ratio = speed_ratio(table[launch], variant, "mpi p2p") if variant != "mpi p2p" else None
                cells.append(f"{speed:>9.1f}" + (f" ({ratio:.2f})" if ratio else " " * 7))
            lines.append(f"{variant:<20}" + "".join(cells))
        best_row = []
        for launch in launches:
            gw, mpi = best(table[launch], "gw"), best(table[launch], "mpi")
            ratio = speed_ratio(table[launch], gw, mpi) if gw and mpi else None
            best_row.append(f"{ratio:>17.3f}" if ratio else f"{'-':>17}")
        lines.append(f"{'best gw / mpi speed':<20}" + "".join(best_row))
        lines += study_questions(table, launches)
    gw, ref = reference_times(records)
    if ref:
        lines += ["", f"Single rank against the reference Fortran ({REFERENCE_DECK}, all steps, "
                      f"{len(ref)} rounds): median seconds gw-cloverleaf mpi {statistics.median(gw.values()):.3f}, "
                      f"reference {statistics.median(ref.values()):.3f}"]
    else:
        lines += ["", "Single rank against the reference Fortran: skipped (give --reference PATH to a built "
                      "CloverLeaf_ref clover_leaf, or set CLOVERLEAF_REF; see docs/cloverleaf.md)"]
    found = verdicts(records, skipped)
    if found:
        lines += ["", f"Goals (time ratios, the median over the rounds of each round's ratio, with its "
                      f"~95% interval): {goals.summary_line(found)}"]
        lines += [v.line() for v in found]
    elif runs:
        lines += ["", "Goals: not judged (no gw-* exchange in this build)"]
    return "\n".join(lines)


def study_questions(table: dict, launches: list[str]) -> list[str]:
    """The study's questions, as speed ratios (median of paired rounds) where both variants ran."""
    rows = []
    for question, top, bottom in QUESTIONS:
        for sync in SYNCS:
            ratios = [speed_ratio(table[launch], f"{top} {sync}", f"{bottom} {sync}") for launch in launches]
            if any(ratios):
                rows.append((f"{question}: {top} / {bottom} {sync}", ratios))
    exchanges = sorted({v.split()[0] for times in table.values() for v in times}, key=exchange_order)
    for exchange in exchanges:
        ratios = [speed_ratio(table[launch], f"{exchange} p2p", f"{exchange} global") for launch in launches]
        if any(ratios):
            rows.append((f"p2p vs global: {exchange} p2p / global", ratios))
    if not rows:
        return []
    header = "the study's questions (speed ratios; above 1: the first is faster)"
    width = max(len(header), *(len(text) for text, _ in rows)) + 2
    lines = ["", f"  {header:<{width}}" + "".join(f"{launch:>13}" for launch in launches)]
    for text, ratios in rows:
        lines.append(f"  {text:<{width}}" + "".join(f"{r:>13.3f}" if r else f"{'-':>13}" for r in ratios))
    return lines


def plot(records: list[dict], out_dir: Path) -> Path | None:
    plt = pyplot()
    launches, decks, variants = ordered(records)
    if plt is None or not decks:
        return None
    figure, axes = plt.subplots(len(decks), 1, figsize=(4.5 + 1.9 * len(launches), 3.8 * len(decks)), squeeze=False)
    exchanges = list(dict.fromkeys(v.split()[0] for v in variants))
    width = 0.84 / max(1, len(variants))
    for axis, deck in zip(axes[:, 0], decks):
        steps = next(r["steps"] for r in side_by_side_records(records) if r["deck_name"] == deck)
        for i, launch in enumerate(launches):
            times = round_times(records, launch, deck)
            for j, variant in enumerate(variants):
                if variant not in times:
                    continue
                exchange, sync = variant.split()
                axis.bar(i + (j - (len(variants) - 1) / 2) * width, steps / median_time(times[variant]), width * 0.92,
                         color=f"C{exchanges.index(exchange)}", hatch="//" if sync == "global" else None,
                         edgecolor="white" if sync == "global" else None, label=variant if i == 0 else None)
        axis.set_xticks(range(len(launches)), launches)
        axis.set_ylabel("steps / s")
        axis.set_title(deck, fontsize=10)
        axis.grid(axis="y", alpha=0.3)
        axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return save_figure(plt, figure, "gw-cloverleaf: steps/s per variant (hatched: --sync global)",
                       out_dir / "cloverleaf.png")


def report(out_dir: Path) -> str:
    records = load(out_dir)
    skipped = skipped_goals(out_dir)
    text = write_report("run_cloverleaf_bench", out_dir, "cloverleaf.jsonl", records, lambda r: summary(r, skipped),
                        plot)
    goals.write(out_dir / "goals.json", verdicts(records, skipped))
    return text


# ---------------------------------------------------------------- command line

def names(text: str, known: list[str], what: str) -> list[str]:
    chosen = [n for n in text.split(",") if n]
    unknown = [n for n in chosen if n not in known]
    if unknown or not chosen:
        sys.exit(f"run_cloverleaf_bench: {what}: unknown {', '.join(unknown) or 'empty list'} "
                 f"(known: {', '.join(known)})")
    return chosen


def step_overrides(text: str, steps: dict[str, int]) -> dict[str, int]:
    """--steps deck=N,...: the steps per run of those decks."""
    steps = dict(steps)
    for item in filter(None, text.split(",")):
        deck, _, n = item.partition("=")
        if deck not in DECKS or not n.isdigit() or int(n) < 1:
            sys.exit(f"run_cloverleaf_bench: --steps takes deck=N with a deck of {', '.join(DECKS)}, got {item!r}")
        steps[deck] = int(n)
    return steps


def progress_line(records: list[dict], launch: str, deck: str) -> str:
    """A job's progress line: steps/s per variant and the best gw / mpi (after checking that every
    run computed the same)."""
    check_agreement(records, f"{launch} {deck}")
    times = round_times(records, launch, deck)
    steps = records[0]["steps"]
    rates = "  ".join(f"{v.replace(' ', '/')} {steps / median_time(t):.1f}" for v, t in times.items())
    gw, mpi = best(times, "gw"), best(times, "mpi")
    ratio = speed_ratio(times, gw, mpi) if gw and mpi else None
    return f"{launch} {deck}: steps/s {rates}" + (f"  best gw/mpi speed {ratio:.2f}" if ratio else "")


def reference_line(records: list[dict]) -> str:
    first = records[0]
    seconds = "  ".join(f"{'reference' if r['app'] == 'cloverleaf-reference' else 'gw mpi'} {r['wall_s']:.3f} s"
                        for r in records)
    return f"{first['launch']} {first['deck_name']} against the reference, round {first['round']}: {seconds}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help=f"smoke test: {QUICK_STEPS} steps per run, 2 rounds, 1 reference round")
    parser.add_argument("--launches", default=DEFAULT_LAUNCHES, help=f"comma separated, of: {', '.join(LAUNCHES)}")
    parser.add_argument("--decks", default=",".join(DECKS), help="comma separated, of: " + ", ".join(DECKS))
    parser.add_argument("--exchanges", help="comma separated (default: every exchange gw-cloverleaf --help lists)")
    parser.add_argument("--syncs", default=",".join(SYNCS), help="comma separated, of: p2p, global")
    parser.add_argument("--rounds", type=int, default=0,
                        help=f"rounds per job (default {GOAL_ROUNDS} on {STRONG}, "
                             f"{SINGLE_RANK_ROUNDS} on one rank, {OTHER_ROUNDS} on the other decks)")
    parser.add_argument("--steps", default="", help=f"steps per run, deck=N,... (default {DEFAULT_STEPS})")
    parser.add_argument("--reference", default=os.environ.get("CLOVERLEAF_REF"),
                        help="the reference's built clover_leaf (default: $CLOVERLEAF_REF); compared on one rank")
    parser.add_argument("--reference-rounds", type=int, default=REFERENCE_ROUNDS,
                        help="rounds of the reference comparison (each the whole clover_bm_short, twice)")
    add_driver_options(parser, "cloverleaf", repeats=1, seconds=0, seconds_help="unused (steps x rounds set the "
                       "length)", timeout=900, timeout_help="seconds per job", budget=True)
    opts = parser.parse_args()
    if opts.report:
        return 0 if report(Path(opts.report)) else 1
    opts.steps = step_overrides(opts.steps, QUICK_STEPS if opts.quick else DEFAULT_STEPS)
    if opts.quick:
        opts.rounds, opts.reference_rounds = opts.rounds or 2, 1
    if opts.repeats < 1 or opts.rounds < 0 or opts.reference_rounds < 1:
        sys.exit("run_cloverleaf_bench: --repeats, --rounds and --reference-rounds must be at least 1")
    opts.program = Path(opts.build_dir) / "apps" / "cloverleaf" / "gw-cloverleaf"
    if not opts.program.exists():
        sys.exit(f"run_cloverleaf_bench: {opts.program} does not exist; build it first "
                 f"(cmake --build {opts.build_dir} --target gw-cloverleaf)")
    available = exchanges_in_build(opts.program)
    opts.exchange_list = names(opts.exchanges, available, "--exchanges") if opts.exchanges else available
    opts.sync_list = names(opts.syncs, SYNCS, "--syncs")
    decks = names(opts.decks, DECKS, "--decks")
    launches = chosen_launches("run_cloverleaf_bench", opts.launches, LAUNCHES, opts.mpi)
    if opts.reference and not os.access(opts.reference, os.X_OK):
        sys.exit(f"run_cloverleaf_bench: --reference {opts.reference}: not an executable file")
    compare_reference = bool(opts.reference) and REFERENCE_LAUNCH in launches and REFERENCE_DECK in decks \
        and "mpi" in available

    out_dir = results_dir(opts, "cloverleaf")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = new_meta(launches=launches, decks=decks, exchanges=opts.exchange_list, syncs=opts.sync_list,
                    steps=opts.steps, rounds=opts.rounds or "default", repeats=opts.repeats,
                    reference=opts.reference if compare_reference else None)
    announce("run_cloverleaf_bench", out_dir, meta)
    print(f"run_cloverleaf_bench: variants {', '.join(opts.exchange_list)} x {', '.join(opts.sync_list)}", flush=True)
    if not compare_reference:
        print("run_cloverleaf_bench: the comparison with the reference Fortran is skipped"
              + (f" (it runs at {REFERENCE_LAUNCH} on {REFERENCE_DECK}, which this run leaves out)" if opts.reference
                 else "; give --reference PATH to a built CloverLeaf_ref clover_leaf (or set CLOVERLEAF_REF) to "
                      "enable it (docs/cloverleaf.md says how to build it)"), flush=True)
    failures = []
    budget = Budget("run_cloverleaf_bench", opts.budget)
    # The side-by-side jobs, then the reference comparison's rounds: (what, run it with so many
    # rounds, its progress text, its model (rounds, seconds per round, overhead), the goals it measures).
    tasks = [(f"{launch}, {deck}" + (f", repeat {repeat + 1}" if opts.repeats > 1 else ""),
              lambda work, rounds, r=repeat, l=launch, d=deck: run_job(l, d, opts, log, r, work, rounds),
              lambda records, l=launch, d=deck: progress_line(records, l, d),
              (rounds_for(opts, launch, deck), *job_model(opts, launch, deck)),
              "best gw / mpi")
             for repeat in range(opts.repeats) for launch in launches for deck in decks]
    if compare_reference:
        tasks += [(f"{REFERENCE_LAUNCH} {REFERENCE_DECK} against the reference, round {k}",
                   lambda work, rounds, r=repeat, k=k: run_reference_round(opts, log, r, k, work), reference_line,
                   (1, REFERENCE_ROUND_SECONDS, 0.0), "")
                  for repeat in range(opts.repeats) for k in range(1, opts.reference_rounds + 1)]
    expected = [overhead + rounds * per_round for _, _, _, (rounds, per_round, overhead), _ in tasks]
    with open(out_dir / "cloverleaf.jsonl", "a") as jsonl, open(out_dir / "cloverleaf.log", "a") as log, \
            tempfile.TemporaryDirectory(prefix="cloverleaf-bench-") as scratch:
        for done, (what, run, describe, (asked, per_round, overhead), measures) in enumerate(tasks, 1):
            rounds, _ = budget.plan(asked, per_round, overhead, sum(expected[done:]), key=what.split(", repeat")[0],
                                    keep=min(goals.MIN_PAIRS, asked))  # every job's rounds are a goal's pairs
            if rounds == 0:
                budget.skip(what, goals=measures, goal_where=what.split(", repeat")[0])
                continue
            if rounds < asked:
                budget.cut(what, rounds, asked, "rounds")
            began = time.monotonic()
            records = run(Path(scratch), rounds)
            if records is not None:  # a failed job's time says nothing of the pace
                budget.done(overhead + rounds * per_round, time.monotonic() - began, key=what.split(", repeat")[0])
            if opts.dry_run:
                continue
            if records is None:
                failures.append(what)
                continue
            append_records(jsonl, records)
            print(f"[{done}/{len(tasks)}] {describe(records)}", flush=True)
    budget.save(out_dir)
    meta["budget"] = budget.record()
    if opts.dry_run:
        return 0
    return conclude("run_cloverleaf_bench", meta, out_dir, failures, report)

if __name__ == "__main__":
    sys.exit(main())
