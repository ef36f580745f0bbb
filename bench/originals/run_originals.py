#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""The original codes side by side with ghostwire's apps: given checkouts of the originals,
builds them under the build tree (build/originals/<name>-<commit>/, never in a checkout, never in
git) and runs them interleaved with ghostwire's apps on the same inputs:

  cloverleaf  UK-MAC/CloverLeaf_ref (Fortran + MPI)        against gw-cloverleaf   clover_bm_short
  minighost   Mantevo/miniGhost ref/ (Fortran + MPI)       against gw-minighost    64^3, 128^3; 7 and 27 points
  heat        EPCCed/GASPI_SHAN heat/ 03, 08, 09 (MPI)      against gw-heat         2048^2, 8x8 and 128x128 tiles
  cfdproxy    EPCCed/GASPI_SHAN CFD-Proxy/src/mpi           against gw-cfdproxy     DLR-F6, 48 ranks
  dash        dash-project/dash ex.02.matrix.halo.heat_equation  against examples/heat_jacobi  1024^2, 4096^2

    bench/originals/run_originals.py --cloverleaf ~/CloverLeaf_ref --minighost ~/miniGhost \\
        --gaspi-shan ~/GASPI_SHAN --dash ~/dash                  the full measurement (about 30 minutes)
    bench/originals/run_originals.py ... --quick --rounds 1      a smoke test: tiny inputs, few steps
    bench/originals/run_originals.py --clone                    clone the pinned commits (needs the network)
    bench/originals/run_originals.py --report results/originals-<stamp>   the report and plot again

Any subset of the checkouts may be given; the others are skipped with a message. Each round runs every
case once: for each (app, input, ranks) the original's variants and ghostwire's, each a job of its
own (scripts/launch), the original's first in odd rounds and ghostwire's first in even ones (and the
variants of a side in an order that rotates with the round). A side's best variant is the one with the
smallest median time; the ratio gw / original is the median over the rounds of each round's ratio of
the two (they ran moments apart, so the machine's slow and fast spells cancel), with a ~95% interval
(bench/goals.py); verdict "met" when it is at most 1.0. Times are each program's own timer where the
two measure the same thing (the timestep loop, the sweeps, the iterations), the whole process
otherwise (DASH's example has no timer). Each run is also checked to compute what the other side
computes (final field summaries, interior sums, images, checksums; docs/originals.md says what).

Writes results/originals-<timestamp>/ (or --out): originals.jsonl (a record per run), originals.log
(every command and its output), report.md (the table, commits, build and run commands, checks),
originals.png (the ratios), goals.json and meta.json. Only a run on an otherwise idle machine means
anything. docs/originals.md is the user guide.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "cloverleaf"))
from bench_common import LAUNCH, ROOT, finish_meta, new_meta, parse_json_line, pyplot, rotated  # noqa: E402
import goals  # noqa: E402
from run_cloverleaf_bench import WALL_CLOCK  # noqa: E402  (clover.out's "Wall clock" lines)

PATCHES = HERE / "patches"
F6 = ROOT.parent / "shared" / "data" / "dlr-f6-dualgrid-lvl2-48"
CFD_REFERENCE = ROOT / "tests" / "cfdproxy" / "reference_checksums.txt"
PROGRAM = "run_originals"


# ---------------------------------------------------------------- the originals and their pins

@dataclass(frozen=True)
class Original:
    key: str        # --<key> DIR
    repo: str       # owner/name on GitHub
    commit: str     # the pinned commit
    marker: str     # a file every checkout of it has
    apps: tuple     # the apps it is compared in


ORIGINALS = {
    "cloverleaf": Original("cloverleaf", "UK-MAC/CloverLeaf_ref", "0fdb917bf10d20363dd8b88d762851908643925b",
                           "clover_leaf.f90", ("cloverleaf",)),
    "minighost": Original("minighost", "Mantevo/miniGhost", "c2102b521568a74862fa5abb074b1fc8041fc222",
                          "ref/DRIVER_BSPMA.F", ("minighost",)),
    "gaspi-shan": Original("gaspi-shan", "EPCCed/GASPI_SHAN", "4cb321c8f5d96e9cff29ca0a6b38bed38734a973",
                           "heat/src/mpi/08.solver_mpi_nbuffer.cpp", ("heat", "cfdproxy")),
    "dash": Original("dash", "dash-project/dash", "99f299572bbb42f6668fbe704b179b9b5d0da92b",
                     "dash/examples/ex.02.matrix.halo.heat_equation/main.cpp", ("dash",)),
}
APPS = ["cloverleaf", "minighost", "heat", "cfdproxy", "dash"]
SOURCE_OF = {app: o.key for o in ORIGINALS.values() for app in o.apps}

# ---------------------------------------------------------------- inputs, full and quick
# Chosen so the full run (9 rounds, CFD-Proxy 3) stays near 30 minutes on the idle 2-core VM. A round
# of each app takes roughly: CloverLeaf 50 s (all 87 steps of clover_bm_short, 4-7 s a run, 3 gw
# exchanges at 2 and 4 ranks), miniGhost 40 s (48 jobs), Heat 25 s, DASH 30 s, CFD-Proxy 60-70 s (48
# oversubscribed ranks: the original's 3 x 2 x 100 iterations and reading its 48 files, ghostwire's
# 3 x 100); 9 rounds give the median a ~95% interval narrower than the whole range (goals.py). One
# full-size round took 4.7 minutes with a load average of 8-16 from other work (docs/originals.md).
FULL = {
    "rounds": 9,
    "cfd_rounds": 3,
    "cloverleaf_deck": "clover_bm_short",
    "cloverleaf_end_step": None,                # the deck's 87 steps, test problem 2 checked
    "minighost_sizes": {64: 100, 128: 20},      # global grid N^3 (strong scaling) -> time steps
    "minighost_vars": 5,                        # miniGhost's default
    "heat_size": 2048, "heat_tiles": [8, 128], "heat_steps": 100, "heat_check_size": 512, "heat_check_steps": 8,
    "cfd_iterations": 100, "cfd_median": 3,      # the original's NITER (fixed) and N_MEDIAN (patched in)
    "dash_sizes": {1024: 1000, 4096: 60},       # n -> steps
}
QUICK = {
    "rounds": 2,
    "cfd_rounds": 1,
    "cloverleaf_deck": "clover_bm_short",
    "cloverleaf_end_step": 5,                   # 5 steps, no test problem
    "minighost_sizes": {16: 10, 32: 10},
    "minighost_vars": 2,
    "heat_size": 512, "heat_tiles": [8, 128], "heat_steps": 10, "heat_check_size": 512, "heat_check_steps": 8,
    "cfd_iterations": 100, "cfd_median": 1,
    "dash_sizes": {256: 50, 512: 20},
}
STENCILS = {23: "7-point", 24: "27-point"}
COMM_METHODS = {10: "BSPMA", 11: "SVAF"}
HEAT_ORIGINALS = {"03": "03.heat_mpi", "08": "08.heat_mpi_nbuffer", "09": "09.heat_mpi_nbuffer"}
CLOVER_GW_EXCHANGES = ["gw-grid", "gw-buffers", "gw-sections"]
DASH_EXAMPLE = "ex.02.matrix.halo.heat_equation"
CFD_RANKS = 48   # the original reads one domain file per rank: the F6 data has 48


class BuildError(Exception):
    pass


# ---------------------------------------------------------------- checkouts

