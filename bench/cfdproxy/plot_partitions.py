#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot gw-cfdproxy's partition report: halo ("add") points against owned points, one marker per
part and one colour per part count P, on log axes, as the EXA2CT CFD-Proxy study plots its METIS
partitions of the DLR-F6 grid. As P grows a part's halo (its surface) shrinks more slowly than its
owned points (its volume), so add/own rises with P; the spread within one colour is how unequal
METIS's parts are in halo size.

Input: a file holding the report's JSON lines ({"app":"gw-cfdproxy","report":"partition",...});
other lines (the table, logs) are skipped. Output: a PNG."""
from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_common import parse_json_line, pyplot  # noqa: E402


def load_reports(path: Path) -> list[dict]:
    """The partition report lines of `path`, in file order (a later line for the same P and mesh
    replaces an earlier one)."""
    reports: dict[tuple[str, int], dict] = {}
    for line in path.read_text().splitlines():
        record = parse_json_line(line)
        if record and record.get("app") == "gw-cfdproxy" and record.get("report") == "partition":
            reports[(record.get("mesh", ""), int(record["parts"]))] = record
    return list(reports.values())


def plot(reports: list[dict], output: Path, title: str | None) -> Path | None:
    plt = pyplot()
    if plt is None:
        return None
    figure, axis = plt.subplots(figsize=(7, 5.5))
    colours = plt.get_cmap("viridis")
    ordered = sorted(reports, key=lambda r: r["parts"])
    for k, report in enumerate(ordered):
        own = [pair[0] for pair in report["per_part"]]
        add = [max(pair[1], 0.5) for pair in report["per_part"]]  # one part has no halo: keep it on a log axis
        colour = colours(k / max(1, len(ordered) - 1))
        axis.scatter(own, add, s=14, color=colour, alpha=0.8, edgecolors="none",
                     label=f"P = {report['parts']} (add/own median {report['add_per_own']['median']:.3g})")
    axis.set_xscale("log")
    axis.set_yscale("log")
    from matplotlib import ticker  # after pyplot(): it chose the backend
    for log_axis in (axis.xaxis, axis.yaxis):  # labels at 1, 2, 5 x 10^k: the data spans few decades
        log_axis.set_major_locator(ticker.LogLocator(subs=(1, 2, 5)))
        log_axis.set_major_formatter(ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        log_axis.set_minor_locator(ticker.NullLocator())
    axis.set_xlabel("owned points per part")
    axis.set_ylabel("halo (add) points per part")
    axis.grid(True, which="both", alpha=0.3)
    axis.legend(fontsize=7, loc="upper left")
    meshes = sorted({r.get("mesh", "") for r in reports})
    title = title or (f"METIS partitions of {meshes[0]}" if len(meshes) == 1 else "METIS partitions")
    figure.suptitle(textwrap.fill(title, 90), fontsize=9)
    figure.tight_layout()
    figure.savefig(output, dpi=110)
    plt.close(figure)
    return output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", type=Path, help="file with gw-cfdproxy's partition report JSON lines")
    parser.add_argument("-o", "--output", type=Path, help="PNG to write (default: the input with .png)")
    parser.add_argument("--title", help="figure title (default: names the mesh)")
    args = parser.parse_args()
    if not args.input.is_file():
        parser.error(f"{args.input}: no such file")
    reports = load_reports(args.input)
    if not reports:
        parser.error(f"{args.input}: no partition report lines "
                     '({"app":"gw-cfdproxy","report":"partition",...})')
    output = args.output or args.input.with_suffix(".png")
    written = plot(reports, output, args.title)
    if written is None:
        return 1
    print(f"wrote {written} ({len(reports)} part counts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
