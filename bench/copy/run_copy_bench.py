#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""DASH's copy study (docs/copy-study.md): gw-copy-bench on 2 ranks of one node (sources local and
node peer), 2 emulated nodes (local and remote) and 2 hosts (Open MPI only), one job each; the table,
the goal verdicts (a node-peer copy at least 0.9x the memcpy ceiling from 64 KiB up, faster than
MPI_Get at every size) and a plot like the paper's figure (bandwidth against size, log-log, one line
per implementation, one panel per launch and source).

  bench/copy/run_copy_bench.py                  # everything (minutes: a 2x LLC read before every copy)
  bench/copy/run_copy_bench.py --quick          # small sizes, a small flush: a smoke run
  bench/copy/run_copy_bench.py --report DIR     # the table and plot of an earlier run
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_common as common  # noqa: E402
import goals  # noqa: E402

PROGRAM = "run_copy_bench"
LAUNCHES = {name: common.APP_LAUNCHES[name] for name in ("intra-2", "emulated-2", "multihost-2")}
IMPLS = ["memcpy", "gw-copy", "gw-copy-async", "mpi-get", "dash-copy"]
PEER_CEILING_FROM = 64 * 1024  # the goal's 0.9x memcpy holds from here up


def sources_of(launch: str) -> str:
    """One node: the rank's own block and its peer's; two nodes: its own and the other node's."""
    return "local,peer" if LAUNCHES[launch][0] == "intra" else "local,remote"


def run(opts, out_dir: Path, log, failures: list[str]) -> None:
    program = Path(opts.build_dir) / "bench" / "gw-copy-bench"
    with open(out_dir / "copy.jsonl", "a") as jsonl:
        for launch in opts.launches:
            command = common.launch_command(opts, launch) + [
                "--", str(program), "--source", sources_of(launch), "--sizes", opts.sizes,
                "--repeats", str(opts.repeats)] + (["--flush-bytes", opts.flush_bytes] if opts.flush_bytes else [])
            print(f"== {launch}", flush=True)
            records = job(command, log, opts.dry_run)
            if records is None:
                continue
            if not records:
                failures.append(launch)
                print(f"!! {launch}: failed or unverified (see {log.name})", flush=True)
                continue
            for record in records:
                record["launch"] = launch
            common.append_records(jsonl, records)


def job(command: list[str], log, dry_run: bool) -> list[dict] | None:
    """The job's copy records; [] when it failed or did not verify every byte; None on a dry run."""
    done = common.run_logged(command, log, dry_run)
    if done is None:
        return None
    if done.returncode != 0 or "every copied byte verified" not in done.stdout:
        return []
    return [r for r in map(common.parse_json_line, done.stdout.splitlines()) if r and r.get("bench") == "copy"]


def points(records: list[dict]) -> dict[tuple, dict[str, dict]]:
    """By (launch, source, bytes): each implementation's record."""
    table: dict[tuple, dict[str, dict]] = {}
    for r in records:
        table.setdefault((r["launch"], r["source"], r["bytes"]), {})[r["impl"]] = r
    return table


def per_repeat(record: dict) -> dict[int, float]:
    return dict(enumerate(record["usec_per_repeat"]))


def verdicts(records: list[dict]) -> list[goals.Verdict]:
    """The goals on the node-peer rows, from the paired repeats (the implementations took
    turns within each repeat)."""
    found = []
    for (launch, source, size), impls in sorted(points(records).items()):
        if source != "peer" or "gw-copy" not in impls:
            continue
        gw = per_repeat(impls["gw-copy"])
        where = f"{launch}, peer, {size} B"
        if size >= PEER_CEILING_FROM and "memcpy" in impls:
            found.append(goals.judge("copy", where, "memcpy / gw-copy time (fraction of the ceiling)",
                                     goals.paired_ratios(per_repeat(impls["memcpy"]), gw), 0.9, True, headline=True))
        if "mpi-get" in impls:
            # Where MPI_Get itself is one memcpy from the shared window, nothing can be faster than
            # it by more than the run can show: memcpy is the floor (goals.judge, "floor").
            get = per_repeat(impls["mpi-get"])
            floor = per_repeat(impls["memcpy"]) if "memcpy" in impls else {}
            found.append(goals.judge("copy", where, "gw-copy / mpi-get time", goals.paired_ratios(gw, get), 1.0, False,
                                     floor_text="memcpy / mpi-get", floor_ratios=goals.paired_ratios(floor, get),
                                     versus_floor=goals.paired_ratios(gw, floor), headline=True, floor_bound=1.0))
    return [v for v in found if v]


def size_text(size: int) -> str:
    for shift, unit in ((20, "MiB"), (10, "KiB")):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