@dataclass
class Checkout:
    original: Original
    path: Path
    commit: str
    dirty: list

    def describe(self) -> str:
        pin = "the pinned commit" if self.commit == self.original.commit else \
            f"NOT the pinned {self.original.commit[:7]}"
        dirty = f", {len(self.dirty)} local change(s): {', '.join(self.dirty[:5])}" if self.dirty else ""
        return f"{self.original.repo} at {self.path}: commit {self.commit} ({pin}{dirty})"


def git(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True)


def open_checkout(original: Original, path: Path) -> Checkout | str:
    """The checkout at `path`, or why it cannot be used."""
    path = path.expanduser().resolve()
    if not (path / original.marker).is_file():
        return f"{path} is not a checkout of {original.repo} (no {original.marker})"
    head = git(path, "rev-parse", "HEAD")
    commit = head.stdout.strip() if head.returncode == 0 else "unknown (not a git checkout)"
    status = git(path, "status", "--porcelain", "--untracked-files=no")
    dirty = [line[3:] for line in status.stdout.splitlines()] if status.returncode == 0 else []
    return Checkout(original, path, commit, dirty)


def clone(original: Original, into: Path) -> Path | str:
    """git clone of the original at its pinned commit into `into`, or why not."""
    url = f"https://github.com/{original.repo}.git"
    if not (into / ".git").exists():
        into.parent.mkdir(parents=True, exist_ok=True)
        print(f"{PROGRAM}: cloning {url} into {into}", flush=True)
        result = subprocess.run(["git", "clone", "--quiet", url, str(into)], capture_output=True, text=True,
                                timeout=1800)
        if result.returncode != 0:
            shutil.rmtree(into, ignore_errors=True)
            last = (result.stderr.strip().splitlines() or ["no message"])[-1]
            return (f"cannot clone {url} (no network here?): {last}. Clone it where there is a network, "
                    f"check out {original.commit[:7]} and give --{original.key} DIR")
    result = git(into, "checkout", "--quiet", original.commit)
    if result.returncode != 0:
        return f"{into}: cannot check out {original.commit}: {result.stderr.strip()}"
    return into


def find_checkouts(opts) -> dict[str, Checkout]:
    wanted = {SOURCE_OF[app] for app in opts.apps}
    found = {}
    for key in [k for k in ORIGINALS if k in wanted]:
        original = ORIGINALS[key]
        given = getattr(opts, key.replace("-", "_"))
        if given:
            path = Path(given)
        elif opts.clone:
            path = clone(original, Path(opts.build_dir) / "originals" / "checkouts" / original.repo.split("/")[1])
            if isinstance(path, str):
                print(f"{PROGRAM}: {key}: {path}; skipping {', '.join(original.apps)}", flush=True)
                continue
        else:
            print(f"{PROGRAM}: {key}: no checkout given (--{key} DIR or --clone); skipping "
                  f"{', '.join(a for a in original.apps if a in opts.apps)}", flush=True)
            continue
        checkout = open_checkout(original, path)
        if isinstance(checkout, str):
            print(f"{PROGRAM}: --{key}: {checkout}; skipping {', '.join(original.apps)}", flush=True)
            continue
        print(f"{PROGRAM}: {checkout.describe()}", flush=True)
        found[key] = checkout
    return found


# ---------------------------------------------------------------- builds

@dataclass
class Build:
    name: str
    checkout: Checkout
    subdir: str                # the part of the checkout copied
    patches: list              # file names in PATCHES
    commands: list             # (cwd relative to the build folder, command)
    products: list             # paths relative to the build folder
    folder: Path = None
    status: str = ""

    def stamp(self) -> dict:
        return {"commit": self.checkout.commit, "dirty": self.checkout.dirty, "subdir": self.subdir,
                "patches": {p: hashlib.sha256((PATCHES / p).read_bytes()).hexdigest() for p in self.patches},
                "commands": [[cwd, shlex.join(c)] for cwd, c in self.commands]}

    def shown_commands(self) -> list[str]:
        lines = [f"copy {self.checkout.path / self.subdir} -> {self.folder / 'src'} (without .git)"]
        lines += [f"patch -p1 -d {self.folder / 'src'} < bench/originals/patches/{p}" for p in self.patches]
        lines += [f"(cd {self.folder / cwd}) {shlex.join(c)}" for cwd, c in self.commands]
        return lines


def run_build(build: Build, build_root: Path, dry_run: bool) -> None:
    """Copies, patches and builds into build_root/<name>-<commit>; reuses an earlier build of the same
    commit, patches and commands (clean checkout only). Raises BuildError with the log's tail."""
    commit = build.checkout.commit[:7] if re.fullmatch(r"[0-9a-f]{40}", build.checkout.commit) else "unknown"
    build.folder = build_root / f"{build.name}-{commit}"
    stamp_file = build.folder / "originals-build.json"
    stamp = build.stamp()
    if dry_run:
        print("\n".join(build.shown_commands()))
        build.status = "dry run"
        return
    if (not build.checkout.dirty and stamp_file.exists() and json.loads(stamp_file.read_text()) == stamp
            and all((build.folder / p).exists() for p in build.products)):
        build.status = f"up to date in {build.folder}"
        return
    print(f"{PROGRAM}: building {build.name} in {build.folder}", flush=True)
    if build.folder.exists():
        shutil.rmtree(build.folder)
    src = build.folder / "src"
    shutil.copytree(build.checkout.path / build.subdir, src, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    log_path = build.folder / "build.log"
    with open(log_path, "w") as log:
        steps = [(src, ["patch", "-p1", "--batch", "-i", str(PATCHES / p)]) for p in build.patches]
        steps += [(build.folder / cwd, command) for cwd, command in build.commands]
        for cwd, command in steps:
            cwd.mkdir(parents=True, exist_ok=True)
            log.write(f"\n== (in {cwd}) {shlex.join(command)}\n")
            log.flush()
            result = subprocess.run(command, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
            if result.returncode != 0:
                log.close()
                tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-15:])
                raise BuildError(f"{shlex.join(command)} failed (exit {result.returncode}; {log_path}):\n{tail}")
    missing = [p for p in build.products if not (build.folder / p).exists()]
    if missing:
        raise BuildError(f"the build did not make {', '.join(missing)} ({log_path})")
    stamp_file.write_text(json.dumps(stamp, indent=1) + "\n")
    build.status = f"built in {build.folder}"


def heat_binary(variant: str, tile: int) -> str:
    return f"src/{HEAT_ORIGINALS[variant]}.{tile}x{tile}bs.bin"


