# SPDX-License-Identifier: BSD-3-Clause
"""3-D heat equation with a 7-point stencil in numpy: the same computation as
examples/stencil3d.cpp (periodic n^3 grid, halo 1, a hot cube, asynchronous halo update overlapped
with the inner cells) and the same printed checksum, bit for bit.

    scripts/launch -n 4 -- /usr/bin/python3 examples/python/stencil3d.py [n=64] [steps=20]
"""
import sys
import time

import numpy

import ghostwire

DT = 0.1  # stable for dt <= 1/6 with unit spacing


def step(u, v, box):
    """v = u + dt * laplace(u) on box (three ranges of interior indices), the six neighbours added
    in the C++ example's order."""
    if any(r.start >= r.stop for r in box):
        return
    a, b = u.local, v.local  # interior cell i is local cell i + 1 in every dimension

    def at(di, dj, dk):
        return a[tuple(slice(r.start + 1 + s, r.stop + 1 + s) for r, s in zip(box, (di, dj, dk)))]

    centre = at(0, 0, 0)
    b[tuple(slice(r.start + 1, r.stop + 1) for r in box)] = centre + DT * (
        at(-1, 0, 0) + at(1, 0, 0) + at(0, -1, 0) + at(0, 1, 0) + at(0, 0, -1) + at(0, 0, 1) - 6 * centre)


def rim(shape):
    """The owned cells within one cell of the block's faces as disjoint boxes: for dimension d the
    low and the high slab, leaving out what earlier dimensions cover (as Box::rim)."""
    inner = [range(0, e) for e in shape]
    for d, e in enumerate(shape):
        low = list(inner)
        low[d] = range(0, min(1, e))
        high = list(inner)
        high[d] = range(max(e - 1, 1), e)
        yield low
        yield high
        inner[d] = range(1, max(e - 1, 1))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    world = ghostwire.World()
    u = ghostwire.Grid(world, (n, n, n), halo=1, periodic=True)
    v = ghostwire.Grid(world, (n, n, n), halo=1, periodic=True)

    inside = numpy.ones(u.local_shape, dtype=bool)
    for d in range(3):
        g = numpy.arange(u.local_shape[d]) + u.offset[d]
        shape = [1, 1, 1]
        shape[d] = -1
        inside &= ((g >= n // 4) & (g < n // 2)).reshape(shape)
    u.interior[:] = inside.astype(numpy.float64)
    energy_before = u.sum()

    shape = u.local_shape
    world.barrier()
    start = time.perf_counter()
    for _ in range(steps):
        update = u.update_halo_async()
        step(u, v, [range(1, e - 1) for e in shape])
        update.wait()
        for box in rim(shape):
            step(u, v, box)
        u, v = v, u
    world.barrier()
    seconds = time.perf_counter() - start

    energy_after = u.sum()
    v.interior[:] = u.interior * u.interior
    checksum = v.sum()
    if world.rank == 0:
        team = u.team
        print(f"stencil3d.py: {n}^3, {steps} steps, {world.size} ranks (team {team[0]} x {team[1]} x {team[2]})")
        print(f"energy before {energy_before:.17g} after {energy_after:.17g}")
        print(f"checksum {checksum:.17g}")
        print(f"time {seconds:.6f} s, {1e3 * seconds / steps:.3f} ms per step")
    u.close()
    v.close()
    world.close()


if __name__ == "__main__":
    main()
