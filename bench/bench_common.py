# SPDX-License-Identifier: BSD-3-Clause
"""Helpers shared by the benchmark drivers (run_suite.py, heat/, minighost/): reading the programs'
JSON lines, describing the machine a run was measured on, and a driver's time budget (Budget)."""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
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
    when no key has two positive values. Every driver judges its goals with this one statistic."""
    ratios = [top[k] / bottom[k] for k in top if k in bottom and bottom[k] > 0 and top[k] > 0]
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
    """Prints `summary(records)` and what the time budget cut (budget.json), writes them to
    summary.txt and draws `plot(records, out_dir)`."""
    if not records:
        print(f"{program}: no results in {out_dir}/{results_file}")
        return ""
    text = summary(records)
    cut = budget_lines(out_dir)
    if cut:
        text += "\n\n" + "\n".join(cut)
    print("\n" + text)
    (out_dir / "summary.txt").write_text(text + "\n")
    image = plot(records, out_dir)
    if image:
        print(f"\nplot: {image}")
    return text


def add_driver_options(parser, app: str, repeats: int, seconds: float, seconds_help: str, timeout: int,
                       timeout_help: str, budget: bool = False) -> None:
    """The options every application driver takes: repetitions, run length, build tree, MPI, where
    the results go, time limit, --report and --dry-run; with `budget`, --budget (the drivers the
    suite runs, which keep to a time budget: Budget)."""
    parser.add_argument("--repeats", type=int, default=repeats, help="runs per point (the median is reported)")
    parser.add_argument("--seconds", type=float, default=seconds, help=seconds_help)
    parser.add_argument("--build-dir", default=str(ROOT / "build"), help="build tree (default: build/)")
    parser.add_argument("--mpi", default="openmpi", choices=["openmpi", "mpich"], help="MPI of the build tree")
    parser.add_argument("--out", help=f"results folder (default: results/{app}-<timestamp>)")
    parser.add_argument("--timeout", type=int, default=timeout, help=timeout_help)
    parser.add_argument("--report", metavar="DIR", help="only print the table and draw the plot of DIR")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    if budget:
        add_budget_option(parser)


def add_budget_option(parser) -> None:
    parser.add_argument("--budget", type=positive_seconds, metavar="SECONDS",
                        help="time budget of the whole run, its report included (bench/run_suite.py gives each "
                             "driver its share): rounds and repetitions are cut to fit, keeping their pairing, and "
                             "the summary says what was cut; default: none")


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


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


# ---------------------------------------------------------------- time budget

# Lines a driver prints when its budget cut something start with this; bench/run_suite.py echoes
# them and records them with the step.
BUDGET_NOTE = "budget: "
# What a driver keeps of its budget for the end: summary, goals.json and the plot (matplotlib's
# import and one figure take 2-4 s on the 2-core VM). At most a fifth of a small budget.
REPORT_RESERVE = 5.0
# A job's cost beyond its rounds before anything is measured: mpirun's start and end (0.3-1 s,
# more across the emulated hosts) and the program's set-up.
JOB_OVERHEAD = 1.0
# How far below the model's seconds a driver's first job is assumed to run before one is measured.
MODEL_ERROR_BOUND = 0.5


@dataclass
class Budget:
    """A driver's time budget (--budget SECONDS). The driver asks plan() before each job: the job's
    share of the time left (less the report's reserve) is in proportion to its expected seconds
    among those of every job still to run, so a job that overran leaves less to the later ones and
    one that finished early more. Expected seconds come from the driver's model (overhead + rounds x
    per_round); done() tells what a job really took, and the ratio (the pace: how much slower than
    the model the machine is now) scales the next plans: per key where that job ran before (a later
    repetition of the same point), else over all jobs so far. Without a budget, every job runs in
    full. Cuts and skipped jobs are printed (BUDGET_NOTE) and kept for budget.json."""
    program: str
    seconds: float | None
    reserve: float = REPORT_RESERVE
    clock: object = time.monotonic
    start: float = 0.0
    cuts: list[str] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    expected_done: float = 0.0
    measured_done: float = 0.0
    paces: dict = field(default_factory=dict)

    def __post_init__(self):
        self.start = self.clock()
        if self.seconds is not None:
            self.reserve = min(self.reserve, 0.2 * self.seconds)

    @property
    def limited(self) -> bool:
        return self.seconds is not None

    def elapsed(self) -> float:
        return self.clock() - self.start

    def left(self) -> float:
        """Seconds left for jobs (the report's reserve kept apart); infinite without a budget."""
        if self.seconds is None:
            return math.inf
        return max(0.0, self.seconds - self.reserve - self.elapsed())

    def pace(self, key=None) -> float:
        """Measured over expected seconds: of `key`'s last job if it ran, else of every job so far
        (1.0 before the first: the model is all there is)."""
        if key is not None and key in self.paces:
            return self.paces[key]
        return self.measured_done / self.expected_done if self.expected_done > 0 else 1.0

    def plan(self, rounds: int, per_round: float, overhead: float, rest: float, key=None,
             keep: int = 1) -> tuple[int, float]:
        """(rounds to run, seconds allowed) for a job of `rounds` rounds expected to take `overhead`
        + rounds x `per_round` seconds, `rest` the expected seconds of every later job. Where fewer
        than `keep` rounds fit in its share (a goal's job: bench/goals.py MIN_PAIRS, below which
        its goals get no verdict), the job takes up to `keep` from the time left, so the later jobs
        get less: in a budget too small for everything the first jobs are measured properly, not
        every one badly. 0: not even one round fits in the time left, skip the job. Without a
        budget: (rounds, inf)."""
        if not self.limited:
            return rounds, math.inf
        pace = self.pace(key)
        expected = overhead + rounds * per_round
        if self.expected_done == 0 and expected + rest > 0:
            # No job measured yet, and the model's seconds can be off either way (minighost's were
            # twice what its jobs took): until the first job says, take the budget as set for this
            # work (the suite's expected seconds are measured ones), so no job is cut on the model
            # alone. A machine really slower than that costs one job's overrun, then the pace rules.
            # At most twice too slow, though: a model is not that far off, and a budget all but
            # spent must still skip what cannot fit.
            pace = min(pace, max(MODEL_ERROR_BOUND, self.left() / (expected + rest)))

        def fitting(seconds: float) -> int:
            return rounds if per_round <= 0 else min(rounds, int((seconds / pace - overhead) // per_round))

        allowed = self.left() * (expected / (expected + rest) if expected + rest > 0 else 1.0)
        fit = fitting(allowed)
        if fit >= min(keep, rounds):
            return fit, allowed
        fit = max(fit, min(keep, fitting(self.left())))
        return (fit, pace * (overhead + fit * per_round)) if fit >= 1 else (0, allowed)

    def done(self, expected: float, seconds: float, key=None) -> None:
        """A job expected to take `expected` seconds (the model, for the rounds it ran) took `seconds`."""
        if expected > 0 and seconds > 0:
            self.expected_done += expected
            self.measured_done += seconds
            if key is not None:
                self.paces[key] = seconds / expected

    def cut(self, where: str, ran: int, asked: int, unit: str) -> None:
        """Says (and keeps) that `where` ran `ran` of its `asked` rounds or repetitions."""
        text = f"{where}: {ran} of {asked} {unit}"
        self.cuts.append(text)
        print(f"{BUDGET_NOTE}{self.program}: the time budget ({self.seconds:.0f} s) cut {text}", flush=True)

    def skip(self, where: str, goals: str = "", goal_where: str = "") -> None:
        """Says (and keeps) that `where` did not run for lack of time; `goals` names the goals it
        would have measured (reported as not measured, at `goal_where`: where the driver's verdicts
        name that point, default `where`)."""
        self.skipped.append({"where": where, "goals": goals, "goal_where": goal_where or where})
        print(f"{BUDGET_NOTE}{self.program}: no time left in the budget ({self.seconds:.0f} s): {where} skipped",
              flush=True)

    def record(self) -> dict:
        return {"program": self.program, "budget_s": self.seconds, "seconds": round(self.elapsed(), 1),
                "cut": self.cuts, "skipped": self.skipped}

    def save(self, out_dir: Path) -> None:
        """Appends this run's record to out_dir/budget.json (several runs of a driver may share a
        folder, as the suite's two Heat runs do); nothing without a budget."""
        if not self.limited:
            return
        path = out_dir / "budget.json"
        runs = json.loads(path.read_text()) if path.exists() else []
        runs.append(self.record())
        path.write_text(json.dumps(runs, indent=1) + "\n")


def budget_runs(out_dir: Path) -> list[dict]:
    path = out_dir / "budget.json"
    return json.loads(path.read_text()) if path.exists() else []


def budget_lines(out_dir: Path) -> list[str]:
    """What the time budget cut in the runs into out_dir, in words; empty where nothing was cut."""
    lines = []
    for run in budget_runs(out_dir):
        if not run["cut"] and not run["skipped"]:
            continue
        lines.append(f"Cut short by the time budget ({run['program']}: {run['budget_s']:.0f} s; the goals judge what "
                     "was measured, and any left with too few pairs are reported as not measured):")
        lines += [f"  {text}" for text in run["cut"]]
        lines += [f"  {item['where']}: skipped, no time left" for item in run["skipped"]]
    return lines


def skipped_goals(out_dir: Path) -> list[tuple[str, str]]:
    """(where, goals) of the jobs the budget skipped that would have measured goals."""
    return [(item.get("goal_where", item["where"]), item["goals"]) for run in budget_runs(out_dir)
            for item in run["skipped"] if item["goals"]]


def stream_job(command: list[str], on_line, deadline: float = math.inf, env: dict | None = None,
               clock=time.monotonic) -> tuple[int, bool]:
    """Runs a job, calling on_line(line) for every line of its output as it comes. When on_line
    returns True, or at `deadline` (clock's time) whatever it is doing, the job is ended: SIGTERM to
    its process group (scripts/launch's timeout and mpirun pass it on to the ranks), SIGKILL 10 s
    later. Returns (exit status, whether it was ended here).

    Open MPI's shared-memory transport leaves its backing files in /dev/shm behind when its ranks
    are killed (4 MiB a rank), so the job gets a folder of its own for them, removed afterwards."""
    env = dict(os.environ if env is None else env)
    backing = None
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        backing = tempfile.mkdtemp(prefix="gw-bench-job-", dir="/dev/shm")
        env["OMPI_MCA_btl_vader_backing_directory"] = backing
    try:
        return _stream(command, on_line, deadline, env, clock)
    finally:
        if backing:
            shutil.rmtree(backing, ignore_errors=True)


def _stream(command: list[str], on_line, deadline: float, env: dict, clock) -> tuple[int, bool]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                               start_new_session=True)
    ended = threading.Event()

    def end() -> None:
        if ended.is_set() or process.poll() is not None:
            return
        ended.set()
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    timer = threading.Timer(max(0.0, deadline - clock()), end) if math.isfinite(deadline) else None
    if timer:
        timer.daemon = True
        timer.start()
    try:
        for line in process.stdout:
            if on_line(line) and not ended.is_set():
                threading.Thread(target=end, daemon=True).start()
    finally:
        status = process.wait()
        process.stdout.close()
        if timer:
            timer.cancel()
    return status, ended.is_set()