def builds_for(app: str, checkout: Checkout, inputs: dict) -> list[Build]:
    mpicc, mpicxx, mpif90 = "mpicc.openmpi", "mpicxx.openmpi", "mpif90.openmpi"
    if app == "cloverleaf":
        # The reference's own build (docs/cloverleaf.md): gfortran -O3 -march=native -funroll-loops -fopenmp.
        make = ["make", "-j2", "COMPILER=GNU", f"MPI_COMPILER={mpif90}", f"C_MPI_COMPILER={mpicc}"]
        return [Build("cloverleaf", checkout, ".", [], [("src", make)], ["src/clover_leaf"])]
    if app == "minighost":
        # makefile.mpi.gnu with Open MPI's wrappers; gfortran 10+ needs -fallow-argument-mismatch for
        # its MPI calls, -ffree-line-length-none for its long lines; linked by mpif90 (the Fortran
        # runtime and MPI's Fortran library). One job: its modules must be built in order.
        return [Build("minighost", checkout, "ref", ["minighost-mpi3.patch", "minighost-final-sums.patch"],
                      [("src", ["make", "-f", "makefile.mpi.gnu", f"FC={mpif90}", f"CC={mpicc}", f"LD={mpif90}",
                                "MPI_INCLUDE=", "OPT_F=-O3 -ffree-line-length-none -fallow-argument-mismatch"])],
                      ["src/miniGhost.x"])]
    if app == "heat":
        # The tile size is the compile-time BSX (= BSY): one binary per variant and tile size.
        commands = [("src", ["make", "-j2", f"MPICXX={mpicxx}", "CXX=g++", f"BSX={tile}"]
                     + [heat_binary(v, tile)[4:] for v in HEAT_ORIGINALS]) for tile in inputs["heat_tiles"]]
        return [Build("gaspi-shan-heat", checkout, "heat", [], commands,
                      [heat_binary(v, t) for t in inputs["heat_tiles"] for v in HEAT_ORIGINALS])]
    if app == "cfdproxy":
        median = inputs["cfd_median"]
        return [Build(f"gaspi-shan-cfdproxy-m{median}", checkout, "CFD-Proxy/src/mpi", ["cfdproxy-n-median.patch"],
                      [("src", ["make", "-j2", f"CC={mpicc} -DN_MEDIAN={median}"])], ["src/hybrid.f6.exe"])]
    if app == "dash":
        # Only the example and what it links (libdash-mpi, libdart-mpi, libdart-base); DASH's
        # defaults otherwise (shared-memory windows on, 64-bit indices), no optional libraries.
        configure = ["cmake", "-S", "../src", "-B", ".", "-DCMAKE_BUILD_TYPE=Release", "-DDART_IMPLEMENTATIONS=mpi",
                     "-DBUILD_TESTS=OFF", "-DBUILD_EXAMPLES=ON", "-DBUILD_DOCS=OFF", "-DENABLE_THREADSUPPORT=OFF",
                     "-DENABLE_ASSERTIONS=OFF", "-DENABLE_LOGGING=OFF", "-DENABLE_LIBNUMA=OFF", "-DENABLE_HWLOC=OFF",
                     "-DENABLE_HWLOC_PCI=OFF", "-DENABLE_PAPI=OFF", "-DENABLE_MKL=OFF", "-DENABLE_BLAS=OFF",
                     "-DENABLE_LAPACK=OFF", "-DENABLE_SCALAPACK=OFF", "-DENABLE_PLASMA=OFF", "-DENABLE_HDF5=OFF",
                     "-DENABLE_MEMKIND=OFF", f"-DMPI_C_COMPILER={mpicc}", f"-DMPI_CXX_COMPILER={mpicxx}"]
        return [Build("dash", checkout, ".", [], [("build", configure),
                                                  ("build", ["cmake", "--build", ".", "-j2", "--target",
                                                             f"{DASH_EXAMPLE}.mpi"])],
                      [f"build/dash/{DASH_EXAMPLE}.mpi"])]
    raise ValueError(app)


# ---------------------------------------------------------------- jobs and cases

@dataclass
class Job:
    side: str                       # "original" or "gw"
    variant: str
    ranks: int
    program: list                   # the program and its arguments (after scripts/launch ... --)
    parse: Callable                 # (stdout, folder) -> dict with "time_s" (own timer) or None, and values
    timer: str                      # "own" or "process"
    setup: Callable = None          # (folder) -> None: input files
    env: dict = field(default_factory=dict)


@dataclass
class Case:
    app: str
    input: str
    ranks: int
    jobs: list
    unit: str                       # what time_s is
    cross_check: Callable = None    # (original record, record) -> problem or None
    self_check: Callable = None     # (record) -> problem or None
    check_jobs: list = field(default_factory=list)   # untimed, once, before round 1
    check_compare: Callable = None  # (records of check_jobs) -> (ok, text)
    rounds: int = 0
    note: str = ""

    @property
    def name(self) -> str:
        return f"{self.app} {self.input}, {self.ranks} rank{'s' if self.ranks > 1 else ''}"


class ParseError(Exception):
    pass


def number(pattern: str, text: str, what: str, last: bool = False) -> float:
    found = re.findall(pattern, text)
    if not found:
        raise ParseError(f"no {what} in the output")
    value = found[-1] if last else found[0]
    return float(value.replace("D", "E").replace("d", "e"))


def json_record(stdout: str, **match) -> dict:
    records = [r for r in map(parse_json_line, stdout.splitlines())
               if r and all(r.get(k) == v for k, v in match.items())]
    if not records:
        raise ParseError(f"no JSON line with {match}")
    return records[-1]


def relative(a: float, b: float) -> float:
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def launch(ranks: int, timeout: int, program: list) -> list[str]:
    return [str(LAUNCH), "-n", str(ranks), "--timeout", str(timeout), "--", *program]


# ---- CloverLeaf

SUMMARY_LINE = re.compile(r"^\s*step:\s+(\d+)\s+(.+)$", re.M)
SUMMARY_KEYS = ["volume", "mass", "density", "pressure", "internal_energy", "kinetic_energy", "total_energy"]


def clover_deck_text(checkout: Checkout, inputs: dict) -> str:
    text = (checkout.path / "InputDecks" / f"{inputs['cloverleaf_deck']}.in").read_text()
    if inputs["cloverleaf_end_step"]:
        text = re.sub(r"end_step\s*=?\s*\d+", f"end_step={inputs['cloverleaf_end_step']}", text)
        text = re.sub(r"(?m)^\s*test_problem.*\n", "", text)
    return text


def parse_clover_original(stdout: str, folder: Path) -> dict:
    out = (folder / "clover.out").read_text(errors="replace") if (folder / "clover.out").exists() else ""
    clocks = WALL_CLOCK.findall(out)
    summaries = SUMMARY_LINE.findall(out)
    if not clocks or not summaries:
        raise ParseError(f"no 'Wall clock' or field summary in {folder}/clover.out")
    step, values = summaries[-1]
    return {"time_s": float(clocks[-1].replace("D", "E")), "step": int(step), "summary_text": values.split(),
            "verdict": "PASSED" if "This test is considered PASSED" in out else
            ("NOT PASSED" if "This test is considered NOT PASSED" in out else None)}


def parse_clover_gw(stdout: str, folder: Path) -> dict:
    r = json_record(stdout, app="cloverleaf")
    return {"time_s": r["wall_s"], "step": r["summary"]["step"],
            "summary": [r["summary"][k] for k in SUMMARY_KEYS], "verdict": r.get("verdict")}


def clover_cross_check(ref: dict, rec: dict) -> str | None:
    """The final field summary: the original prints 4 digits (e16.4): every value within 0.51 units
    of its last digit; the same step; the test problem PASSED on both where the deck has one."""
    if ref["step"] != rec["step"]:
        return f"final step {rec['step']}, the original's {ref['step']}"
    if rec["side"] == "original":
        return None if rec["summary_text"] == ref["summary_text"] else "the original's variants disagree"
    for key, text, value in zip(SUMMARY_KEYS, ref["summary_text"], rec["summary"]):
        mantissa, _, exponent = text.upper().partition("E")
        unit = 10.0 ** (int(exponent or 0) - len(mantissa.split(".")[-1]))
        if abs(float(text) - value) > 0.51 * unit:
            return f"final {key} {value!r}, the original's {text}"
    if ref.get("verdict") != rec.get("verdict"):
        return f"test problem {rec.get('verdict')}, the original's {ref.get('verdict')}"
    return None


