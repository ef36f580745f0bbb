# SPDX-License-Identifier: BSD-3-Clause
"""Halo update from Python: ghostwire's Grid.update_halo() against the usual mpi4py exchanges of
numpy slices, and the Python call overhead over the same update run in C++.

Variants (each per call, per rank the slowest rank's time, median of interleaved repeats):
  gw                 grid.update_halo() called from Python
  gw-cxx             the same HaloUpdate run in a C++ loop inside the binding (grid._bench_update_halo)
  mpi4py-sendrecv    per dimension, Sendrecv of the packed faces both ways (numpy copies in and out)
  mpi4py-persistent  Send_init/Recv_init of every face once, then pack, Startall, Waitall, unpack
and the overhead line: gw - gw-cxx, the microseconds one Python call adds.

Both sides use the grid's decomposition (the same blocks and neighbours); halo 1, faces, periodic,
float64. Before timing, the mpi4py variants' ghost faces are checked against the grid's.

  # one launch (an MPI program):
  scripts/launch -n 2 -- /usr/bin/python3 bench/python/bench_halo.py --json out.jsonl
  # the whole study, 2 and 4 ranks, then the table:
  /usr/bin/python3 bench/python/bench_halo.py --launch 2,4 --json bench/python/halo.jsonl
  # smoke run (tiny sizes, a few repeats):
  /usr/bin/python3 bench/python/bench_halo.py --launch 2 --quick
Uses an installed ghostwire (or PYTHONPATH's), else the build tree's (build/bindings/python).
"""
import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy

ROOT = Path(__file__).resolve().parents[2]
try:
    import ghostwire  # importing does not start MPI: the driver mode only launches
except ImportError:  # not installed and no PYTHONPATH: the build tree's package
    sys.path.insert(0, str(ROOT / "build" / "bindings" / "python"))
    import ghostwire
VARIANTS = ["gw", "gw-cxx", "mpi4py-sendrecv", "mpi4py-persistent"]
SIZES = {2: [256, 512, 1024, 2048, 4096], 3: [32, 64, 128, 256]}
QUICK_SIZES = {2: [64], 3: [16]}


