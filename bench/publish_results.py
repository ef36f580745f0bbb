#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Recorded runs, and the pages built from them: docs/BENCHMARKS.md and the README's results table.

A run of the main job (bench/run_suite.py, scripts/run) writes results/<stamp>/, a driver's own run
(bench/<benchmark>/run_*.py) results/<benchmark>-<stamp>/. Publishing it copies what the report code
reads (JSON lines, meta.json, goals.json, summary.txt, report.md, the
drivers' folders and the plots; not the logs) to docs/records/<stamp>/, then builds the pages from
every record there. Nothing on those pages is typed by hand, so they cannot drift from the runs:
`--check` (a test in CI) builds them again and fails where a page differs.

    bench/publish_results.py results/<stamp>       record a run and rebuild the pages
    bench/publish_results.py                       rebuild the pages from docs/records/
    bench/publish_results.py --check               exit 1 if a page is not what the records give
    bench/publish_results.py --record-only DIR     record a run, leave the pages
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import sys
from pathlib import Path

from records import Record, load_records, machine_label
from results_pages import benchmarks_page, readme_block

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "docs" / "records"
PAGE = ROOT / "docs" / "BENCHMARKS.md"
README = ROOT / "README.md"
README_BEGIN = "<!-- results: built by bench/publish_results.py from docs/records; do not edit -->"
README_END = "<!-- end of results -->"
KEPT = ("*.jsonl", "meta.json", "goals.json", "summary.txt", "report.md", "*.png")


def record_run(results: Path, records: Path) -> Path:
    """Copies a results folder's recorded files (not its logs) to records/<its name>."""
    if not (results / "meta.json").exists() or not (results / "goals.json").exists():
        sys.exit(f"publish_results: {results} is not a finished run of the suite or a driver "
                 "(no meta.json or goals.json)")
    if not (results / "summary.txt").exists():
        sys.exit(f"publish_results: {results} has no summary.txt (run its driver's --report first)")
    meta = json.loads((results / "meta.json").read_text())
    if meta.get("quick"):
        sys.exit(f"publish_results: {results} is a --quick smoke run, not a measurement; not recorded")
    if meta.get("failures"):
        sys.exit(f"publish_results: {results} has failed steps ({'; '.join(meta['failures'])}); not recorded")
    target = records / results.name
    if target.exists():
        shutil.rmtree(target)
    for pattern in KEPT:
        for path in results.rglob(pattern):
            destination = target / path.relative_to(results)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination)
    return target


def readme_with(readme: str, block: str) -> str:
    begin, end = readme.find(README_BEGIN), readme.find(README_END)
    if begin < 0 or end < begin:
        sys.exit(f"publish_results: README.md has no results block ({README_BEGIN} ... {README_END})")
    return readme[:begin] + README_BEGIN + "\n" + block + readme[end:]


def built_pages(records: list[Record], records_dir: Path, page: Path, readme: Path) -> dict[Path, str]:
    """The page (its links to plots relative to it) and the README with its results block."""
    link_base = Path(os.path.relpath(records_dir, page.parent)).as_posix()
    return {page: benchmarks_page(records, link_base), readme: readme_with(readme.read_text(), readme_block(records))}


def differences(pages: dict[Path, str]) -> list[str]:
    out = []
    for path, text in pages.items():
        current = path.read_text() if path.exists() else ""
        if current != text:
            diff = difflib.unified_diff(current.splitlines(), text.splitlines(), f"{path.name} (committed)",
                                        f"{path.name} (from the records)", lineterm="", n=1)
            out.append("\n".join(list(diff)[:40]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="?", help="a finished run's folder (results/<stamp>) to record first")
    parser.add_argument("--check", action="store_true", help="only compare the pages with the records")
    parser.add_argument("--record-only", action="store_true", help="record the run, do not rebuild the pages")
    parser.add_argument("--records", default=str(RECORDS), help="the records' folder (default: docs/records)")
    parser.add_argument("--page", default=str(PAGE), help="the benchmarks page (default: docs/BENCHMARKS.md)")
    parser.add_argument("--readme", default=str(README), help="the README with the results block (default: README.md)")
    opts = parser.parse_args()
    records_dir = Path(opts.records)
    if opts.results:
        if opts.check:
            sys.exit("publish_results: --check takes no results folder")
        target = record_run(Path(opts.results), records_dir)
        print(f"publish_results: recorded {opts.results} as {target}")
        if opts.record_only:
            return 0
    elif opts.record_only:
        sys.exit("publish_results: --record-only needs a results folder")
    records = load_records(records_dir)
    if not records:
        sys.exit(f"publish_results: no recorded runs in {records_dir}")
    pages = built_pages(records, records_dir, Path(opts.page), Path(opts.readme))
    if opts.check:
        problems = differences(pages)
        for problem in problems:
            print(problem)
        if problems:
            print("publish_results: the pages differ from the records; run bench/publish_results.py to rebuild them")
            return 1
        print(f"publish_results: BENCHMARKS.md and the README's results are those of the {len(records)} recorded run(s)")
        return 0
    for path, text in pages.items():
        path.write_text(text)
    machines = sorted({machine_label(r) for r in records})
    print(f"publish_results: wrote {opts.page} and the results of {opts.readme} from {len(records)} run(s) "
          f"on {len(machines)} machine(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
