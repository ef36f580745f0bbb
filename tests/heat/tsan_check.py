#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs gw-heat's hybrid variants under ThreadSanitizer and reports every data race it finds.

libgomp is not instrumented, so TSan cannot see the order its task dependences give and reports
every hand-over of a block from one task to the next. This uses clang's OpenMP runtime (libomp)
with Archer, LLVM's OpenMP tool for TSan, which tells TSan about task dependences and barriers:

  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \\
        -DCMAKE_CXX_COMPILER=clang++ -DMPI_C_COMPILER=mpicc.openmpi -DMPI_CXX_COMPILER=mpicxx.openmpi \\
        -DGHOSTWIRE_MPI_FLAVOR=openmpi -DGHOSTWIRE_BUILD_TESTS=OFF -DGHOSTWIRE_BUILD_BENCH=OFF \\
        -DGHOSTWIRE_BUILD_EXAMPLES=OFF -DGHOSTWIRE_BUILD_FORTRAN=OFF \\
        "-DCMAKE_CXX_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" "-DCMAKE_C_FLAGS=-fsanitize=thread" \\
        "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread" "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread"
  cmake --build build-tsan --target gw-heat
  tests/heat/tsan_check.py build-tsan

Every run must give seq's checksums. Reports whose memory is a block of libomp's own task
descriptor pool are counted apart: libomp (Debian's, built without its TSan annotations) recycles
task descriptors in a pool of its own, so a new task's arguments written into a finished task's
descriptor look like a race with that task. Any other report is a finding; the exit status is 1 if
there is one or a run fails.
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARCHER = "/usr/lib/llvm-14/lib/libarcher.so"
CASE = ["-r", "64", "-c", "200", "--bx", "2", "--by", "2", "-t", "24"]
VARIANTS = ["mpi-omp-forkjoin", "mpi-omp-tasks", "mpi-omp-tasks-mt", "gw-omp-tasks"]
RUNS = [("intra", 1, 2), ("intra", 2, 2), ("emulated", 2, 2), ("multihost", 2, 2)]


def launch(path, ranks, threads, program, arguments):
    """(exit status, program output, TSan's reports): each process writes its reports to a file of
    its own, so the ranks' reports do not interleave."""
    command = [str(ROOT / "scripts" / "launch"), "--path", path, "-n", str(ranks), "--threads", str(threads)]
    if path == "emulated":
        command += ["--rpn", "1"]
    # The leg's options (tests/support/tsan.env: MPI's suppressions) where given; every report is
    # wanted here, to be sorted below, so none halts the run.
    options = os.environ.get("TSAN_OPTIONS", "").replace("halt_on_error=1", "")
    with tempfile.TemporaryDirectory() as logs:
        env = dict(os.environ, GHOSTWIRE_TIMEOUT="300",
                   TSAN_OPTIONS=f"{options}:halt_on_error=0:report_signal_unsafe=0:history_size=7:"
                                f"log_path={logs}/tsan")
        env.setdefault("OMP_TOOL_LIBRARIES", ARCHER)
        result = subprocess.run(command + ["--", program] + arguments, capture_output=True, text=True, env=env,
                                timeout=900)
        found = [file.read_text() for file in sorted(Path(logs).glob("tsan*"))]
    return result.returncode, result.stdout + result.stderr, found


def reports(logs):
    """(findings, libomp pool reports): each report's text, split at TSan's warnings."""
    findings, pool = [], []
    for block in [b for log in logs for b in log.split("WARNING: ThreadSanitizer:")[1:]]:
        block = block.split("SUMMARY: ThreadSanitizer")[0]
        allocation = re.search(r"Location is heap block.*?allocated by.*?\n\s*#0[^\n]*\n\s*#1([^\n]*)", block, re.S)
        (pool if allocation and "libomp.so" in allocation.group(1) else findings).append(block)
    return findings, pool


def main():
    build = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build-tsan")
    program = str(build / "apps" / "heat" / "gw-heat")
    status, output, _ = launch("intra", 1, 1, program, ["--variant", "seq", *CASE, "--checksum"])
    reference = [line for line in output.splitlines() if line.startswith("checksum ")]
    if status != 0 or not reference:
        sys.exit(f"tsan_check: seq failed (status {status})\n{output}")
    failed = False
    for variant in VARIANTS:
        for path, ranks, threads in RUNS:
            status, output, logs = launch(path, ranks, threads, program, ["--variant", variant, *CASE, "--checksum"])
            checksums = [line for line in output.splitlines() if line.startswith("checksum ")]
            findings, pool = reports(logs)
            ok = status in (0, 66) and checksums == reference and not findings
            failed |= not ok
            print(f"{'ok  ' if ok else 'FAIL'} {variant} {path} {ranks}x{threads}: status {status}, "
                  f"checksums {'equal' if checksums == reference else 'DIFFERENT'}, {len(findings)} race report(s), "
                  f"{len(pool)} in libomp's task pool", flush=True)
            for block in findings:
                print("WARNING: ThreadSanitizer:" + block)
    if not failed:
        print("tsan_check: every run gave seq's checksums, no race report outside libomp's task pool")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
