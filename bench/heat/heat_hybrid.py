# SPDX-License-Identifier: BSD-3-Clause
"""The hybrid (MPI + OpenMP) matrix, run by run_heat_bench.py --hybrid: every hybrid
variant of gw-heat at ranks x threads 2x1, 1x2 and 2x2 (oversubscribed on 2 cores) inside a node
and 2x1 across two hosts, and the flat variants (one thread per rank) on the same cores for the
comparison "hybrid against flat". The variants of one launch run side by side in every repeat
(gw-heat --repeat), so their ratios are paired; hybrid against flat compares medians of different
launches.

Goal: gw-omp-tasks at least as fast as every MPI hybrid variant at every point (judged
against the fastest by median, with the per-repeat ratios as the project judges every goal,
bench/goals.py), and at least 1.2x at 8x8 tiles.
"""
from __future__ import annotations

import statistics
from pathlib import Path

import goals

HYBRID_VARIANTS = ["mpi-omp-forkjoin", "mpi-omp-tasks", "mpi-omp-tasks-mt", "gw-omp-tasks"]
MPI_HYBRID_VARIANTS = HYBRID_VARIANTS[:3]
FLAT_VARIANTS = ["mpi-blocking", "mpi-nbuffer", "mpi-nbuffer-transposed", "gw-pipelined"]
VARIANT_ORDER = HYBRID_VARIANTS + FLAT_VARIANTS

# name -> (scripts/launch path, ranks, ranks per emulated node, threads per rank, variants)
LAUNCHES = {
    "intra-2x1": ("intra", 2, None, 1, HYBRID_VARIANTS),
    "intra-1x2": ("intra", 1, None, 2, HYBRID_VARIANTS),
    "intra-2x2": ("intra", 2, None, 2, HYBRID_VARIANTS),
    "multihost-2x1": ("multihost", 2, None, 1, HYBRID_VARIANTS),
    "flat-intra-2": ("intra", 2, None, 1, FLAT_VARIANTS),
    "flat-intra-4": ("intra", 4, None, 1, FLAT_VARIANTS),
    "flat-multihost-2": ("multihost", 2, None, 1, FLAT_VARIANTS),
}
DEFAULT_LAUNCHES = list(LAUNCHES)
# The flat launch on the same hardware threads as a hybrid one.
FLAT_OF = {"intra-2x1": "flat-intra-2", "intra-1x2": "flat-intra-2", "intra-2x2": "flat-intra-4",
           "multihost-2x1": "flat-multihost-2"}
SPEEDUP_AT_8 = 1.2


def is_hybrid(records: list[dict]) -> bool:
    return any(r.get("launch") in LAUNCHES for r in records)


def _medians(records: list[dict]) -> dict[tuple, float]:
    groups: dict[tuple, list[float]] = {}
    for r in records:
        groups.setdefault((r["launch"], r["rows"], r["bx"], r["variant"]), []).append(r["mupdates_per_s"])
    return {key: statistics.median(values) for key, values in groups.items()}


def _rounds(records: list[dict]) -> dict[tuple, dict[int, float]]:
    rounds: dict[tuple, dict[int, float]] = {}
    for r in records:
        if "run" in r:
            rounds.setdefault((r["launch"], r["rows"], r["bx"], r["variant"]), {})[r["run"]] = r["mupdates_per_s"]
    return rounds


def _best(points: dict, launch: str, grid: int, tile: int, candidates: list[str]) -> tuple[str, float] | None:
    found = [(points[(launch, grid, tile, v)], v) for v in candidates if (launch, grid, tile, v) in points]
    if not found:
        return None
    value, name = max(found)
    return name, value


def _points_of(points: dict, launch: str) -> list[tuple[int, int]]:
    return sorted({(k[1], k[2]) for k in points if k[0] == launch})


def verdicts(records: list[dict]) -> list[goals.Verdict]:
    points, rounds = _medians(records), _rounds(records)
    found = []
    for launch in LAUNCHES:
        if launch.startswith("flat-"):
            continue
        for grid, tile in _points_of(points, launch):
            best = _best(points, launch, grid, tile, MPI_HYBRID_VARIANTS)
            if not best or (launch, grid, tile, "gw-omp-tasks") not in points:
                continue
            ratios = goals.paired_ratios(rounds.get((launch, grid, tile, "gw-omp-tasks"), {}),
                                         rounds.get((launch, grid, tile, best[0]), {}))
            found.append(goals.judge("heat-hybrid", f"{launch}, {grid}^2, {tile}x{tile}",
                                     f"gw-omp-tasks / best MPI hybrid ({best[0]})", ratios,
                                     SPEEDUP_AT_8 if tile <= 8 else 1.0, at_least=True, unit="paired runs",
                                     headline=tile == 8))
    return [v for v in found if v]


