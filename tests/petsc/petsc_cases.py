#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""PETSc's own test cases, run with the PetscSF type ghostwire (docs/petsc.md, "Tests").

Reads the /*TEST ... TEST*/ block of a PETSc example, expands it into cases (testsets, {{a b}}
loops), and for one case runs the example through scripts/launch with
    -dll_append <libghostwire_petsc.so> -sf_type ghostwire
in place of the case's own -sf_type (and -sf_window_* options), then compares the output with the
case's expected output file (basic's), after the case's filter, ignoring the lines that name the SF
type and allowing the small numeric differences PETSc's own petscdiff allows.

  petsc_cases.py list --source EX.c
  petsc_cases.py run  --source EX.c --exe EX --case NAME --library SO --launch LAUNCH --petscconf H
  petsc_cases.py same-solution --exe EX --args "..." --ranks N --library SO --launch LAUNCH

--path emulated --rpn K runs on emulated nodes of K ranks (scripts/launch): the edges between
them go through a basic SF of their own, the rest through ghostwire.

--transfer segment|cma adds -sf_ghostwire_transfer with that value (and sets
GHOSTWIRE_PETSC_TRANSFER for SFs that do not read the options): messages between node peers all
staged in a Segment, or all read from the peer's array by cross-memory attach.
"""
import argparse
import functools
import itertools
import os
import re
import shlex
import subprocess
import sys
import tempfile

SKIP = 77  # CTest's SKIP_RETURN_CODE for these tests
SF_TYPE_OPTION = re.compile(r"-(?:user_)?sf_type\s+\S+|-sf_window_\w+\s+\S+")
# Lines naming the SF type ("  type: basic" of -sf_view, "scatter type basic" of a test's own print).
TYPE_LINE = re.compile(r"\btype:?\s+(?:basic|ghostwire|window|neighbor)\b")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def test_block(source):
    text = open(source, encoding="utf-8", errors="replace").read()
    match = re.search(r"/\*TEST(.*?)TEST\*/", text, re.S)
    if not match:
        raise SystemExit(f"petsc_cases: {source} has no /*TEST ... TEST*/ block")
    return match.group(1)


def parse_entries(block):
    """The block's test: and testset: entries as dicts; a testset's tests inherit its keys."""
    entries, testset, current = [], None, None
    for raw in block.splitlines():
        line = raw.split("#", 1)[0].rstrip() if not raw.strip().startswith("#") else ""
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        key, _, value = line.strip().partition(":")
        value = value.strip()
        if key == "testset":
            testset, current = {"_indent": indent}, None
            continue
        if key == "test":
            if testset is not None and indent <= testset["_indent"]:
                testset = None
            current = {k: v for k, v in (testset or {}).items() if k != "_indent"}
            current["_inherited_args"] = current.pop("args", "")
            entries.append(current)
            continue
        target = current if current is not None else testset
        if target is None:
            continue
        if key == "args" and target.get("args"):  # several args: lines add up
            value = target["args"] + " " + value
        if key == "suffix" and target is current and testset and testset.get("suffix"):
            value = testset["suffix"] + "_" + value  # a testset's suffix comes first
        target[key] = value
    for e in entries:
        e["args"] = (e.pop("_inherited_args", "") + " " + e.get("args", "")).strip()
    return entries


def expand_loops(text):
    """'{{a b}}' loops into every combination; None when a loop asks for separate output files."""
    if "separate output" in text:
        return None
    loops = re.findall(r"\{\{(.*?)\}\}", text)
    if not loops:
        return [text]
    results = []
    for combination in itertools.product(*[loop.split() for loop in loops]):
        expanded = text
        for value in combination:
            expanded = re.sub(r"\{\{.*?\}\}", value, expanded, count=1)
        results.append(expanded)
    return results


def cases(source):
    """Every case as (name, entry): basic's cases first, then cases of other SF types whose
    arguments, once their SF type is replaced, are not already a case."""
    example = os.path.splitext(os.path.basename(source))[0]
    found, seen = [], set()
    entries = parse_entries(test_block(source))
    for prefer_basic in (True, False):
        for e in entries:
            original = e.get("args", "")
            other_type = re.search(r"-sf_type\s+(?!basic\b)\S+", original) is not None
            if other_type == prefer_basic:
                continue
            nsizes = expand_loops(e.get("nsize", "1"))
            argsets = expand_loops(original)
            if nsizes is None or argsets is None:
                continue
            suffix = e.get("suffix", "")
            for i, (nsize, args) in enumerate(itertools.product(nsizes, argsets)):
                key = (nsize, " ".join(SF_TYPE_OPTION.sub("", args).split()))
                if key in seen:
                    continue
                seen.add(key)
                name = f"{example}_{suffix}" if suffix else example
                if len(nsizes) * len(argsets) > 1:
                    name += f".{i}"
                found.append((name, dict(e, nsize=nsize, args=args, example=example)))
    return found


def requirement_met(token, conf):
    negate = token.startswith("!")
    token = token.lstrip("!")
    macro = re.fullmatch(r"defined\((\w+)\)", token)
    if macro:
        have = macro.group(1) in conf
    else:
        known = {"double": "PETSC_USE_REAL_DOUBLE", "single": "PETSC_USE_REAL_SINGLE", "complex": "PETSC_USE_COMPLEX",
                 "real": None, "64bitindices": "PETSC_USE_64BIT_INDICES", "debug": "PETSC_USE_DEBUG",
                 "datafilespath": "GHOSTWIRE_NO_DATAFILES"}
        name = known.get(token, "PETSC_HAVE_" + token.upper())
        have = True if name is None else name in conf
        if token == "real":
            have = "PETSC_USE_COMPLEX" not in conf
    return have != negate


@functools.lru_cache(maxsize=None)
def defined_macros(petscconf):
    """The macros petscconf.h defines: read once per process, `list` asks for every case."""
    with open(petscconf) as f:
        return frozenset(re.findall(r"#define\s+(\w+)", f.read()))


def unmet_requirements(entry, petscconf):
    conf = defined_macros(petscconf)
    return [t for t in entry.get("requires", "").split() if not requirement_met(t, conf)]


def shell_filter(text, command):
    if not command:
        return text
    return subprocess.run(command, shell=True, input=text, capture_output=True, text=True).stdout


def comparable(text):
    return [line.split() for line in text.splitlines() if line.strip() and not TYPE_LINE.search(line)]


def numbers_close(a, b):
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    return abs(x - y) <= 1e-10 + 1e-5 * max(abs(x), abs(y))


def lines_match(expected, actual):
    """First differing line (1-based) of the two token lists, or 0; numbers within PETSc's tolerance."""
    for number, (e, a) in enumerate(itertools.zip_longest(expected, actual, fillvalue=None), 1):
        if e is None or a is None or len(e) != len(a):
            return number
        for x, y in zip(e, a):
            if x != y and not (NUMBER.fullmatch(x) and NUMBER.fullmatch(y) and numbers_close(x, y)):
                return number
    return 0


