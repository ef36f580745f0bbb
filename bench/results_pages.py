# SPDX-License-Identifier: BSD-3-Clause
"""The pages built from recorded runs (bench/publish_results.py): docs/BENCHMARKS.md, one part per
machine, its tables exactly as the suite's report code wrote them for that run, and the README's
short results table. Every table names its one machine, commit and run."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import goals
from records import MAIN_JOB, Record, machine_label

INTRO = """\
What ghostwire buys you, measured side by side. Every table on this page comes from one recorded
run of the main job (`scripts/run`, about 14 minutes on 2 cores), in which ghostwire, the MPI
variants, the peers a user would take instead (PETSc's `PetscSF` types, Global Arrays) and the
floors ran in the same jobs, interleaved repetition by repetition. Read the ratios: absolute times
depend on the machine. Each goal is judged by the median of the per-repetition ratios, with a ~95%
interval of that median in brackets:

| verdict | meaning |
|---|---|
| met | the median satisfies the goal |
| tie | the interval reaches the goal, or the median is within 3% of it: the run cannot tell |
| floor | the goal lies beyond a floor measured in the same run (a variant doing only the unavoidable work), and ghostwire is within the goal's margin of that floor |
| NOT MET | the whole interval lies on the wrong side of the goal |
| not measured | too few paired repetitions for a verdict (the suite's time budget cut the point short) |

What each benchmark measures and how: [benchmarks-howto.md](benchmarks-howto.md). Earlier
machines, earlier measurements and what was tried: [history.md](history.md).

Reproduce (each run writes `results/<stamp>/`: JSON lines, logs, `summary.txt`, `report.md`,
`goals.json`, plots):

```sh
scripts/run                                      # set-up, then the main job
bench/run_suite.py --only halo,dist              # some benchmarks of the suite
bench/run_suite.py --report results/<stamp>      # tables, verdicts and plots of a run again
bench/publish_results.py results/<stamp>         # record a run here and rebuild this page
```

Run them with nothing else on the machine: a parallel build or test run skews the numbers 2-5x.
"""


def anchor(text: str) -> str:
    """GitHub's heading anchor: lower case, spaces to dashes, punctuation dropped."""
    kept = "".join(c for c in text.lower() if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def tagged(text: str) -> str:
    """The report's untagged code fences opened as ```text (the tables' goal lines, summaries)."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            if not inside and line.strip() == "```":
                line = "```text"
            inside = not inside
        out.append(line)
    return "\n".join(out)


def run_line(record: Record) -> str:
    minutes = f", {record.minutes:.1f} minutes" if record.minutes else ""
    return (f"Machine: {machine_label(record)}; commit `{record.commit}`; run `{record.stamp}` "
            f"({record.date}{minutes}).")


def counts_cells(verdicts: list[goals.Verdict]) -> str:
    c = goals.counts(verdicts)
    return " | ".join(str(c[s]) for s in goals.STATUSES)


def status_heads() -> tuple[str, str]:
    """The verdicts' columns: ' met | tie | ...' and its markdown rule."""
    return " | ".join(goals.STATUSES), "|---" * len(goals.STATUSES)


def runs_tables(by_machine: dict[str, list[Record]]) -> list[str]:
    out = ["## The runs", ""]
    for machine, records in by_machine.items():
        heads, rule = status_heads()
        out += [f"{machine}: every recorded run, newest first, with its verdicts.", "",
                f"| run | what | commit | date | minutes | {heads} |", f"|---|---|---|---|---{rule}|"]
        for r in records:
            minutes = f"{r.minutes:.1f}" if r.minutes else "-"
            out.append(f"| `{r.stamp}` | {r.kind} | `{r.commit}` | {r.date} | {minutes} | {counts_cells(r.verdicts)} |")
        out.append("")
    return out


def verdict_lines(verdicts: list[goals.Verdict]) -> list[str]:
    return [f"  {v.benchmark}:{v.line()[2:]}" for v in verdicts]


def summary_part(record: Record) -> list[str]:
    out = ["### Summary", "", run_line(record), ""]
    machine = next((line for line in record.sections.get("Summary", "").splitlines()
                    if line.startswith("Machine:")), "")
    if machine:
        out += [f"As the run found it: {machine[len('Machine:'):].strip()}.", ""]
    heads, rule = status_heads()
    out += [f"| benchmark | {heads} |", f"|---{rule}|"]
    for name in record.benchmarks():
        groups = record.verdict_groups(name)
        if not groups:  # a benchmark without goals (bandwidth: tables and plots only)
            out.append(f"| {name} | " + " | ".join("-" for _ in goals.STATUSES) + " |")
        for group in groups:
            out.append(f"| {group} | {counts_cells(record.verdicts_of(group))} |")
    out += [f"| **all** | {counts_cells(record.verdicts)} |", ""]
    headline = [v for v in record.verdicts if v.headline]
    if headline:
        out += ["Headline ratios (median of paired repetitions [~95% interval]; below 1 for times, above 1 "
                "for speeds, favours ghostwire):", "", *headline_table(headline), ""]
    for status, title in (("NOT MET", "Goals NOT MET"), ("floor", "Goals beyond a floor measured in the same run"),
                          ("tie", "Ties (the run cannot tell the two apart)"),
                          (goals.NOT_MEASURED, "Goals not measured (too few paired repetitions)")):
        chosen = [v for v in record.verdicts if v.status == status]
        if chosen:
            out += [f"{title}:", "", "```text", *verdict_lines(chosen), "```", ""]
    return out


def headline_table(verdicts: list[goals.Verdict]) -> list[str]:
    """benchmark, where, the ratio, its median [~95% interval], the goal's bound and the verdict."""
    rows = ["| benchmark | where | ratio | measured | goal | verdict |", "|---|---|---|---|---|---|"]
    for v in verdicts:
        bound = "-" if v.bound is None else ("≥ " if v.at_least else "≤ ") + f"{v.bound:.2f}"
        measured = (f"{v.ratio:.2f} [{v.low:.2f}-{v.high:.2f}]" if v.status != goals.NOT_MEASURED and
                    None not in (v.ratio, v.low, v.high) else v.ratio_text())
        where = " ".join(v.where.split())  # drivers align their columns with spaces
        rows.append(f"| {v.benchmark} | {where} | {v.text} | {measured} | {bound} | {v.status} |")
    return rows


def images_of(record: Record, name: str) -> list[Path]:
    return [p for p in record.images
            if (p.parent == record.path and p.stem == name) or p.parent.name == name]


def benchmark_part(record: Record, name: str, link_base: str) -> list[str]:
    out = [f"### {name}", "", run_line(record), ""]
    if name in record.sections:
        out += [tagged(record.sections[name]), ""]
    else:
        verdicts = record.verdicts_of(name)
        if verdicts:
            out += ["```text", *verdict_lines(verdicts), "```", ""]
    for image in images_of(record, name):
        relative = image.relative_to(record.path.parent).as_posix()
        out += [f"![{name}: {image.stem}]({link_base}/{relative})", ""]
    return out


def machines(records: list[Record]) -> dict[str, list[Record]]:
    by_machine: dict[str, list[Record]] = defaultdict(list)
    for record in records:  # newest first, so each machine's list is too
        by_machine[machine_label(record)].append(record)
    return dict(by_machine)


def benchmarks_page(records: list[Record], link_base: str) -> str:
    """docs/BENCHMARKS.md: the runs on each machine, then per machine its latest run in full."""
    by_machine = machines(records)
    out = ["# Benchmarks: measured results", "",
           "<!-- Built by bench/publish_results.py from the recorded runs in docs/records/; do not edit. -->", "",
           INTRO, *runs_tables(by_machine)]
    for machine, runs in by_machine.items():
        latest = latest_of_each_kind(runs)
        main = latest.pop(MAIN_JOB, None)
        if main:
            out += [f"## {machine}: the latest run", "", *summary_part(main)]
            for name in main.benchmarks():
                out += benchmark_part(main, name, link_base)
        for kind, record in sorted(latest.items()):
            out += [f"## {machine}: {kind}, its own driver", "", *driver_part(record, link_base)]
    return "\n".join(out).rstrip("\n") + "\n"


def latest_of_each_kind(runs: list[Record]) -> dict[str, Record]:
    latest: dict[str, Record] = {}
    for record in runs:  # newest first
        latest.setdefault(record.kind, record)
    return latest


def driver_part(record: Record, link_base: str) -> list[str]:
    """A driver's own run (bench/<driver>/run_*.py): its command, summary, verdicts and plots."""
    out = [run_line(record), "", f"Command: `{record.meta.get('command', '?')}`", ""]
    if "summary" in record.sections:
        out += [tagged(record.sections["summary"]), ""]
    if record.verdicts:
        out += ["```text", *verdict_lines(record.verdicts), "```", ""]
    for image in record.images:
        out += [f"![{record.kind}: {image.stem}]({link_base}/{image.relative_to(record.path.parent).as_posix()})", ""]
    return out


def readme_block(records: list[Record]) -> str:
    """The README's results: the newest run's totals and its headline goals."""
    latest = next((r for r in records if r.kind == MAIN_JOB), records[0])
    c = goals.counts(latest.verdicts)
    minutes = f", {latest.minutes:.1f} minutes" if latest.minutes else ""
    heading = (f"Measured side by side by `scripts/run` on {machine_label(latest)} (commit `{latest.commit}`, run "
               f"`{latest.stamp}`{minutes}): of {len(latest.verdicts)} goals {c['met']} met, {c['tie']} tie, {c['floor']} "
               f"beyond a floor measured in the same run, {c['NOT MET']} NOT MET"
               + (f", {c[goals.NOT_MEASURED]} not measured" if c[goals.NOT_MEASURED] else "") +
               ". Every table, plot and verdict: "
               f"[docs/BENCHMARKS.md](docs/BENCHMARKS.md#{anchor(machine_label(latest) + ': the latest run')}).")
    headline = [v for v in latest.verdicts if v.headline]
    return "\n".join([heading, "", *headline_table(headline), ""]) + "\n"
