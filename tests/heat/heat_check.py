#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs gw-heat under mpirun and checks what it printed; the tests of tests/heat use it.

gw_add_mpi_test launches this script on every rank. Rank 0 runs the real command as a child
process and checks its output once it has finished (MPI works in a child: it inherits the
launcher's environment and, for MPICH, its PMI file descriptor); the other ranks just become the
command (exec), except in `status` mode.

  heat_check.py record FILE -- CMD...    save CMD's 'checksum' lines in FILE (the seq reference)
  heat_check.py compare FILE [--same-file A B] -- CMD...
                                         CMD's 'checksum' lines must equal FILE's, character for
                                         character (%.17g: bit-identical); files A and B (images)
                                         must be identical too
  heat_check.py expect NAME=VALUE[~RELTOL]... -- CMD...
                                         checksum NAME must be VALUE, exactly or within RELTOL
  heat_check.py status CODE REGEX -- CMD...
                                         on every rank CMD must exit with CODE; rank 0's output
                                         (stdout and stderr) must match REGEX (error-message tests)
"""
import os
import re
import subprocess
import sys


def rank():
    for name in ("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"):
        if name in os.environ:
            return int(os.environ[name])
    return 0


def fail(message):
    print(f"heat_check: FAIL: {message}", flush=True)
    sys.exit(1)


def run(command):
    """Runs command, echoes its output, returns (exit status, stdout + stderr)."""
    # close_fds=False: MPICH's launcher hands its ranks the PMI connection as an inherited fd.
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            close_fds=False)
    sys.stdout.write(result.stdout)
    sys.stdout.flush()
    return result.returncode, result.stdout


def checksum_lines(output):
    return [line for line in output.splitlines() if line.startswith("checksum ")]


def run_for_checksums(command):
    status, output = run(command)
    if status != 0:
        fail(f"the command exited with status {status}")
    lines = checksum_lines(output)
    if not lines:
        fail("the command printed no 'checksum' lines (was --checksum given?)")
    return lines


def record(args, command):
    (path,) = args
    lines = run_for_checksums(command)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as file:
        file.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)
    print(f"heat_check: recorded {len(lines)} checksums in {path}")


def compare(args, command):
    path, same_files = args[0], []
    rest = args[1:]
    while rest:
        if rest[0] != "--same-file" or len(rest) < 3:
            fail(f"bad compare arguments {rest}")
        same_files.append((rest[1], rest[2]))
        rest = rest[3:]
    try:
        with open(path) as file:
            expected = file.read().splitlines()
    except OSError as error:
        fail(f"no reference checksums ({error}); the heat.reference.* test makes them")
    got = run_for_checksums(command)
    if got != expected:
        print("heat_check: checksums differ from the reference (seq):")
        for want, have in zip(expected, got):
            print(f"  {'ok  ' if want == have else 'DIFF'} reference: {want}\n       this run:  {have}")
        if len(got) != len(expected):
            print(f"  {len(expected)} reference lines, {len(got)} in this run")
        fail("not bit-identical to seq")
    for first, second in same_files:
        with open(first, "rb") as a, open(second, "rb") as b:
            if a.read() != b.read():
                fail(f"{first} and {second} differ")
    print(f"heat_check: bit-identical to {path} ({len(got)} checksums)")


def expect(args, command):
    got = {}
    for line in run_for_checksums(command):
        _, name, value = line.split()
        got[name] = float(value)
    for spec in args:
        name, _, wanted = spec.partition("=")
        value_text, _, tolerance_text = wanted.partition("~")
        value, tolerance = float(value_text), float(tolerance_text or 0)
        if name not in got:
            fail(f"no checksum {name}")
        error = abs(got[name] - value) / abs(value) if value else abs(got[name])
        if error > tolerance:
            fail(f"{name} = {got[name]!r}, expected {value!r} (relative error {error:.3g}, "
                 f"allowed {tolerance:g})")
        print(f"heat_check: {name} = {got[name]!r} ok (expected {value!r}, relative error {error:.3g})")


def status(args, command, my_rank):
    code, pattern = int(args[0]), args[1]
    got_code, output = run(command)
    if got_code != code:
        fail(f"exit status {got_code}, expected {code}")
    if my_rank == 0 and not re.search(pattern, output, re.DOTALL):
        fail(f"the output does not match {pattern!r}")
    if my_rank == 0:
        print(f"heat_check: exit status {code} and output matching {pattern!r} as expected")


def main():
    argv = sys.argv[1:]
    if "--" not in argv or not argv:
        print(__doc__)
        sys.exit(2)
    split = argv.index("--")
    mode, args, command = argv[0], argv[1:split], argv[split + 1:]
    my_rank = rank()
    if mode == "status":
        status(args, command, my_rank)
        return
    if my_rank != 0:
        os.execvp(command[0], command)
    {"record": record, "compare": compare, "expect": expect}.get(
        mode, lambda *_: fail(f"unknown mode {mode}"))(args, command)


if __name__ == "__main__":
    main()