def launch(opts, ranks, args, cwd):
    command = [opts.launch, "--path", opts.path, "-n", str(ranks), "--timeout", str(opts.timeout)]
    if opts.rpn:
        command += ["--rpn", str(opts.rpn)]
    command += ["--", opts.exe] + args
    env = dict(os.environ)
    if opts.transfer:
        env["GHOSTWIRE_PETSC_TRANSFER"] = opts.transfer
    run = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env)
    return run.returncode, run.stdout, run.stderr, command


def run_in_scratch(opts, ranks, args):
    with tempfile.TemporaryDirectory(prefix="gw-petsc-") as work:
        return launch(opts, ranks, args, work)


def petsc_root(source):
    """The folder holding share/petsc of the examples' PETSc (the harness's ${PETSC_DIR})."""
    marker = os.sep + os.path.join("share", "petsc", "examples", "src") + os.sep
    path = os.path.abspath(source)
    return path[: path.index(marker)] if marker in path else os.environ.get("PETSC_DIR", "")


def with_petsc_dir(args, source):
    """The case's arguments with PETSc's harness variables (${PETSC_DIR}, ${wPETSC_DIR}) filled in."""
    root = petsc_root(source)
    return args.replace("${wPETSC_DIR}", root).replace("${PETSC_DIR}", root)


def ghostwire_args(args, library, transfer=None):
    extra = ["-sf_ghostwire_transfer", transfer] if transfer else []
    return shlex.split(SF_TYPE_OPTION.sub("", args)) + ["-dll_append", library, "-sf_type", "ghostwire"] + extra


def expected_output(entry, source):
    output = entry.get("output_file") or f"output/{entry['example']}_{entry.get('suffix') or '1'}.out"
    return os.path.join(os.path.dirname(os.path.abspath(source)), output)


def shell_safe(text):
    """CMake registers the reason inside sh -c "echo '...'": no quotes, semicolons or expansions."""
    return re.sub(r"[^\w .,:()=/+-]", " ", text)


def skip_reason(entry, source, petscconf):
    """Why this PETSc cannot run the case, or None."""
    if entry.get("TODO"):
        return f"PETSc marks it TODO: {entry['TODO']}"
    missing = unmet_requirements(entry, petscconf)
    if missing:
        return f"this PETSc lacks {' '.join(missing)}"
    if not os.path.exists(expected_output(entry, source)):
        return f"no expected output {expected_output(entry, source)}"
    return None


