"""Helpers shared by the benchmark drivers (run_suite.py, heat/, minighost/): reading the programs'
JSON lines and describing the machine a run was measured on."""
from __future__ import annotations

import json
import os
import platform
import subprocess
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