def clover_cases(builds: dict, opts, inputs: dict, checkout: Checkout, out_dir: Path) -> list[Case]:
    deck = out_dir / "inputs" / f"{inputs['cloverleaf_deck']}.in"
    deck.parent.mkdir(parents=True, exist_ok=True)
    deck.write_text(clover_deck_text(checkout, inputs))
    original = str(builds["cloverleaf"].folder / "src" / "clover_leaf")
    gw = str(Path(opts.build_dir) / "apps" / "cloverleaf" / "gw-cloverleaf")
    setup = lambda folder: shutil.copyfile(deck, folder / "clover.in")  # noqa: E731 (both read ./clover.in)
    label = inputs["cloverleaf_deck"] + (f" ({inputs['cloverleaf_end_step']} steps)" if inputs["cloverleaf_end_step"]
                                         else "")
    cases = []
    for ranks in opts.ranks:
        # On one rank no exchange variant exchanges anything (one chunk): one is enough.
        exchanges = CLOVER_GW_EXCHANGES[:1] if ranks == 1 else CLOVER_GW_EXCHANGES
        jobs = [Job("original", "clover_leaf", ranks, [original], parse_clover_original, "own", setup,
                    {"OMP_NUM_THREADS": "1"})]
        jobs += [Job("gw", exchange, ranks, [gw, "--quiet", "--exchange", exchange, "--out", "gw.out", "clover.in"],
                     parse_clover_gw, "own", setup, {"OMP_NUM_THREADS": "1"}) for exchange in exchanges]
        cases.append(Case("cloverleaf", label, ranks, jobs, "s, timestep loop (Wall clock / wall_s)",
                          cross_check=clover_cross_check))
    return cases


# ---- miniGhost

def process_grid(ranks: int) -> tuple[int, int, int]:
    # npy stays 1: the original's 27-point flux accounting counts corners twice with npy > 1 and
    # aborts (docs/minighost.md); 4 ranks are 2 x 1 x 2.
    return {1: (1, 1, 1), 2: (2, 1, 1), 4: (2, 1, 2)}.get(ranks, (ranks, 1, 1))


def parse_minighost_original(stdout: str, folder: Path) -> dict:
    sums = [float(v.replace("D", "E")) for v in re.findall(r"originals: final interior_sum var\s+\d+\s+(\S+)", stdout)]
    if not sums:
        raise ParseError("no interior sums (is minighost-final-sums.patch applied?)")
    return {"time_s": number(r"Total time for test \(sec\):\s*([0-9.EeDd+-]+)", stdout, "'Total time for test'"),
            "sums": sums, "verified": "Computation within error tolerance." in stdout}


def parse_minighost_gw(stdout: str, folder: Path) -> dict:
    r = json_record(stdout, app="minighost")
    return {"time_s": r["time_per_step_s"] * r["steps"], "sums": r["final_interior_sums"], "verified": r["verified"]}


def minighost_cross_check(ref: dict, rec: dict) -> str | None:
    if not rec.get("verified"):
        return "conservation check not passed"
    if len(ref["sums"]) != len(rec["sums"]):
        return "a different number of variables"
    # The original adds a rank's cells in one running sum: at 128^3 its own sums on 1, 2 and 4 ranks
    # differ by up to 5e-12 (relative); gw-minighost's partial sums are within 4e-12 of them.
    worst = max(relative(a, b) for a, b in zip(ref["sums"], rec["sums"]))
    return None if worst <= 1e-10 else f"final interior sums differ from the original's by {worst:.2g} (relative)"


def minighost_cases(builds: dict, opts, inputs: dict, checkout: Checkout, out_dir: Path) -> list[Case]:
    original = str(builds["minighost"].folder / "src" / "miniGhost.x")
    gw = str(Path(opts.build_dir) / "apps" / "minighost" / "gw-minighost")
    cases = []
    for n, steps in inputs["minighost_sizes"].items():
        for stencil, stencil_name in STENCILS.items():
            for ranks in opts.ranks:
                npx, npy, npz = process_grid(ranks)
                common = ["--scaling", "1", "--nx", str(n), "--ny", str(n), "--nz", str(n), "--num_vars",
                          str(inputs["minighost_vars"]), "--num_tsteps", str(steps), "--stencil", str(stencil),
                          "--npx", str(npx), "--npy", str(npy), "--npz", str(npz)]
                jobs = [Job("original", name, ranks, [original, *common, "--comm_method", str(m), "--report_perf", "1"],
                            parse_minighost_original, "own") for m, name in COMM_METHODS.items()]
                jobs += [Job("gw", f"gw {name}", ranks, [gw, "--variant", "gw", *common, "--comm_method", str(m)],
                             parse_minighost_gw, "own") for m, name in COMM_METHODS.items()]
                cases.append(Case("minighost", f"{n}^3 {stencil_name}, {inputs['minighost_vars']} vars, {steps} steps",
                                  ranks, jobs, "s, time stepping (slowest rank)", cross_check=minighost_cross_check))
    return cases


# ---- Heat

def parse_heat_original(stdout: str, folder: Path) -> dict:
    return {"time_s": number(r"\btime, ([0-9.eE+-]+)", stdout, "'time, ' field")}


def parse_heat_gw(stdout: str, folder: Path) -> dict:
    r = json_record(stdout, app="heat")
    return {"time_s": r["time_s"]}


