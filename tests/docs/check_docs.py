#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the user's pages (README.md and docs/**/*.md) for what lets them drift from the code:

- every fenced block names its language (```cpp, ```sh, ```text, ...), so that code can be told
  from output;
- every block of program code (cpp, c, fortran, python, cmake, make) is an excerpt of a file that CI
  compiles and runs: a guide's programs live under examples/ (each run and checked at 2 ranks), a
  page about an app or the library may quote apps/, include/, src/, bindings/, bench/ or tests/. A block may
  leave lines out where it has a line of its own that is only `...` (or a comment of only `...`:
  `// ...`, `! ...`, `# ...`); each piece between such lines must be consecutive lines of one file,
  the pieces in the file's order. Lines are compared without their leading and trailing blanks;
- relative links point at files that exist;
- no issue numbers or session history on user pages (docs/history.md holds the history).

    check_docs.py [ROOT]        prints every problem as FILE:LINE: what; exit status 1 if any
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

CODE_LANGUAGES = {"cpp", "c++", "c", "fortran", "f90", "python", "py", "cmake", "make", "makefile"}
EXCERPT_ROOTS = ("examples", "tests", "apps", "include", "src", "bindings", "bench", "cmake")
EXCERPT_SUFFIXES = {".cpp", ".hpp", ".c", ".h", ".cu", ".cuh", ".f90", ".F90", ".py", ".txt", ".cmake", ".mk", ".in", ".inc", ""}
ELISION = re.compile(r"^\s*(//|!|#)?\s*\.\.\.\s*$")
# Words that belong to the project's history, not to a user's page.
HISTORY_PATTERNS = [
    (re.compile(r"\b[Ii]ssues? #?\d+"), "an issue number"),
    (re.compile(r"\bsince commit\b"), "a 'since commit' note"),
    (re.compile(r"\(was [^)]*\)"), "a '(was ...)' note"),
]
HISTORY_PAGES = {"docs/history.md"}
FENCE = re.compile(r"^(\s*)```(.*)$")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def blocks(lines: list[str]):
    """(first line number, language, body lines) of each fenced block; unterminated ones too."""
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, language, body = i + 1, m.group(2).strip().lower(), []
        i += 1
        while i < len(lines) and not FENCE.match(lines[i]):
            body.append(lines[i])
            i += 1
        yield start, language, body, i < len(lines)
        i += 1


def pieces(body: list[str]) -> list[list[str]]:
    out, current = [], []
    for line in body:
        if ELISION.match(line):
            if current:
                out.append(current)
            current = []
        else:
            current.append(line.strip())
    if current:
        out.append(current)
    # blank lines at a piece's ends say nothing
    trimmed = []
    for piece in out:
        while piece and not piece[0]:
            piece = piece[1:]
        while piece and not piece[-1]:
            piece = piece[:-1]
        if piece:
            trimmed.append(piece)
    return trimmed


def find_in(piece: list[str], text: list[str], after: int) -> int:
    """Index just past the first run of `piece` in `text` at or after `after`, or -1."""
    n = len(piece)
    for start in range(after, len(text) - n + 1):
        if text[start:start + n] == piece:
            return start + n
    return -1


def quoted_from(body: list[str], sources: dict[Path, list[str]]) -> Path | None:
    parts = pieces(body)
    if not parts:
        return None
    for path, text in sources.items():
        at = 0
        for piece in parts:
            at = find_in(piece, text, at)
            if at < 0:
                break
        else:
            return path
    return None


def source_files(root: Path) -> dict[Path, list[str]]:
    found = {}
    for top in EXCERPT_ROOTS:
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and (path.suffix in EXCERPT_SUFFIXES or path.name == "Makefile"):
                try:
                    found[path.relative_to(root)] = [l.strip() for l in path.read_text().splitlines()]
                except UnicodeDecodeError:
                    continue
    return found


def pages(root: Path) -> list[Path]:
    """README.md and docs/**/*.md; not the recorded runs' own files (docs/records: data)."""
    records = root / "docs" / "records"
    return [root / "README.md"] + sorted(p for p in (root / "docs").rglob("*.md") if records not in p.parents)


def check_page(root: Path, page: Path, sources: dict[Path, list[str]]) -> list[str]:
    rel = page.relative_to(root).as_posix()
    lines = page.read_text().splitlines()
    problems = []
    inside = set()
    for start, language, body, closed in blocks(lines):
        inside.update(range(start - 1, start + len(body) + 1))
        where = f"{rel}:{start}"
        if not closed:
            problems.append(f"{where}: the block is never closed")
        if not language:
            problems.append(f"{where}: the block names no language (```cpp, ```sh, ```text, ...)")
        elif language in CODE_LANGUAGES and not quoted_from(body, sources):
            problems.append(f"{where}: this {language} block is not an excerpt of any file under "
                            f"{', '.join(EXCERPT_ROOTS)} (put the program under examples/, compiled and run by CI, and quote it)")
    for number, line in enumerate(lines, 1):
        if number - 1 in inside:
            continue
        for link in LINK.findall(line):
            target = link.split("#", 1)[0]
            if not target or re.match(r"^[a-z]+:", target):
                continue
            if not (page.parent / target).exists():
                problems.append(f"{rel}:{number}: the link '{link}' points at nothing")
        if rel not in HISTORY_PAGES:
            for pattern, what in HISTORY_PATTERNS:
                if pattern.search(line):
                    problems.append(f"{rel}:{number}: {what} on a user's page (history goes to docs/history.md)")
    return problems


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    sources = source_files(root)
    problems = [p for page in pages(root) for p in check_page(root, page, sources)]
    for problem in problems:
        print(problem)
    checked = len(pages(root))
    if problems:
        print(f"check_docs: {len(problems)} problem(s) in {checked} pages")
        return 1
    print(f"check_docs: {checked} pages, every code block quoted from a program CI runs, every link found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
