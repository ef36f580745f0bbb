# SPDX-License-Identifier: BSD-3-Clause
"""Helpers shared by the benchmark drivers (run_suite.py, heat/, minighost/): reading the programs'
JSON lines and describing the machine a run was measured on."""
from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAUNCH = ROOT / "scripts" / "launch"

# The launches of the application drivers (heat/, minighost/, cfdproxy/, cloverleaf/):
# name -> (scripts/launch path, ranks, ranks per emulated node)
APP_LAUNCHES = {
    "intra-1": ("intra", 1, None),
    "intra-2": ("intra", 2, None),
    "intra-4": ("intra", 4, None),
    "emulated-2": ("emulated", 2, 1),
    "emulated-4": ("emulated", 4, 2),
    "multihost-2": ("multihost", 2, None),
    "multihost-4": ("multihost", 4, None),
}


def launch_command(opts, launch: str) -> list[str]:
    """scripts/launch with the path, ranks and emulated node size of APP_LAUNCHES[launch], up to
    the program (append "--", the program and its arguments)."""
    path, ranks, rpn = APP_LAUNCHES[launch]
    command = [str(LAUNCH), "--mpi", opts.mpi, "--path", path, "-n", str(ranks), "--timeout", str(opts.timeout)]
    return command + (["--rpn", str(rpn)] if rpn else [])


def dims_create(ranks: int, dimensions: int) -> list[int]:
    """MPI_Dims_create's balanced factorisation, largest first (gw-bench halo's process grids)."""
    dims = [1] * dimensions
    factors, n, f = [], ranks, 2
    while n > 1:
        while n % f == 0:
            factors.append(f)
            n //= f
        f += 1
    for factor in sorted(factors, reverse=True):
        dims[dims.index(min(dims))] *= factor
    return sorted(dims, reverse=True)


def rotated(variants: list[str], repeat: int) -> list[str]:
    """The variants with the first place rotating by repeat: a job's first allocations can land in
    memory that makes a variant a few percent slower, so repeats give each the first place in turn."""
    shift = repeat % len(variants)
    return variants[shift:] + variants[:shift]


def run_logged(command: list[str], log, dry_run: bool) -> subprocess.CompletedProcess | None:
    """Runs a job with the command and its output into `log`; None on a dry run (the command is
    printed instead)."""
    log.write(f"\n== {shlex.join(command)}\n")
    if dry_run:
        print(shlex.join(command))
        return None
    result = subprocess.run(command, capture_output=True, text=True)
    log.write(result.stdout + result.stderr)
    log.flush()
    return result


def run_side_by_side(command: list[str], log, app: str, variants: int, what: str,
                     dry_run: bool) -> list[dict] | None:
    """Runs one job of a program's side-by-side mode, its output into `log`; its JSON records of
    `app`, one per variant, or None (a dry run, or a failure, which is announced)."""
    result = run_logged(command, log, dry_run)
    if result is None:
        return None
    records = [r for r in map(parse_json_line, result.stdout.splitlines()) if r and r.get("app") == app]
    if result.returncode != 0 or len(records) != variants:
        print(f"!! {what}: exit status {result.returncode} (see {log.name})", flush=True)
        return None
    return records


def paired_median(top: dict, bottom: dict) -> float | None:
    """Median over the shared keys (repeats, rounds) of top[k] / bottom[k]: the measurements with one
    key ran back to back, so the machine's slow and fast phases, longer than a run, cancel. None
    when no key is shared. Every driver judges its goals with this one statistic."""
    ratios = [top[k] / bottom[k] for k in top if k in bottom and bottom[k] > 0]
    return statistics.median(ratios) if ratios else None


def parse_json_line(line: str) -> dict | None:
    """The JSON object on a line of program output, or None for any other line."""
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        return None


def machine_description() -> dict:
    """CPU, cores, kernel, commit and load average: recorded with every result folder."""
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    return {"host": platform.node(), "cpu": model, "cores": os.cpu_count(), "kernel": platform.release(),
            "commit": commit, "load_average": os.getloadavg()}


def new_meta(**fields) -> dict:
    """What meta.json records about a run: start, command line, machine, and the driver's own fields."""
    return {"started": datetime.datetime.now().isoformat(timespec="seconds"), "command": shlex.join(sys.argv),
            "machine": machine_description(), **fields}


def announce(program: str, out_dir: Path, meta: dict) -> None:
    """Where the results go, and a warning when the machine is already busy (timings would be skewed)."""
    cores = meta["machine"]["cores"] or 1
    load = meta["machine"]["load_average"][0]
    print(f"{program}: results in {out_dir}; load average {load:.2f} on {cores} cores", flush=True)
    if load > 0.5 * cores:
        print(f"{program}: warning: the machine is busy; timings will be distorted", flush=True)