def run_case(opts):
    named = dict(cases(opts.source))
    if opts.case not in named:
        raise SystemExit(f"petsc_cases: {opts.source} has no case {opts.case} (list: {', '.join(named)})")
    entry = named[opts.case]
    reason = skip_reason(entry, opts.source, opts.petscconf)
    if reason:
        print(f"SKIP {opts.case}: {reason}")
        return SKIP
    expected_path = expected_output(entry, opts.source)
    expected = shell_filter(open(expected_path).read(), entry.get("filter_output"))
    ranks = int(entry["nsize"])
    entry["args"] = with_petsc_dir(entry["args"], opts.source)
    rc, out, err, command = run_in_scratch(opts, ranks, ghostwire_args(entry["args"], opts.library, opts.transfer))
    print("ran:", " ".join(shlex.quote(c) for c in command))
    actual = shell_filter(out, entry.get("filter"))
    basic_args = shlex.split(SF_TYPE_OPTION.sub("", entry["args"])) + ["-sf_type", "basic"]
    if rc != 0:
        if run_in_scratch(opts, ranks, basic_args)[0] != 0:
            print(f"SKIP {opts.case}: fails with basic too on this machine (exit code {rc})\n--- stdout\n{out}"
                  f"\n--- stderr\n{err[-3000:]}")
            return SKIP
        print(f"FAIL {opts.case}: exit code {rc} (basic runs)\n--- stdout\n{out}\n--- stderr\n{err}")
        return 1
    line = lines_match(comparable(expected), comparable(actual))
    if not line:
        print(f"PASS {opts.case}: output matches {expected_path}")
        return 0
    # This PETSc build may not reproduce the file even with basic (other BLAS, external solvers):
    # then basic's own output here is the reference.
    brc, bout, _, _ = run_in_scratch(opts, ranks, basic_args)
    basic = shell_filter(bout, entry.get("filter"))
    if brc == 0 and lines_match(comparable(expected), comparable(basic)):
        if not lines_match(comparable(basic), comparable(actual)):
            print(f"PASS {opts.case}: output matches basic's on this machine (which differs from {expected_path})")
            return 0
        expected, expected_path = basic, "basic's output on this machine"
        line = lines_match(comparable(expected), comparable(actual))
    print(f"FAIL {opts.case}: output differs from {expected_path} from line {line} on "
          f"(lines naming the SF type ignored)\n--- expected\n{expected}\n--- actual (filtered)\n{actual}")
    if err.strip():
        print(f"--- stderr\n{err}")
    return 1


def same_solution(opts):
    """The example solved with basic and with ghostwire: the same monitor output and solution."""
    outputs = {}
    for sf_type in ("basic", "ghostwire"):
        with tempfile.TemporaryDirectory(prefix="gw-petsc-") as work:
            args = shlex.split(opts.args) + ["-snes_view_solution", "ascii:solution.txt"]
            args += ghostwire_args("", opts.library) if sf_type == "ghostwire" else ["-sf_type", "basic"]
            rc, out, err, command = launch(opts, opts.ranks, args, work)
            print("ran:", " ".join(shlex.quote(c) for c in command))
            if rc != 0:
                print(f"FAIL: {sf_type} exit code {rc}\n--- stdout\n{out}\n--- stderr\n{err}")
                return 1
            solution_path = os.path.join(work, "solution.txt")
            if not os.path.exists(solution_path):
                print(f"FAIL: {sf_type} wrote no solution.txt (-snes_view_solution)\n--- stdout\n{out}")
                return 1
            outputs[sf_type] = (out, open(solution_path).read())
    for what, index in (("monitor output", 0), ("solution", 1)):
        basic, ghostwire = (comparable(outputs[t][index]) for t in ("basic", "ghostwire"))
        if not basic:
            print(f"FAIL: basic's {what} is empty")
            return 1
        line = lines_match(basic, ghostwire)
        if line:
            print(f"FAIL: the {what} differs from basic's from line {line} on\n--- basic\n{outputs['basic'][index]}"
                  f"\n--- ghostwire\n{outputs['ghostwire'][index]}")
            return 1
    print(f"PASS: monitor output and solution ({len(comparable(outputs['basic'][1]))} lines) as with basic")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["list", "run", "same-solution"])
    parser.add_argument("--source")
    parser.add_argument("--exe")
    parser.add_argument("--case")
    parser.add_argument("--args", default="")
    parser.add_argument("--ranks", type=int, default=1)
    parser.add_argument("--library")
    parser.add_argument("--launch")
    parser.add_argument("--petscconf")
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("--path", default="intra", help="scripts/launch --path: intra, emulated or multihost")
    parser.add_argument("--rpn", type=int, default=0, help="scripts/launch --rpn: ranks per (emulated) node")
    parser.add_argument("--transfer", choices=["segment", "cma"], help="-sf_ghostwire_transfer for ghostwire's runs")
    opts = parser.parse_args()
    if opts.mode == "list":  # with --petscconf, why a case cannot run here (decided once, at configure)
        for name, entry in cases(opts.source):
            reason = skip_reason(entry, opts.source, opts.petscconf) if opts.petscconf else None
            print(f"{name} {entry['nsize']}" + (f" SKIP {shell_safe(reason)}" if reason else ""))
        return 0
    if not (opts.exe and os.access(opts.exe, os.X_OK)):
        raise SystemExit(f"petsc_cases: no executable example at {opts.exe!r} (--exe)")
    if not (opts.library and os.path.exists(opts.library)):
        raise SystemExit(f"petsc_cases: no libghostwire_petsc.so at {opts.library!r} (--library)")
    return run_case(opts) if opts.mode == "run" else same_solution(opts)


if __name__ == "__main__":
    sys.exit(main())