def options(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--launch", help="rank counts to launch this benchmark on, e.g. 2,4 (driver mode)")
    p.add_argument("--path", default="intra", help="scripts/launch --path (driver mode)")
    p.add_argument("--dims", default="2,3", help="2, 3 or 2,3")
    p.add_argument("--sizes2", help="2-D edge lengths, comma-separated (default 256..4096)")
    p.add_argument("--sizes3", help="3-D edge lengths, comma-separated (default 32..256)")
    p.add_argument("--repeats", type=int, default=11, help="interleaved repeats of every variant")
    p.add_argument("--target-ms", type=float, default=20.0, help="about this long per measurement")
    p.add_argument("--quick", action="store_true", help="tiny sizes, 3 repeats: checks that it runs")
    p.add_argument("--json", help="append the JSON lines to this file")
    return p.parse_args(argv)


# ---- the exchanges -------------------------------------------------------------------------------

def face(ndim, d, side, extent, ghost):
    """Index of the owned face (ghost=False) or ghost face (ghost=True) of dimension d in the local
    array with its halo of 1; side -1 is low, +1 high. Other dimensions: owned cells only."""
    index = [slice(1, e + 1) for e in extent]
    if ghost:
        index[d] = 0 if side < 0 else extent[d] + 1
    else:
        index[d] = 1 if side < 0 else extent[d]
    return tuple(index)


class Neighbours:
    """The grid's decomposition as ranks: neighbour(d, side) of this rank's block (periodic)."""

    def __init__(self, grid, world):
        self.rank_at = {grid.position(r): r for r in range(world.size)}
        self.me, self.team = grid.position(), grid.team

    def __call__(self, d, side):
        p = list(self.me)
        p[d] = (p[d] + side) % self.team[d]
        return self.rank_at[tuple(p)]


class SendrecvExchange:
    def __init__(self, comm, array, neighbour):
        self.comm, self.a, self.nb = comm, array, neighbour
        self.extent = tuple(n - 2 for n in array.shape)

    def run(self):
        a, ndim = self.a, self.a.ndim
        for d in range(ndim):
            for side in (-1, 1):  # send my low face down and receive my high ghosts from above, then back
                send = numpy.ascontiguousarray(a[face(ndim, d, side, self.extent, False)])
                recv = numpy.empty_like(send)
                self.comm.Sendrecv(send, dest=self.nb(d, side), sendtag=d * 2 + (side > 0),
                                   recvbuf=recv, source=self.nb(d, -side), recvtag=d * 2 + (side > 0))
                a[face(ndim, d, -side, self.extent, True)] = recv


class PersistentExchange:
    def __init__(self, comm, array, neighbour):
        from mpi4py import MPI
        self.a, self.MPI = array, MPI
        ndim, extent = array.ndim, tuple(n - 2 for n in array.shape)
        self.faces, self.requests = [], []
        for d in range(ndim):
            for side in (-1, 1):
                owned = face(ndim, d, side, extent, False)
                ghost = face(ndim, d, side, extent, True)
                send = numpy.empty(array[owned].shape)
                recv = numpy.empty(array[ghost].shape)
                tag = d * 2 + (side > 0)
                # the message to the neighbour at `side` carries my `side` face; it lands in its -side ghosts
                self.requests.append(comm.Send_init(send, dest=neighbour(d, side), tag=tag))
                self.requests.append(comm.Recv_init(recv, source=neighbour(d, -side), tag=tag))
                self.faces.append((owned, send, face(ndim, d, -side, extent, True), recv))

    def run(self):
        for owned, send, _, _ in self.faces:
            numpy.copyto(send, self.a[owned])
        self.MPI.Prequest.Startall(self.requests)
        self.MPI.Request.Waitall(self.requests)
        for _, _, ghost, recv in self.faces:
            self.a[ghost] = recv

    def free(self):
        for r in self.requests:
            r.Free()


def check_same_faces(grid, array):
    """The mpi4py exchange must fill the same face ghosts with the same values as the grid."""
    ndim, extent = array.ndim, grid.local_shape
    for d in range(ndim):
        for side in (-1, 1):
            ghost = face(ndim, d, side, extent, True)
            if not numpy.array_equal(grid.local[ghost], array[ghost]):
                raise SystemExit(f"bench_halo: mpi4py exchange differs from the grid in dimension {d} side {side}")


# ---- one launch ----------------------------------------------------------------------------------

def timed(world_comm, call, iterations):
    """Seconds per call, the slowest rank's."""
    from mpi4py import MPI
    world_comm.Barrier()
    start = time.perf_counter()
    call(iterations)
    seconds = (time.perf_counter() - start) / iterations
    return world_comm.allreduce(seconds, op=MPI.MAX)


def run_case(comm, world, ndim, n, opts):
    grid = ghostwire.Grid(world, (n,) * ndim, halo=1, periodic=True, stencil="faces")
    rng = numpy.random.default_rng(comm.rank)
    grid.interior[...] = rng.random(grid.local_shape)
    array = numpy.zeros(grid.local.shape)
    array[(slice(1, -1),) * ndim] = grid.interior
    neighbour = Neighbours(grid, world)
    sendrecv = SendrecvExchange(comm, array, neighbour)
    persistent = PersistentExchange(comm, array, neighbour)
    grid.update_halo()
    for exchange in (sendrecv, persistent):
        array[...] = -1
        array[(slice(1, -1),) * ndim] = grid.interior
        exchange.run()
        check_same_faces(grid, array)

    def loop(run):
        def calls(k):
            for _ in range(k):
                run()
        return calls

    calls = {
        "gw": loop(grid.update_halo),
        "gw-cxx": grid._bench_update_halo,
        "mpi4py-sendrecv": loop(sendrecv.run),
        "mpi4py-persistent": loop(persistent.run),
    }
    # Iterations so that the slowest variant takes about target-ms per measurement.
    probe = max(timed(comm, calls[v], 3) for v in VARIANTS)
    iterations = max(3, min(10000, int(opts.target_ms * 1e-3 / max(probe, 1e-7))))
    iterations = comm.bcast(iterations, root=0)
    samples = {v: [] for v in VARIANTS}
    for repeat in range(opts.repeats):
        order = VARIANTS[repeat % len(VARIANTS):] + VARIANTS[:repeat % len(VARIANTS)]  # rotate: interleaved
        for v in order:
            samples[v].append(timed(comm, calls[v], iterations) * 1e6)
    persistent.free()
    grid.close()
    rows = []
    base = {"bench": "python_halo", "dims": ndim, "n": n, "ranks": comm.size, "iterations": iterations,
            "repeats": opts.repeats, "team": list(neighbour.team)}
    for v in VARIANTS:
        rows.append(dict(base, variant=v, median_us=statistics.median(samples[v]), samples_us=samples[v]))
    overhead = [a - b for a, b in zip(samples["gw"], samples["gw-cxx"])]
    rows.append(dict(base, variant="python-overhead", median_us=statistics.median(overhead), samples_us=overhead))
    return rows


def bench(opts):
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    world = ghostwire.World(comm)
    sizes = QUICK_SIZES if opts.quick else dict(SIZES)
    if opts.sizes2:
        sizes[2] = [int(s) for s in opts.sizes2.split(",")]
    if opts.sizes3:
        sizes[3] = [int(s) for s in opts.sizes3.split(",")]
    if opts.quick:
        opts.repeats, opts.target_ms = min(opts.repeats, 3), 1.0
    rows = []
    for ndim in [int(d) for d in opts.dims.split(",")]:
        for n in sizes[ndim]:
            case = run_case(comm, world, ndim, n, opts)
            rows += case
            if comm.rank == 0:
                for row in case:
                    print(json.dumps(row), flush=True)
    if comm.rank == 0:
        if opts.json:
            with open(opts.json, "a") as out:
                for row in rows:
                    out.write(json.dumps(row) + "\n")
        print_table(rows)
    world.close()


def print_table(rows):
    cases = sorted({(r["ranks"], r["dims"], r["n"]) for r in rows})
    by = {(r["ranks"], r["dims"], r["n"], r["variant"]): r["median_us"] for r in rows}
    head = f"{'ranks':>5} {'case':>8} " + " ".join(f"{v:>17}" for v in VARIANTS) + f" {'overhead':>9} {'gw/persist':>10}"
    print("median us per update (slowest rank); overhead = gw - gw-cxx")
    print(head)
    for ranks, dims, n in cases:
        values = [by.get((ranks, dims, n, v), float("nan")) for v in VARIANTS]
        over = by.get((ranks, dims, n, "python-overhead"), float("nan"))
        ratio = values[0] / values[3] if values[3] else float("nan")
        label = f"{n}^{dims}"
        print(f"{ranks:>5} {label:>8} " + " ".join(f"{x:>17.2f}" for x in values) + f" {over:>9.2f} {ratio:>10.2f}")


# ---- driver: launch the benchmark on several rank counts ------------------------------------------

def drive(opts, argv):
    forwarded = []
    skip = False
    for a in argv:  # everything but --launch/--path and their values
        if skip:
            skip = False
            continue
        if a in ("--launch", "--path"):
            skip = True
            continue
        if a.startswith("--launch=") or a.startswith("--path="):
            continue
        forwarded.append(a)
    json_path = opts.json
    rows = []
    for ranks in [int(r) for r in opts.launch.split(",")]:
        command = [str(ROOT / "scripts" / "launch"), "--path", opts.path, "-n", str(ranks), "--timeout", "3600", "--",
                   sys.executable, str(Path(__file__).resolve())] + forwarded
        run = subprocess.run(command, capture_output=True, text=True)
        sys.stderr.write(run.stderr)
        if run.returncode:
            sys.stdout.write(run.stdout)
            raise SystemExit(f"bench_halo: {ranks} ranks failed ({run.returncode})")
        rows += [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    print_table(rows)
    if json_path:
        print(f"bench_halo: JSON lines appended to {json_path}")


if __name__ == "__main__":
    args = options()
    if args.launch:
        drive(args, sys.argv[1:])
    else:
        bench(args)