def finish_meta(meta: dict, out_dir: Path, failures: list[str]) -> None:
    meta["finished"] = datetime.datetime.now().isoformat(timespec="seconds")
    meta["load_average_at_end"] = os.getloadavg()
    meta["failures"] = failures
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")


def append_records(jsonl, records: list[dict]) -> None:
    """Writes a job's records to a driver's JSON-lines file, one compact line each."""
    for record in records:
        jsonl.write(json.dumps(record, separators=(",", ":")) + "\n")
    jsonl.flush()


def conclude(program: str, meta: dict, out_dir: Path, failures: list[str], report) -> int:
    """The end of a driver's run: meta.json, `report(out_dir)` (table, goals, plot), the failed
    jobs named; the exit status (1 if any failed)."""
    finish_meta(meta, out_dir, failures)
    report(out_dir)
    if failures:
        print(f"\n{program}: {len(failures)} job(s) failed: {', '.join(failures)}")
    return 1 if failures else 0


def pyplot(hint: str = "run this script with /usr/bin/python3"):
    """matplotlib.pyplot with the file backend, or None (after saying why) where it is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"(no plot: matplotlib is missing for {sys.executable}; {hint})")
        return None
    return plt


def load_records(path: Path, required_key: str) -> list[dict]:
    """The JSON lines of a results file that carry `required_key` (skipping logs and other records)."""
    if not path.exists():
        return []
    return [r for r in map(parse_json_line, path.read_text().splitlines()) if r and required_key in r]


def finish_axis(axis, ticks, xlabel: str, ylabel: str, log_base: float = 10) -> None:
    """A panel of a driver's figure: log x axis labelled at exactly the measured points, y from 0."""
    axis.set_xscale("log", base=log_base)
    axis.set_xticks(ticks)
    axis.set_xticklabels([str(t) for t in ticks])
    axis.minorticks_off()
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    axis.set_ylim(bottom=0)
    axis.grid(True, alpha=0.3)
    axis.legend(fontsize=7)


def save_figure(plt, figure, title: str, path: Path) -> Path:
    figure.suptitle(title)
    figure.tight_layout(rect=(0, 0, 1, 0.985))
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def write_report(program: str, out_dir: Path, results_file: str, records: list[dict], summary, plot) -> str:
    """Prints `summary(records)`, writes it to summary.txt and draws `plot(records, out_dir)`."""
    if not records:
        print(f"{program}: no results in {out_dir}/{results_file}")
        return ""
    text = summary(records)
    print("\n" + text)
    (out_dir / "summary.txt").write_text(text + "\n")
    image = plot(records, out_dir)
    if image:
        print(f"\nplot: {image}")
    return text


def add_driver_options(parser, app: str, repeats: int, seconds: float, seconds_help: str, timeout: int,
                       timeout_help: str) -> None:
    """The options every application driver takes: repetitions, run length, build tree, MPI, where
    the results go, time limit, --report and --dry-run."""
    parser.add_argument("--repeats", type=int, default=repeats, help="runs per point (the median is reported)")
    parser.add_argument("--seconds", type=float, default=seconds, help=seconds_help)
    parser.add_argument("--build-dir", default=str(ROOT / "build"), help="build tree (default: build/)")
    parser.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"], help="MPI of the build tree")
    parser.add_argument("--out", help=f"results folder (default: results/{app}-<timestamp>)")
    parser.add_argument("--timeout", type=int, default=timeout, help=timeout_help)
    parser.add_argument("--report", metavar="DIR", help="only print the table and draw the plot of DIR")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")


def chosen_launches(program: str, text: str, launches: dict, mpi: str) -> list[str]:
    """The comma-separated launch names of `text`, checked against `launches` (name -> (path, ...));
    the multihost ones are dropped, with a word, unless the MPI is Open MPI."""
    names = [name for name in text.split(",") if name]
    unknown = [name for name in names if name not in launches]
    if unknown:
        sys.exit(f"{program}: unknown launch {', '.join(unknown)} (known: {', '.join(launches)})")
    if mpi != "openmpi" and any(launches[n][0] == "multihost" for n in names):
        print(f"{program}: the multihost launches need Open MPI; skipping them")
        names = [n for n in names if launches[n][0] != "multihost"]
    return names


def results_dir(opts, app: str) -> Path:
    """--out, or results/<app>-<timestamp>[-quick]."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S") + ("-quick" if getattr(opts, "quick", False) else "")
    return Path(opts.out) if opts.out else ROOT / "results" / f"{app}-{stamp}"
