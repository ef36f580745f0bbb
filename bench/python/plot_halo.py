# SPDX-License-Identifier: BSD-3-Clause
"""Plots bench_halo.py's JSON lines: median microseconds per halo update against the cells of the
grid, one panel per dimension, one line per variant and rank count. Writes docs/img/python_halo.png.

    /usr/bin/python3 bench/python/plot_halo.py bench/python/halo.jsonl [out.png]
"""
import json
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
STYLE = {"gw": "-", "gw-cxx": ":", "mpi4py-sendrecv": "--", "mpi4py-persistent": "-."}


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    source = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "docs" / "img" / "python_halo.png"
    rows = [json.loads(line) for line in source.read_text().splitlines() if line.startswith("{")]
    rows = [r for r in rows if r.get("bench") == "python_halo" and r["variant"] in STYLE]
    if not rows:
        raise SystemExit(f"plot_halo: no bench_halo rows in {source}")
    series = defaultdict(list)
    for r in rows:
        series[(r["dims"], r["variant"], r["ranks"])].append((r["n"] ** r["dims"], r["median_us"]))
    dims = sorted({r["dims"] for r in rows})
    figure, axes = plt.subplots(1, len(dims), figsize=(6 * len(dims), 4.5), squeeze=False)
    for axis, d in zip(axes[0], dims):
        for (sd, variant, ranks), points in sorted(series.items()):
            if sd != d:
                continue
            points.sort()
            axis.plot([p[0] for p in points], [p[1] for p in points], STYLE[variant], marker="o",
                      label=f"{variant}, {ranks} ranks")
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("cells of the grid")
        axis.set_ylabel("median us per halo update")
        axis.set_title(f"{d}-D, halo 1, periodic, float64")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=120)
    print(f"plot_halo: wrote {out}")


if __name__ == "__main__":
    main()