def summary(records: list[dict]) -> str:
    shown = [i for i in IMPLS if any(r["impl"] == i for r in records)]
    head = f"{'launch':<12} {'source':<7} {'size':>7}  " + " ".join(f"{i:>20}" for i in shown) + "  gw/ceil  gw/get"
    lines = ["median usec (GB/s) per copy, source out of cache; gw/ceil = memcpy time / gw-copy time, "
             "gw/get = gw-copy time / mpi-get time (paired repeats)", head]
    for (launch, source, size), impls in sorted(points(records).items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        cells = " ".join(f"{impls[i]['usec']:>10.2f} ({impls[i]['gb_per_s']:>7.3f})" if i in impls else f"{'-':>20}"
                         for i in shown)
        ratios = []
        for top, bottom in (("memcpy", "gw-copy"), ("gw-copy", "mpi-get")):
            paired = (goals.paired_ratios(per_repeat(impls[top]), per_repeat(impls[bottom]))
                      if top in impls and bottom in impls else [])
            ratios.append(f"{statistics.median(paired):>7.3f}" if paired else f"{'-':>7}")
        lines.append(f"{launch:<12} {source:<7} {size_text(size):>7}  {cells}  {ratios[0]}  {ratios[1]}")
    found = verdicts(records)
    lines += ["", "Goals (node peer; medians of paired repeats): " + goals.summary_line(found)]
    lines += [v.line() for v in found]
    return "\n".join(lines)


def plot(records: list[dict], out_dir: Path):
    plt = common.pyplot()
    if plt is None:
        return None
    panels = sorted({(r["launch"], r["source"]) for r in records},
                    key=lambda p: (list(LAUNCHES).index(p[0]), ["local", "peer", "remote"].index(p[1])))
    rows = (len(panels) + 1) // 2  # a launch per row: its own block, then the peer's or other node's
    figure, axes = plt.subplots(rows, 2, figsize=(10, 3.8 * rows), squeeze=False)
    for axis in axes.flat[len(panels):]:
        axis.set_visible(False)
    for axis, (launch, source) in zip(axes.flat, panels):
        mine = [r for r in records if r["launch"] == launch and r["source"] == source]
        for impl in [i for i in IMPLS if any(r["impl"] == i for r in mine)]:
            xs = sorted((r["bytes"], r["gb_per_s"]) for r in mine if r["impl"] == impl)
            axis.plot([x[0] for x in xs], [x[1] for x in xs], marker="o", linewidth=1, label=impl,
                      linestyle="--" if impl == "memcpy" else "-")
        sizes = sorted({r["bytes"] for r in mine})
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        axis.set_xticks(sizes)
        axis.set_xticklabels([size_text(s).replace(" ", "") for s in sizes], rotation=45, fontsize=7)
        axis.minorticks_off()
        axis.set_xlabel("bytes per copy")
        axis.set_ylabel("GB/s")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
        axis.set_title(f"{launch}, source {source}", fontsize=9)
    return common.save_figure(plt, figure, "copy of a range to a local buffer, source out of cache", out_dir / "copy.png")


def report(out_dir: Path) -> None:
    records = common.load_records(out_dir / "copy.jsonl", "usec_per_repeat")
    common.write_report(PROGRAM, out_dir, "copy.jsonl", records, summary, plot)
    goals.write(out_dir / "goals.json", verdicts(records))


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common.add_driver_options(parser, "copy", repeats=11, seconds=0.0, seconds_help="(unused)", timeout=1800,
                              timeout_help="seconds per job")
    parser.add_argument("--launches", default=",".join(LAUNCHES), help="of " + ", ".join(LAUNCHES))
    parser.add_argument("--sizes", default="8,64,512,4K,32K,64K,256K,1M,4M,16M,64M", help="bytes per copy")
    parser.add_argument("--flush-bytes", help="bytes read before every timed copy (default: the program's, 2x the LLC)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 3 small sizes, 3 repeats, a 1 MiB flush")
    opts = parser.parse_args()
    opts.launches = common.chosen_launches(PROGRAM, opts.launches, LAUNCHES, opts.mpi)
    if opts.quick:
        opts.sizes, opts.repeats, opts.flush_bytes = "8,4K,64K", 3, opts.flush_bytes or "1M"
    return opts


def main() -> int:
    opts = options()
    if opts.report:
        report(Path(opts.report))
        return 0
    program = Path(opts.build_dir) / "bench" / "gw-copy-bench"
    if not program.exists() and not opts.dry_run:
        sys.exit(f"{PROGRAM}: {program} is not built (cmake --build {opts.build_dir} --target gw-copy-bench)")
    out_dir = common.results_dir(opts, "copy")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = common.new_meta(launches=opts.launches, repeats=opts.repeats, sizes=opts.sizes, flush_bytes=opts.flush_bytes)
    common.announce(PROGRAM, out_dir, meta)
    failures: list[str] = []
    with open(out_dir / "log.txt", "w") as log:
        run(opts, out_dir, log, failures)
    if opts.dry_run:
        return 0
    return common.conclude(PROGRAM, meta, out_dir, failures, report)


if __name__ == "__main__":
    sys.exit(main())
