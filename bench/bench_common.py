"""Helpers shared by the benchmark drivers (run_suite.py, heat/, minighost/): reading the programs'
JSON lines and describing the machine a run was measured on."""
from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
