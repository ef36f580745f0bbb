#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/publish_results.py on made-up records: a run is recorded without its logs, the page names
the machine, commit and run of every table, machines are never mixed in one table, the README's
results are the newest run's, and --check fails when a figure on either page is not the record's."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import goals  # noqa: E402
from records import load_records  # noqa: E402
from results_pages import benchmarks_page, readme_block  # noqa: E402

REPORT = """## latency

intra, one-way latency [usec]:

| bytes | gw | raw |
|---|---|---|
| 8 B | 0.11 | 0.10 |

```
  goal     met: intra, 8 B: gw / raw = 1.100 [1.000-1.200, 9 paired repeats] (at most 1.30)
```

## heat

```
heat summary text
```

## Summary

```
Machine: Test CPU, 2 cores, commit abc1234; core-to-core one-way latency 70 ns (8 B, raw floor)
```
"""


def make_run(folder: Path, stamp: str, cpu: str, commit: str, ratio: float) -> Path:
    run = folder / stamp
    (run / "heat").mkdir(parents=True)
    meta = {"started": f"2026-11-{stamp[6:8]}T10:00:00", "finished": f"2026-11-{stamp[6:8]}T10:13:30",
            "machine": {"cpu": cpu, "cores": 2, "commit": commit}, "quick": False, "failures": []}
    (run / "meta.json").write_text(json.dumps(meta))
    verdicts = [goals.Verdict("latency", "intra, 8 B", "gw / raw", 1.3, False, ratio, ratio - 0.1, ratio + 0.1, 9,
                              status="met", headline=True, notes=["gw within 1.3x of raw at 8 B"]),
                goals.Verdict("heat", "intra-2, 1024^2, 8x8", "gw / best MPI", 1.0, False, 1.2, 1.1, 1.3, 13,
                              status="NOT MET"),
                goals.Verdict("latency", "multihost, 8 B", "gw / mpi-sendrecv", 1.1, False, None, None, None, 0,
                              status=goals.NOT_MEASURED, headline=True, planned=9)]
    goals.write(run / "goals.json", verdicts)
    (run / "report.md").write_text(REPORT)
    (run / "summary.txt").write_text("the closing summary\n")
    (run / "latency.jsonl").write_text('{"bench":"latency","impl":"gw","bytes":8,"usec":0.11}\n')
    (run / "latency-intra.log").write_text("a log\n")
    (run / "heat" / "heat.png").write_bytes(b"\x89PNG")
    return run


def check(condition: bool, what: str) -> None:
    if not condition:
        sys.exit(f"publish_test: FAILED: {what}")


