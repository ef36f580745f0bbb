# SPDX-License-Identifier: BSD-3-Clause
"""A recorded run of the main job (docs/records/<stamp>/, written by bench/publish_results.py): its
machine and commit (meta.json), its verdicts (goals.json), its tables (report.md, as the suite's
report code wrote them) and its plots."""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path

import goals

MAIN_JOB = "main job"


@dataclass
class Record:
    path: Path
    meta: dict
    verdicts: list[goals.Verdict]
    sections: dict[str, str]          # report.md by benchmark name ("Summary" too), in its order
    images: list[Path] = field(default_factory=list)

    @property
    def stamp(self) -> str:
        return self.path.name

    @property
    def commit(self) -> str:
        return self.meta.get("machine", {}).get("commit", "?")

    @property
    def minutes(self) -> float | None:
        try:
            start = datetime.datetime.fromisoformat(self.meta["started"])
            end = datetime.datetime.fromisoformat(self.meta["finished"])
        except (KeyError, ValueError):
            return None
        return (end - start).total_seconds() / 60

    @property
    def date(self) -> str:
        return self.meta.get("started", "?")[:10]

    @property
    def kind(self) -> str:
        """"main job" for bench/run_suite.py's runs, else the driver's name (run_topo_bench.py: topo)."""
        program = Path(self.meta.get("command", "").split(" ")[0]).stem
        if program in ("run_suite", ""):
            return MAIN_JOB
        return program.removeprefix("run_").removesuffix("_bench")

    def verdicts_of(self, benchmark: str) -> list[goals.Verdict]:
        return [v for v in self.verdicts if v.benchmark == benchmark]

    def benchmarks(self) -> list[str]:
        """The report's sections, then the verdicts' benchmarks that belong to none (the petsc
        driver's verdicts, petsc-sf and petsc-snes-ex5, belong to its section petsc)."""
        names = [name for name in self.sections if name != "Summary"]
        others = {v.benchmark for v in self.verdicts if self.section_of(v.benchmark, names) is None}
        return names + sorted(others)

    def section_of(self, benchmark: str, names: list[str] | None = None) -> str | None:
        """The section a verdict's benchmark belongs to: itself, or the longest section name it
        starts with followed by '-'; None if none."""
        names = [n for n in self.sections if n != "Summary"] if names is None else names
        owners = [n for n in names if benchmark == n or benchmark.startswith(n + "-")]
        return max(owners, key=len) if owners else None

    def verdict_groups(self, section: str) -> list[str]:
        """The verdicts' benchmark names that belong to `section`, in order of appearance."""
        found = dict.fromkeys(v.benchmark for v in self.verdicts)
        return [f for f in found if (self.section_of(f) or f) == section]


def machine_label(record: Record) -> str:
    """The machine as a reader tells machines apart: CPU model and core count (a VM of another
    host CPU is another machine; the host name of a VM is not)."""
    machine = record.meta.get("machine", {})
    return f"{machine.get('cpu') or 'unknown CPU'}, {machine.get('cores', '?')} cores"


def report_sections(text: str) -> dict[str, str]:
    """report.md split at its '## name' headings."""
    sections: dict[str, str] = {}
    name, lines = None, []
    for line in text.splitlines():
        if line.startswith("## "):
            if name is not None:
                sections[name] = "\n".join(lines).strip("\n")
            name, lines = line[3:].strip(), []
        elif name is not None:
            lines.append(line)
    if name is not None:
        sections[name] = "\n".join(lines).strip("\n")
    return sections


def load_record(path: Path) -> Record:
    meta = json.loads((path / "meta.json").read_text())
    report, summary = path / "report.md", path / "summary.txt"
    if report.exists():
        sections = report_sections(report.read_text())
    else:  # a driver's own run: its summary is its one section
        sections = {"summary": "```\n" + summary.read_text().rstrip("\n") + "\n```"} if summary.exists() else {}
    images = sorted(path.rglob("*.png"))
    return Record(path, meta, goals.read(path / "goals.json"), sections, images)


def load_records(folder: Path) -> list[Record]:
    """Every record in `folder`, newest first (by the run's start)."""
    if not folder.exists():
        return []
    found = [load_record(p) for p in sorted(folder.iterdir()) if (p / "meta.json").exists()]
    return sorted(found, key=lambda r: (r.meta.get("started", ""), r.stamp), reverse=True)