def _table(points: dict, launch: str, grid: int, variants: list[str]) -> list[str]:
    tiles = sorted({k[2] for k in points if k[0] == launch and k[1] == grid})
    path, ranks, _, threads, _ = LAUNCHES[launch]
    lines = ["", f"{launch}: {ranks} rank(s) x {threads} thread(s), {path}, {grid} x {grid}",
             f"{'variant':<26}" + "".join(f"{str(t) + 'x' + str(t):>10}" for t in tiles)]
    for variant in variants:
        if any((launch, grid, t, variant) in points for t in tiles):
            lines.append(f"{variant:<26}" + "".join(
                f"{points[(launch, grid, t, variant)]:>10.1f}" if (launch, grid, t, variant) in points else f"{'-':>10}"
                for t in tiles))
    if launch in FLAT_OF:
        row = []
        for t in tiles:
            best = _best(points, launch, grid, t, MPI_HYBRID_VARIANTS)
            gw = points.get((launch, grid, t, "gw-omp-tasks"))
            ratio = goals.plain_ratio(gw, best[1]) if best else None
            row.append(f"{ratio:>10.2f}" if ratio else f"{'-':>10}")
        lines.append(f"{'gw-omp-tasks / best MPI':<26}" + "".join(row))
        flat = FLAT_OF[launch]
        row = []
        for t in tiles:
            hybrid = _best(points, launch, grid, t, HYBRID_VARIANTS)
            best_flat = _best(points, flat, grid, t, FLAT_VARIANTS)
            ratio = goals.plain_ratio(hybrid[1], best_flat[1]) if hybrid and best_flat else None
            row.append(f"{ratio:>10.2f}" if ratio else f"{'-':>10}")
        lines.append(f"{'best hybrid / best flat':<26}" + "".join(row) + f"   (flat: {flat})")
    return lines


def summary(records: list[dict]) -> str:
    points = _medians(records)
    lines = ["Heat, hybrid MPI + OpenMP: Mupdates/s, median of the runs per point (higher is better);",
             "'best hybrid / best flat' compares medians of two launches on the same hardware threads"]
    for launch in LAUNCHES:
        for grid in sorted({k[1] for k in points if k[0] == launch}):
            lines += _table(points, launch, grid, VARIANT_ORDER)
    found = verdicts(records)
    if found:
        lines += ["", "Goals (ratios of Mupdates/s, the median over the runs of each run's ratio, "
                  f"with its ~95% interval): {goals.summary_line(found)}"]
        lines += [v.line() for v in found]
    return "\n".join(lines)


def plot(plt, records: list[dict], out_dir: Path, finish_axis, save_figure) -> Path | None:
    points = _medians(records)
    launches = [name for name in LAUNCHES if any(k[0] == name for k in points)]
    grids = sorted({k[1] for k in points})
    if not launches:
        return None
    colors = {v: f"C{i}" for i, v in enumerate(VARIANT_ORDER)}
    figure, axes = plt.subplots(len(launches), len(grids), figsize=(5.4 * len(grids), 3.6 * len(launches)),
                                squeeze=False)
    for row, launch in enumerate(launches):
        for col, grid in enumerate(grids):
            axis = axes[row][col]
            for variant in VARIANT_ORDER:
                xy = sorted((k[2], value) for k, value in points.items()
                            if k[0] == launch and k[1] == grid and k[3] == variant)
                if xy:
                    axis.plot([x for x, _ in xy], [y for _, y in xy], marker="o", markersize=3, label=variant,
                              color=colors[variant], linestyle=":" if variant.startswith("mpi") else "-")
            _, ranks, _, threads, _ = LAUNCHES[launch]
            axis.set_title(f"{launch}: {grid}x{grid}, {ranks} rank(s) x {threads} thread(s)", fontsize=10)
            tiles = sorted({k[2] for k in points if k[0] == launch and k[1] == grid})
            if tiles:
                finish_axis(axis, tiles, "tile size B (B x B tiles)", "Mupdates/s", log_base=2)
    return save_figure(plt, figure, "gw-heat hybrid MPI + OpenMP: median Mupdates/s", out_dir / "heat.png")