def driver_record_is_its_own_part() -> None:
    """A driver's own run (no report.md) is shown in a part of its own, after the main job's."""
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        main_run = make_run(scratch, "20261128-100000", "Test CPU", "abc1234", 1.10)
        driver = scratch / "topo-20261128-120000"
        driver.mkdir()
        (driver / "meta.json").write_text(json.dumps({
            "started": "2026-11-28T12:00:00", "finished": "2026-11-28T12:05:00",
            "command": "bench/topo/run_topo_bench.py --out x", "machine": {"cpu": "Test CPU", "cores": 2,
                                                                             "commit": "def5678"}}))
        goals.write(driver / "goals.json", [goals.Verdict("topo", "multihost-4", "hier / rr", 0.8, False, 0.6, 0.5,
                                                          0.7, 9, status="met")])
        (driver / "summary.txt").write_text("topology summary\n")
        page = benchmarks_page(load_records(scratch), "records")
        check(page.index("## Test CPU, 2 cores: the latest run") < page.index("## Test CPU, 2 cores: topo, its own driver"),
              "the driver's part after the main job's")
        part = page.split("## Test CPU, 2 cores: topo, its own driver")[1]
        check("commit `def5678`" in part and "topology summary" in part and "hier / rr = 0.600" in part,
              "the driver's part: its commit, summary and verdicts")
        check("| `topo-20261128-120000` | topo | `def5678` |" in page, "the runs table names the driver's run")
        check("`abc1234`" in readme_block(load_records(scratch)), "the README's results stay the main job's")
        del main_run


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        results = scratch / "results"
        new = make_run(results, "20261128-100000", "Test CPU", "abc1234", 1.10)
        old = make_run(results, "20261127-100000", "Test CPU", "0000old", 1.25)
        other = make_run(results, "20261126-100000", "Other CPU", "othercm", 1.20)
        records_dir = scratch / "records"
        script = BENCH / "publish_results.py"
        for run in (new, old, other):
            done = subprocess.run([sys.executable, script, "--records", str(records_dir), "--record-only", str(run)],
                                  capture_output=True, text=True)
            check(done.returncode == 0, f"recording {run.name}: {done.stdout}{done.stderr}")
        check(not list(records_dir.rglob("*.log")), "logs are not recorded")
        check((records_dir / new.name / "latency.jsonl").exists(), "JSON lines are recorded")
        check((records_dir / new.name / "heat" / "heat.png").exists(), "the drivers' plots are recorded")

        records = load_records(records_dir)
        check([r.stamp for r in records] == [new.name, old.name, other.name], "records newest first")
        page = benchmarks_page(records, "records")
        check("```\n" not in page.replace("```text\n", "").replace("```sh\n", "").replace("\n```\n", "\n"),
              "every code block of the page names its language")
        check(page.count("## Test CPU, 2 cores: the latest run") == 1 and
              page.count("## Other CPU, 2 cores: the latest run") == 1, "one part per machine")
        test_part = page.split("## Test CPU, 2 cores: the latest run")[1].split("## Other CPU")[0]
        check("othercm" not in test_part and "0000old" not in test_part, "a machine's part holds its latest run only")
        for section in ("### latency", "### heat"):
            body = test_part.split(section)[1].split("\n### ")[0]
            check("Machine: Test CPU, 2 cores; commit `abc1234`; run `20261128-100000`" in body,
                  f"{section} names its machine, commit and run")
        check("records/20261128-100000/heat/heat.png" in test_part, "the driver's plot is shown with its benchmark")
        check("| 1.10 [1.00-1.20] |" in test_part, "the headline ratio with its interval")
        check("| latency | multihost, 8 B | gw / mpi-sendrecv | not measured (no paired repeats of 9 measured) |"
              in test_part, "a headline goal the budget cut says so instead of a ratio")
        check("| **all** | 1 | 0 | 0 | 1 | 1 |" in test_part, "the verdict counts, not measured among them")

        block = readme_block(records)
        check("commit `abc1234`" in block and "1.10 [1.00-1.20]" in block and "of 3 goals 1 met" in block and "1 not measured" in block
              and "1 NOT MET" in block, f"the README's results are the newest run's: {block}")

        # --check: the committed pages against the records, both ways.
        readme = scratch / "README.md"
        readme.write_text("# x\n\n<!-- results: built by bench/publish_results.py from docs/records; do not edit -->\n"
                          "<!-- end of results -->\n")
        page_path = scratch / "BENCHMARKS.md"
        base = [sys.executable, script, "--records", str(records_dir), "--readme", str(readme), "--page", str(page_path)]
        done = subprocess.run(base, capture_output=True, text=True)
        check(done.returncode == 0, f"building the pages: {done.stdout}{done.stderr}")
        done = subprocess.run(base + ["--check"], capture_output=True, text=True)
        check(done.returncode == 0, f"--check on pages just built: {done.stdout}")
        readme.write_text(readme.read_text().replace("1.10 [1.00-1.20]", "1.05 [1.00-1.20]"))
        done = subprocess.run(base + ["--check"], capture_output=True, text=True)
        check(done.returncode == 1 and "1.05" in done.stdout, "--check fails on a README figure not the record's")
        subprocess.run(base, capture_output=True, text=True)
        page_path.write_text(page_path.read_text().replace("| 0.11 | 0.10 |", "| 0.09 | 0.10 |"))
        done = subprocess.run(base + ["--check"], capture_output=True, text=True)
        check(done.returncode == 1, "--check fails on a table figure not the record's")

        quick = make_run(results, "20261128-110000-quick", "Test CPU", "abc1234", 1.0)
        meta = json.loads((quick / "meta.json").read_text())
        (quick / "meta.json").write_text(json.dumps({**meta, "quick": True}))
        done = subprocess.run([sys.executable, script, "--records", str(records_dir), "--record-only", str(quick)],
                              capture_output=True, text=True)
        check(done.returncode != 0 and "smoke run" in done.stdout + done.stderr, "a --quick run is refused")
    driver_record_is_its_own_part()
    print("publish_test: recorded runs, pages per machine, README results and --check all as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
