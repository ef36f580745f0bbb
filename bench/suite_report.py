# SPDX-License-Identifier: BSD-3-Clause
"""The suite's tables and plots (bench/run_suite.py): a benchmark's JSON lines as a comparison
table (rows: sizes or cases; columns: every launch's implementations side by side), the same as
markdown for report.md, duels between two implementations, and one figure per benchmark."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from bench_common import parse_json_line, pyplot

SHORT_NAMES = {"mpi-sendrecv": "sendrecv", "mpi-put-flag": "put-flag", "mpi-isend": "isend",
               "mpi-persistent": "persist", "mpi-alltoallw": "a2aw", "mpi-put": "put"}


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
    """A figure per benchmark: one panel per launch, one line (or bar) per implementation."""
    x: str
    y: str
    xlabel: str
    ylabel: str
    logx: bool = True
    logy: bool = True
    bars: bool = False   # grouped bars (one group per x value, e.g. a case), not lines


def load_results(out_dir: Path) -> dict[str, list[dict]]:
    """All JSON lines of a results folder's *.jsonl files, by benchmark name (halo --reverse rows as
    halo-reverse)."""
    results: dict[str, list[dict]] = {}
    for path in sorted(out_dir.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = parse_json_line(line)
            if record:
                name = record.get("bench", path.stem)
                if record.get("direction", "forward") != "forward":
                    name += f"-{record['direction']}"  # halo --reverse: never mixed into the forward rows
                results.setdefault(name, []).append(record)
    return results


def launch_label(record: dict) -> str:
    return record.get("launch") or record.get("path", "?")


def ordered_launches(order: list[str], records: list[dict]) -> list[str]:
    """The suite's launch order, then any others found in the records."""
    found = list(dict.fromkeys(launch_label(r) for r in records))
    return [l for l in order if l in found] + [l for l in found if l not in order]


def ordered_impls(records: list[dict], known: list[str]) -> list[str]:
    seen = {r["impl"] for r in records}
    return [i for i in known if i in seen] + sorted(seen - set(known))


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


def cells_and_columns(table: Table, records: list[dict], known: list[str], order: list[str]):
    launches = ordered_launches(order, records)
    columns = [(launch, impl) for launch in launches
               for impl in ordered_impls([r for r in records if launch_label(r) == launch], known)]
    rows = (list(dict.fromkeys(r.get(table.row) for r in records)) if table.keep_order
            else sorted({r.get(table.row) for r in records}, key=lambda k: (isinstance(k, str), k)))
    cells = {(launch_label(r), r.get(table.row), r["impl"]): r.get(table.value) for r in records}
    return launches, columns, rows, cells


def comparison_table(name: str, table: Table, records: list[dict], known: list[str], order: list[str]) -> str:
    """Rows: the table's row field; columns: every launch's implementations, side by side."""
    launches, columns, rows, cells = cells_and_columns(table, records, known, order)
    width = [max(9, len(SHORT_NAMES.get(impl, impl)) + 1) for _, impl in columns]
    lines = [f"{name}: {table.title}" + (" (higher is better)" if table.higher_is_better else "")]
    group = f"{'':>12}"
    for launch in launches:
        span = sum(w for (l, _), w in zip(columns, width) if l == launch)
        group += f"{'| ' + launch:<{span}}"
    lines.append(group)
    lines.append(f"{table.row:>12}" + "".join(f"{SHORT_NAMES.get(i, i):>{w}}" for (_, i), w in zip(columns, width)))
    for key in rows:
        lines.append(f"{format_row_key(key):>12}" + "".join(
            f"{format_value(cells.get((l, key, i))):>{w}}" for (l, i), w in zip(columns, width)))
    return "\n".join(lines)


def markdown_table(table: Table, records: list[dict], known: list[str], order: list[str]) -> str:
    """One markdown table per launch (rows x implementations): what report.md and BENCHMARKS.md show."""
    launches, columns, rows, cells = cells_and_columns(table, records, known, order)
    parts = []
    for launch in launches:
        impls = [i for l, i in columns if l == launch]
        parts.append(f"{launch}, {table.title}" + (" (higher is better)" if table.higher_is_better else "") + ":\n")
        parts.append(f"| {table.row} | " + " | ".join(impls) + " |")
        parts.append("|---" * (len(impls) + 1) + "|")
        for key in rows:
            if any(cells.get((launch, key, i)) is not None for i in impls):
                parts.append(f"| {format_row_key(key)} | " +
                             " | ".join(format_value(cells.get((launch, key, i))) for i in impls) + " |")
        parts.append("")
    return "\n".join(parts) + "\n"


def duel_lines(duels: list[tuple[str, str]], table: Table, records: list[dict], launches) -> list[str]:
    """Where both implementations ran: which one wins at how many points, and by how much."""
    cells = {(launch_label(r), r.get(table.row), r["impl"]): r.get(table.value) for r in records}
    lines = []
    for a, b in duels:
        for launch in ordered_launches([l.label for l in launches], records):
            pairs = [(cells[(launch, k, a)], cells[(launch, k, b)])
                     for (l, k, i) in cells if l == launch and i == a and (launch, k, b) in cells]
            pairs = [(x, y) for x, y in pairs if x and y and x > 0 and y > 0]
            if not pairs:
                continue
            # How many times faster a is than b at each point: a time ratio or a bandwidth ratio.
            speedups = [x / y if table.higher_is_better else y / x for x, y in pairs]
            wins = sum(1 for speedup in speedups if speedup > 1)
            geomean = math.exp(sum(math.log(v) for v in speedups) / len(speedups))
            lines.append(f"  {launch}: {a} faster than {b} at {wins} of {len(pairs)} points; "
                         f"{a} is {geomean:.2f}x as fast (geometric mean; from {min(speedups):.2f}x "
                         f"to {max(speedups):.2f}x)")
    return lines


def draw_plots(name: str, plot: Plot, records: list[dict], out_dir: Path, known: list[str],
               order: list[str]) -> Path | None:
    if not records:
        return None
    plt = pyplot(f"install python3-matplotlib or run /usr/bin/python3 bench/run_suite.py --report {out_dir}")
    if plt is None:
        return None
    import matplotlib.ticker
    launches = ordered_launches(order, records)
    impls = ordered_impls(records, known)
    colors = {impl: f"C{k}" for k, impl in enumerate(impls)}
    if plot.bars:
        return draw_grouped_bars(name, plot, records, out_dir, plt, launches, impls, colors)
    figure, axes = plt.subplots(1, len(launches), figsize=(5.2 * len(launches), 4.4), squeeze=False, sharey=True)
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
    figure.suptitle(f"gw-bench {name}")
    figure.tight_layout()
    path = out_dir / f"{name}.png"
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def draw_grouped_bars(name: str, plot: Plot, records: list[dict], out_dir: Path, plt, launches, impls,
                      colors) -> Path:
    """One panel per launch (three to a row); in each, a group of bars per x value (a case), one bar
    per implementation."""
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
    figure.suptitle(f"gw-bench {name}")
    figure.tight_layout()
    path = out_dir / f"{name}.png"
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path