def image_parser(parse: Callable, image: str) -> Callable:
    def parse_with_image(stdout: str, folder: Path) -> dict:
        values = parse(stdout, folder)
        path = folder / image
        if not path.exists():
            raise ParseError(f"no image {path}")
        values["image_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
        values["image_bytes"] = path.stat().st_size
        return values
    return parse_with_image


def heat_images_agree(records: list[dict]) -> tuple[bool, str]:
    digests = {r["variant"]: r.get("image_sha256") for r in records}
    if not digests or None in digests.values():
        return False, "an image is missing"
    if len(set(digests.values())) == 1:
        first = records[0]
        return True, (f"the final fields' PPM images ({first['image_bytes']} bytes) are byte-identical "
                      f"({', '.join(digests)}; {first['check_input']})")
    return False, "images differ: " + ", ".join(f"{v} {d[:12]}" for v, d in digests.items())


def heat_cases(builds: dict, opts, inputs: dict, checkout: Checkout, out_dir: Path) -> list[Case]:
    folder = builds["heat"].folder
    gw = str(Path(opts.build_dir) / "apps" / "heat" / "gw-heat")
    conf = checkout.path / "heat" / "heat.conf"
    setup = lambda f: shutil.copyfile(conf, f / "heat.conf")  # noqa: E731 (the original reads ./heat.conf)
    size, steps = inputs["heat_size"], inputs["heat_steps"]
    check_size, check_steps = inputs["heat_check_size"], inputs["heat_check_steps"]
    cases = []
    for tile in inputs["heat_tiles"]:
        for ranks in opts.ranks:
            if size % (ranks * tile):
                print(f"{PROGRAM}: heat {size}^2 with {tile}x{tile} tiles does not divide over {ranks} ranks; "
                      f"skipping it", flush=True)
                continue

            def jobs_for(n: int, t: int, image: bool) -> list[Job]:
                made = []
                for variant in HEAT_ORIGINALS:
                    args = [str(folder / heat_binary(variant, tile)), "-s", str(n), "-t", str(t)]
                    parse = parse_heat_original
                    if image:
                        args.append("-oheat.ppm")  # the original's optional argument must be attached
                        parse = image_parser(parse, "heat.ppm")
                    made.append(Job("original", variant, ranks, args, parse, "own", setup))
                args = [gw, "--variant", "gw-pipelined", "-s", str(n), "-b", str(tile), "-t", str(t)]
                parse = parse_heat_gw
                if image:
                    args += ["-o", "gw.ppm"]
                    parse = image_parser(parse, "gw.ppm")
                made.append(Job("gw", "gw-pipelined", ranks, args, parse, "own", setup))
                return made

            check_n = check_size if check_size % (ranks * tile) == 0 else size
            case = Case("heat", f"{size}^2 {tile}x{tile} tiles, {steps} sweeps", ranks, jobs_for(size, steps, False),
                        "s, sweeps (rank 0 between barriers)", check_jobs=jobs_for(check_n, check_steps, True),
                        check_compare=heat_images_agree)
            case.check_input = f"{check_n}^2, {check_steps} sweeps"
            cases.append(case)
    return cases


# ---- CFD-Proxy

def parse_cfd_original(stdout: str, folder: Path) -> dict:
    iterations = number(r"NITER:\s*(\d+)", stdout, "NITER")
    return {"time_s": number(r"exchange_dbl_mpi:\s*([0-9.eE+-]+)", stdout, "exchange_dbl_mpi time") / iterations,
            "comm_free_s": number(r"comm_free:\s*([0-9.eE+-]+)", stdout, "comm_free time") / iterations,
            "repetitions": int(number(r"N_MEDIAN:\s*(\d+)", stdout, "N_MEDIAN")), "iterations": int(iterations)}


def parse_cfd_gw(stdout: str, folder: Path) -> dict:
    r = json_record(stdout, app="gw-cfdproxy", variant="gw")
    checksums = dict(re.findall(r"^checksum (\S+) (\S+)$", stdout, re.M))
    return {"time_s": r["time_per_iteration_s"], "repetitions": r["rounds"], "iterations": r["iterations"],
            "checksums": {k: float(v) for k, v in checksums.items()}}


def cfd_reference_checksums() -> dict[str, float]:
    values = {}
    for line in CFD_REFERENCE.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and not line.startswith("#"):
            values[parts[0]] = float(parts[1])
    return values


def cfd_self_check(rec: dict) -> str | None:
    """The original prints no field values; ghostwire's checksums (the original partition, --init one)
    are compared with the reference code's (tests/cfdproxy/reference_checksums.txt)."""
    if rec["side"] != "gw":
        return None
    reference = cfd_reference_checksums()
    got = rec.get("checksums", {})
    missing = [k for k in reference if k not in got]
    if missing:
        return f"no checksum {', '.join(missing)}"
    worst = max(relative(reference[k], got[k]) for k in reference)
    return None if worst <= 1e-12 else f"checksums differ from the reference code's by {worst:.2g} (relative)"


def cfd_cases(builds: dict, opts, inputs: dict, checkout: Checkout, out_dir: Path) -> list[Case]:
    mesh = Path(opts.cfd_mesh)
    if not (mesh / "dualgrid_domain_0_lvl_2").exists():
        print(f"{PROGRAM}: cfdproxy: no DLR-F6 mesh at {mesh} (--cfd-mesh DIR); skipping it", flush=True)
        return []
    original = str(builds["cfdproxy"].folder / "src" / "hybrid.f6.exe")
    gw = str(Path(opts.build_dir) / "apps" / "cfdproxy" / "gw-cfdproxy")
    jobs = [Job("original", "exchange_dbl_mpi", CFD_RANKS, [original, "-lvl", "2", str(mesh / "dualgrid")],
                parse_cfd_original, "own"),
            Job("gw", "gw", CFD_RANKS, [gw, "--mesh", str(mesh), "--partition", "original", "--init", "one",
                                        "--variant", "gw", "--iterations", str(inputs["cfd_iterations"]),
                                        "--rounds", str(inputs["cfd_median"])], parse_cfd_gw, "own")]
    return [Case("cfdproxy", f"DLR-F6 lvl 2, {inputs['cfd_iterations']} iterations, median of "
                             f"{inputs['cfd_median']}", CFD_RANKS, jobs,
                 "s per iteration (median of the repetitions)", self_check=cfd_self_check,
                 rounds=min(opts.rounds, opts.cfd_rounds),
                 note="48 ranks on the machine's cores (oversubscribed); the original needs one rank per domain file")]


# ---- DASH

def parse_dash_original(stdout: str, folder: Path) -> dict:
    return {"time_s": None, "energy_before": number(r"InitEnergy=(\S+)", stdout, "InitEnergy"),
            "energy_after": number(r"EndEnergy=(\S+)", stdout, "EndEnergy")}


def parse_dash_gw(stdout: str, folder: Path) -> dict:
    r = json_record(stdout, example="heat_jacobi")
    before = number(r"energy before (\S+)", stdout, "energy before")
    return {"time_s": None, "loop_s": r["time_s"], "energy_before": before, "energy_after": r["energy"],
            "checksum": r["checksum"]}


def dash_self_check(rec: dict) -> str | None:
    """Both conserve the total heat of a periodic plate (they start from different fields)."""
    drift = relative(rec["energy_before"], rec["energy_after"])
    return None if drift <= 1e-9 else f"energy not conserved: {rec['energy_before']} -> {rec['energy_after']}"


def dash_cases(builds: dict, opts, inputs: dict, checkout: Checkout, out_dir: Path) -> list[Case]:
    original = str(builds["dash"].folder / "build" / "dash" / f"{DASH_EXAMPLE}.mpi")
    gw = str(Path(opts.build_dir) / "examples" / "heat_jacobi")
    # DART's window free at dash::finalize crashes in Open MPI 4.1's osc/ucx (scripts/launch selects
    # sm,ucx); sm,pt2pt works. Both sides get the same setting, through env, which the ranks inherit.
    env = ["env", "OMPI_MCA_osc=sm,pt2pt"]
    cases = []
    for n, steps in inputs["dash_sizes"].items():
        for ranks in opts.ranks:
            jobs = [Job("original", DASH_EXAMPLE, ranks, [*env, original, str(n), str(steps)], parse_dash_original,
                        "process"),
                    Job("gw", "heat_jacobi", ranks, [*env, gw, str(n), str(steps)], parse_dash_gw, "process")]
            cases.append(Case("dash", f"{n}^2, {steps} steps", ranks, jobs, "s, whole process (launch to exit)",
                              self_check=dash_self_check))
    return cases


CASE_MAKERS = {"cloverleaf": clover_cases, "minighost": minighost_cases, "heat": heat_cases, "cfdproxy": cfd_cases,
               "dash": dash_cases}
GW_TARGETS = {"cloverleaf": "apps/cloverleaf/gw-cloverleaf", "minighost": "apps/minighost/gw-minighost",
              "heat": "apps/heat/gw-heat", "cfdproxy": "apps/cfdproxy/gw-cfdproxy", "dash": "examples/heat_jacobi"}


# ---------------------------------------------------------------- running

class Runner:
    def __init__(self, opts, out_dir: Path, scratch: Path):
        self.opts, self.out_dir, self.scratch = opts, out_dir, scratch
        self.jsonl = open(out_dir / "originals.jsonl", "a")
        self.log = open(out_dir / "originals.log", "a")
        self.count = 0

    def run(self, case: Case, job: Job, round_: int, position: int, phase: str = "timed") -> dict:
        """Runs one job in a fresh folder; its record (also written to the JSON lines)."""
        self.count += 1
        folder = self.scratch / f"job{self.count}"
        folder.mkdir()
        if job.setup:
            job.setup(folder)
        command = launch(job.ranks, self.opts.timeout, job.program)
        env_text = " ".join(f"{k}={v}" for k, v in job.env.items())
        shown = f"{env_text + ' ' if env_text else ''}{shlex.join(command)}"
        record = {"app": case.app, "input": case.input, "ranks": job.ranks, "side": job.side, "variant": job.variant,
                  "round": round_, "position": position, "phase": phase, "timer": job.timer, "unit": case.unit,
                  "command": shown, "quick": self.opts.quick, **({"note": case.note} if case.note else {})}
        self.log.write(f"\n== {case.name}, {job.side} {job.variant}, round {round_} ({phase}), in {folder}:\n{shown}\n")
        self.log.flush()
        if self.opts.dry_run:
            print(shown)
            return record
        start = time.perf_counter()
        result = subprocess.run(command, cwd=folder, capture_output=True, text=True, env={**os.environ, **job.env})
        record["process_s"] = time.perf_counter() - start
        record["exit_status"] = result.returncode
        self.log.write(result.stdout[-6000:] + ("\n-- stderr:\n" + result.stderr[-3000:] if result.stderr else ""))
        self.log.flush()
        if result.returncode != 0:
            record["error"] = f"exit status {result.returncode}"
        else:
            try:
                values = job.parse(result.stdout, folder)
                if values.get("time_s") is None:
                    values["time_s"] = record["process_s"]
                record.update(values)
            except (ParseError, ValueError, KeyError, OSError) as error:
                record["error"] = f"output not understood: {error}"
        shutil.rmtree(folder, ignore_errors=True)
        return record

    def write(self, record: dict) -> None:
        self.jsonl.write(json.dumps(record, separators=(",", ":")) + "\n")
        self.jsonl.flush()

    def close(self) -> None:
        self.jsonl.close()
        self.log.close()


def check_round(case: Case, records: list[dict]) -> None:
    """Marks each record of a case's round with "check": "ok" or the problem."""
    if not case.self_check and not case.cross_check:
        return
    done = [r for r in records if "error" not in r]
    originals = [r for r in done if r["side"] == "original"]
    for r in done:
        problem = case.self_check(r) if case.self_check else None
        if problem is None and case.cross_check:
            problem = case.cross_check(originals[0], r) if originals else "no original run to compare with"
        r["check"] = "ok" if problem is None else problem


def run_all(cases: list[Case], opts, runner: Runner) -> list[str]:
    failures = []
    for case in cases:
        if case.check_jobs:
            records = [runner.run(case, job, 0, i, phase="check") for i, job in enumerate(case.check_jobs)]
            if opts.dry_run:
                continue
            for r in records:
                r["check_input"] = getattr(case, "check_input", "")
            failed = [r for r in records if "error" in r]
            ok, text = (False, "; ".join(f"{r['variant']}: {r['error']}" for r in failed)) if failed else \
                case.check_compare(records)
            for r in records:
                r["check"] = "ok" if ok else text
                r["check_text"] = text
                runner.write(r)
            print(f"[check] {case.name}: {'ok, ' if ok else '!! '}{text}", flush=True)
    total = sum(len(c.jobs) * c.rounds for c in cases)
    done, started = 0, time.monotonic()
    for round_ in range(1, max((c.rounds for c in cases), default=0) + 1):
        for case in [c for c in cases if round_ <= c.rounds]:
            originals = rotated([j for j in case.jobs if j.side == "original"], round_ - 1)
            gws = rotated([j for j in case.jobs if j.side == "gw"], round_ - 1)
            order = originals + gws if round_ % 2 else gws + originals
            records = [runner.run(case, job, round_, i) for i, job in enumerate(order)]
            done += len(order)
            if opts.dry_run:
                continue
            check_round(case, records)
            for r in records:
                runner.write(r)
                if "error" in r:
                    failures.append(f"{case.name} {r['side']} {r['variant']} round {round_}: {r['error']}")
            elapsed = int(time.monotonic() - started)
            times = "  ".join(f"{r['side'][:4]} {r['variant']} "
                              + (f"{r['time_s']:.4g}" if "time_s" in r else "FAILED")
                              + ("" if r.get("check", "ok") == "ok" else " (check!)") for r in records)
            clock = f"{elapsed // 60}:{elapsed % 60:02d}"
            print(f"[{done}/{total} {clock}] round {round_}/{case.rounds} {case.name}: {times}", flush=True)
            for r in records:
                if "error" in r:
                    print(f"   !! {r['side']} {r['variant']}: {r['error']} (see originals.log)", flush=True)
                elif r.get("check", "ok") != "ok":
                    print(f"   !! {r['side']} {r['variant']}: {r['check']}", flush=True)
    return failures


# ---------------------------------------------------------------- report

def case_key(r: dict) -> tuple:
    return (r["app"], r["input"], r["ranks"])


def round_times(records: list[dict]) -> dict[tuple, dict[tuple, dict[int, float]]]:
    """case -> (side, variant) -> round -> time_s (timed runs that completed)."""
    table: dict = {}
    for r in records:
        if r.get("phase") == "timed" and "time_s" in r and "error" not in r:
            table.setdefault(case_key(r), {}).setdefault((r["side"], r["variant"]), {})[r["round"]] = r["time_s"]
    return table


def best(times: dict, side: str) -> tuple[str, dict[int, float]] | None:
    candidates = [(v, t) for (s, v), t in times.items() if s == side and t]
    return min(candidates, key=lambda vt: statistics.median(vt[1].values())) if candidates else None


def comparisons(records: list[dict]) -> list[dict]:
    rows = []
    order = {app: i for i, app in enumerate(APPS)}
    seen_inputs = list(dict.fromkeys(case_key(r)[1] for r in records))  # the order they ran in
    cases = sorted(round_times(records).items(),
                   key=lambda kv: (order.get(kv[0][0], 99), seen_inputs.index(kv[0][1]), kv[0][2]))
    for key, times in cases:
        row = {"app": key[0], "input": key[1], "ranks": key[2]}
        case_records = [r for r in records if case_key(r) == key]
        row["unit"] = case_records[0].get("unit", "s")
        row["timer"] = case_records[0].get("timer", "")
        original, gw = best(times, "original"), best(times, "gw")
        if original:
            row["original"], row["original_s"] = original[0], statistics.median(original[1].values())
        if gw:
            row["gw"], row["gw_s"] = gw[0], statistics.median(gw[1].values())
        if original and gw:
            verdict = goals.judge("originals", f"{key[0]} {key[1]}, {key[2]} ranks", f"gw {gw[0]} / original "
                                  f"{original[0]}", goals.paired_ratios(gw[1], original[1]), 1.0, at_least=False,
                                  unit="paired rounds")
            row["verdict"] = verdict
        checks = [r["check"] for r in case_records if r.get("phase") == "timed" and "check" in r]
        bad = sorted({c for c in checks if c and c != "ok"})
        found = [(f"ok ({len(checks)} runs)" if not bad else "; ".join(bad))] if checks else []
        image = [r for r in case_records if r.get("phase") == "check"]
        if image:
            found.append("images identical" if all(r.get("check") == "ok" for r in image)
                         else image[0].get("check_text", "image check failed"))
        row["checks"] = "; ".join(found) or "-"
        notes = [r["note"] for r in case_records if r.get("note")][:1]
        free = [r["comm_free_s"] for r in case_records if "comm_free_s" in r and "error" not in r]
        if free:
            notes.append(f"the original's own comm_free (its kernel without any exchange): median "
                         f"{fmt_time(statistics.median(free))} s per iteration")
        row["notes"] = notes
        row["failed"] = sum(1 for r in case_records if "error" in r)
        row["rounds"] = max((len(t) for t in times.values()), default=0)
        rows.append(row)
    return rows


def fmt_time(seconds: float) -> str:
    return f"{seconds:.4g}"


def report_table(rows: list[dict]) -> list[str]:
    lines = ["| app | input | ranks | original: best variant | original median | gw: best variant | gw median | "
             "gw / original [~95% interval] (rounds) | verdict | same computation |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        v = row.get("verdict")
        ratio = f"{v.ratio:.3f} [{v.low:.3f}-{v.high:.3f}] ({v.pairs})" if v else "-"
        lines.append(f"| {row['app']} | {row['input']} | {row['ranks']} | {row.get('original', 'failed')} | "
                     f"{fmt_time(row['original_s']) if 'original_s' in row else '-'} | {row.get('gw', 'failed')} | "
                     f"{fmt_time(row['gw_s']) if 'gw_s' in row else '-'} | {ratio} | "
                     f"{'**' + v.status + '**' if v else '-'} | {row['checks']} |")
    return lines


def plot(rows: list[dict], out_dir: Path) -> Path | None:
    plt = pyplot()
    rows = [r for r in rows if r.get("verdict")]
    if plt is None or not rows:
        return None
    figure, axis = plt.subplots(figsize=(9, 0.32 * len(rows) + 1.6))
    labels = []
    for i, row in enumerate(rows):
        v = row["verdict"]
        color = f"C{APPS.index(row['app']) if row['app'] in APPS else 9}"
        axis.errorbar(v.ratio, i, xerr=[[v.ratio - v.low], [v.high - v.ratio]], fmt="o", color=color, capsize=3,
                      label=row["app"] if row["app"] not in [r["app"] for r in rows[:i]] else None)
        labels.append(f"{row['app']} {row['input']}, {row['ranks']} rank{'s' if row['ranks'] > 1 else ''}")
    axis.axvline(1.0, color="black", linewidth=0.8)
    axis.set_yticks(range(len(rows)), labels, fontsize=7)
    axis.invert_yaxis()
    axis.set_xscale("log")
    low = min(min(r["verdict"].low for r in rows), 0.9)
    high = max(max(r["verdict"].high for r in rows), 1.1)
    axis.set_xlim(low / 1.15, high * 1.15)
    ticks = [x for x in (0.1, 0.2, 0.3, 0.5, 0.7, 0.85, 1.0, 1.2, 1.5, 2, 3, 5, 10)
             if low / 1.15 <= x <= high * 1.15]
    axis.set_xticks(ticks, [f"{x:g}" for x in ticks])
    axis.minorticks_off()
    axis.set_xlabel("time gw / original (median of paired rounds, ~95% interval; below 1: ghostwire faster)")
    axis.grid(True, axis="x", alpha=0.3, which="both")
    axis.legend(fontsize=7, loc="lower right")
    figure.suptitle("ghostwire's apps against the original codes")
    figure.tight_layout()
    path = out_dir / "originals.png"
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def write_report(out_dir: Path) -> str:
    records = [r for r in map(parse_json_line, (out_dir / "originals.jsonl").read_text().splitlines()) if r] \
        if (out_dir / "originals.jsonl").exists() else []
    meta = json.loads((out_dir / "meta.json").read_text()) if (out_dir / "meta.json").exists() else {}
    rows = comparisons(records)
    machine = meta.get("machine", {})
    lines = ["# The original codes side by side with ghostwire", ""]
    if meta.get("quick"):
        lines += ["**A --quick smoke run: tiny inputs, few steps; the ratios say nothing about performance.**", ""]
    lines += [f"Run {meta.get('started', '?')} to {meta.get('finished', '?')} by `{meta.get('command', '?')}` on "
              f"{machine.get('cpu', '?')} ({machine.get('cores', '?')} cores), ghostwire commit "
              f"{machine.get('commit', '?')}; load average at the start {fmt_load(machine.get('load_average'))}, "
              f"at the end {fmt_load(meta.get('load_average_at_end'))} (only an idle machine's numbers mean "
              "anything).", "",
              "Times: each program's own timer where both measure the same thing (CloverLeaf: the timestep loop, "
              "`Wall clock` / `wall_s`; miniGhost: the time stepping, slowest rank; Heat: the sweeps; CFD-Proxy: "
              "seconds per iteration, the median of the repetitions), the whole process from launch to exit for "
              "DASH (its example has no timer). Best variant: the smallest median time of a side. Ratio: the "
              "median over the rounds of each round's gw / original (the two ran moments apart), with a "
              "distribution-free ~95% interval (the whole range below 9 rounds). Verdict (bench/goals.py): met "
              "when the median is at most 1.0; tie when the interval reaches 1.0 or the median is within 3% of it; "
              "NOT MET otherwise. 4 ranks on 2 cores and CFD-Proxy's 48 ranks are oversubscribed.", ""]
    lines += report_table(rows)
    found = [r["verdict"] for r in rows if r.get("verdict")]
    if found:
        lines += ["", f"Verdicts: {goals.summary_line(found)}."]
    noted = [r for r in rows if r["notes"]]
    if noted:
        lines += ["", "Notes:", ""] + [f"- {r['app']} {r['input']}, {r['ranks']} rank(s): {'; '.join(r['notes'])}"
                                       for r in noted]
    failed = [r for r in rows if r["failed"]]
    if failed:
        lines += ["", "Failed runs: " + ", ".join(f"{r['app']} {r['input']} {r['ranks']} ranks: {r['failed']}"
                                                   for r in failed) + " (originals.log has their output)."]
    skipped = meta.get("skipped", {})
    if skipped:
        lines += ["", "## Skipped", ""] + [f"- {app}: {why}" for app, why in skipped.items()]
    lines += ["", "## Checkouts", ""]
    for key, c in meta.get("checkouts", {}).items():
        lines.append(f"- {key}: {c['repo']} at `{c['path']}`, commit `{c['commit']}`"
                     + ("" if c["commit"] == c["pinned"] else f" (pinned: `{c['pinned']}`)")
                     + (f", local changes: {', '.join(c['dirty'])}" if c["dirty"] else ", clean"))
    lines += ["", "## Builds", ""]
    for name, b in meta.get("builds", {}).items():
        lines += [f"{name} ({b['status']}):", "", "```"] + b["commands"] + ["```", ""]
    lines += ["## Commands", "", "Every run's exact command is in originals.jsonl and originals.log; here the "
              "first round's per case and variant, and the image checks' (each job runs in a fresh folder holding "
              "the input files: CloverLeaf's deck as `clover.in`, a copy of which is in `inputs/`; Heat's `heat.conf` "
              "of the checkout):", "", "```"]
    firsts = {}
    for phase in ("timed", "check"):
        for r in records:
            if r.get("phase") == phase and r.get("round") in (0, 1):
                what = r["variant"] + (" (image check, untimed)" if phase == "check" else "")
                firsts.setdefault((case_key(r), r["side"], what), r["command"])
    lines += [f"# {k[0][0]} {k[0][1]}, {k[0][2]} rank(s), {k[1]} {k[2]}\n{command}" for k, command in firsts.items()]
    lines += ["```", "", "## What \"same computation\" checks", "",
              "- cloverleaf: the final field summary of every run against the original's (printed to 4 digits: "
              "within half a unit of its last digit), the same final step, and the test problem's verdict.",
              "- minighost: every variable's final interior sum against the original's within 1e-10 (printed by "
              "the original through bench/originals/patches/minighost-final-sums.patch, after its timed loop), and "
              "each side's own conservation check.",
              "- heat: before round 1, every variant writes its final field as the original's PPM image (a "
              "smaller grid, same tiles and ranks): the images must be byte-identical.",
              "- cfdproxy: the original prints no field values; ghostwire's checksums (original partition, "
              "`--init one`) against the reference code's (tests/cfdproxy/reference_checksums.txt) within 1e-12.",
              "- dash: the two examples start from different fields with different coefficients (same stencil, "
              "periodic grid, two arrays, asynchronous halo update overlapped with the inner cells): only each "
              "one's conservation of the total heat is checked (1e-9)."]
    text = "\n".join(lines) + "\n"
    (out_dir / "report.md").write_text(text)
    goals.write(out_dir / "goals.json", found)
    image = plot(rows, out_dir)
    print("\n" + "\n".join(report_table(rows)))
    if found:
        print(f"\nverdicts: {goals.summary_line(found)}")
    print(f"\n{PROGRAM}: report {out_dir / 'report.md'}" + (f", plot {image}" if image else ""))
    return text


def fmt_load(load) -> str:
    return " ".join(f"{x:.2f}" for x in load) if load else "?"


# ---------------------------------------------------------------- command line

def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for key, original in ORIGINALS.items():
        parser.add_argument(f"--{key}", metavar="DIR", help=f"a checkout of {original.repo} (pinned "
                            f"{original.commit[:7]}): {', '.join(original.apps)}")
    parser.add_argument("--clone", action="store_true", help="git-clone the originals not given at their pinned "
                        "commits into BUILD/originals/checkouts (needs the network)")
    parser.add_argument("--only", default=",".join(APPS), help=f"comma separated, of: {', '.join(APPS)}")
    parser.add_argument("--ranks", default="1,2,4", help="rank counts (default 1,2,4; CFD-Proxy always runs 48)")
    parser.add_argument("--rounds", type=int, help=f"rounds (default {FULL['rounds']}, --quick {QUICK['rounds']})")
    parser.add_argument("--cfd-rounds", type=int, help=f"rounds of CFD-Proxy, at most --rounds (default "
                        f"{FULL['cfd_rounds']}: each is itself a median of {FULL['cfd_median']} x 100 iterations)")
    parser.add_argument("--quick", action="store_true", help="smoke test: tiny inputs, few steps, 2 rounds")
    parser.add_argument("--cfd-mesh", default=str(F6), help=f"the DLR-F6 dual grid folder (default {F6})")
    parser.add_argument("--build-dir", default=str(ROOT / "build"), help="ghostwire's build tree (default build/); "
                        "the originals are built in its originals/ folder")
    parser.add_argument("--out", help="results folder (default results/originals-<timestamp>)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per job (default 900)")
    parser.add_argument("--report", metavar="DIR", help="only write the report and plot of an earlier run")
    parser.add_argument("--dry-run", action="store_true", help="print the build and run commands only")
    opts = parser.parse_args()
    opts.apps = [a for a in opts.only.split(",") if a]
    unknown = [a for a in opts.apps if a not in APPS]
    if unknown or not opts.apps:
        sys.exit(f"{PROGRAM}: --only: unknown {', '.join(unknown) or 'empty list'} (known: {', '.join(APPS)})")
    try:
        opts.ranks = sorted({int(n) for n in opts.ranks.split(",") if n})
    except ValueError:
        sys.exit(f"{PROGRAM}: --ranks takes positive integers separated by commas, got {opts.ranks!r}")
    if not opts.ranks or min(opts.ranks) < 1:
        sys.exit(f"{PROGRAM}: --ranks takes positive integers, got {opts.ranks}")
    inputs = QUICK if opts.quick else FULL
    opts.rounds = opts.rounds if opts.rounds is not None else inputs["rounds"]
    opts.cfd_rounds = opts.cfd_rounds if opts.cfd_rounds is not None else inputs["cfd_rounds"]
    if opts.rounds < 1 or opts.cfd_rounds < 1:
        sys.exit(f"{PROGRAM}: --rounds and --cfd-rounds must be at least 1")
    return opts, inputs


def main() -> int:
    opts, inputs = parse_args()
    if opts.report:
        return 0 if write_report(Path(opts.report)) else 1
    build_dir = Path(opts.build_dir).resolve()
    opts.build_dir = str(build_dir)
    missing = [f"{app}: {build_dir / GW_TARGETS[app]}" for app in opts.apps
               if not (build_dir / GW_TARGETS[app]).exists()]
    if missing and not opts.dry_run:
        sys.exit(f"{PROGRAM}: ghostwire's programs are not built: {'; '.join(missing)}\n(cmake --build "
                 f"{build_dir} --target gw-cloverleaf gw-minighost gw-heat gw-cfdproxy heat_jacobi)")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S") + ("-quick" if opts.quick else "")
    out_dir = Path(opts.out) if opts.out else ROOT / "results" / f"originals-{stamp}"
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = new_meta(quick=opts.quick, rounds=opts.rounds, cfd_rounds=opts.cfd_rounds, ranks=opts.ranks,
                    apps=opts.apps, inputs={k: (v if not isinstance(v, dict) else {str(a): b for a, b in v.items()})
                                            for k, v in inputs.items()})
    print(f"{PROGRAM}: results in {out_dir}; load average {meta['machine']['load_average'][0]:.2f} on "
          f"{meta['machine']['cores']} cores" + (" (a --quick smoke run: the times mean nothing)" if opts.quick
                                                 else ""),
          flush=True)
    if meta["machine"]["load_average"][0] > 0.5 * (meta["machine"]["cores"] or 1):
        print(f"{PROGRAM}: warning: the machine is busy; timings will be distorted", flush=True)

    checkouts = find_checkouts(opts)
    meta["checkouts"] = {k: {"repo": c.original.repo, "path": str(c.path), "commit": c.commit,
                             "pinned": c.original.commit, "dirty": c.dirty} for k, c in checkouts.items()}
    meta["skipped"], meta["builds"] = {}, {}
    build_root = build_dir / "originals"
    cases: list[Case] = []
    for app in opts.apps:
        checkout = checkouts.get(SOURCE_OF[app])
        if checkout is None:
            meta["skipped"][app] = f"no checkout of {ORIGINALS[SOURCE_OF[app]].repo}"
            continue
        builds = {}
        try:
            for build in builds_for(app, checkout, inputs):
                run_build(build, build_root, opts.dry_run)
                builds[app] = build
                meta["builds"][build.name] = {"status": build.status, "commands": build.shown_commands()}
                print(f"{PROGRAM}: {app}: original {build.status}", flush=True)
        except BuildError as error:
            print(f"{PROGRAM}: {app}: the original cannot be built here, skipping it: {error}", flush=True)
            meta["skipped"][app] = f"the original did not build: {str(error).splitlines()[0]}"
            continue
        made = CASE_MAKERS[app](builds, opts, inputs, checkout, out_dir)
        for case in made:
            case.rounds = case.rounds or opts.rounds
        cases += made
    if not cases:
        print(f"{PROGRAM}: nothing to run")
        (out_dir / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
        if not opts.dry_run:
            write_report(out_dir)
        return 1
    print(f"{PROGRAM}: {len(cases)} cases, {sum(len(c.jobs) * c.rounds for c in cases)} timed runs in "
          f"{opts.rounds} rounds", flush=True)
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    scratch_root = build_root / "work"
    scratch_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="run-", dir=scratch_root) as scratch:
        runner = Runner(opts, out_dir, Path(scratch))
        try:
            failures = run_all(cases, opts, runner)
        finally:
            runner.close()
    if opts.dry_run:
        return 0
    finish_meta(meta, out_dir, failures)
    write_report(out_dir)
    if failures:
        print(f"\n{PROGRAM}: {len(failures)} run(s) failed:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
