# SPDX-License-Identifier: BSD-3-Clause
"""2-D heat equation, explicit Jacobi steps on a periodic n x n grid with a halo of 1, in numpy:
the same computation as examples/heat_jacobi.cpp (an asynchronous halo update overlapped with the
inner cells, then the boundary cells, then swap) and the same printed checksum, bit for bit.

    scripts/launch -n 4 -- /usr/bin/python3 examples/python/heat_jacobi.py [n=1024] [steps=100]
"""
import sys
import time

import numpy

import ghostwire

DT = 0.2  # stable for dt <= 0.25 with dx = dy = 1


def step(u, v, rows, cols):
    """v = u + dt * laplace(u) on the owned cells rows x cols (ranges of interior indices), the
    terms added in the C++ example's order so that the bits agree."""
    if rows.start >= rows.stop or cols.start >= cols.stop:
        return
    a, b = u.local, v.local  # ghost cells included: interior cell i is local cell i + 1
    r = slice(rows.start + 1, rows.stop + 1)
    c = slice(cols.start + 1, cols.stop + 1)
    centre = a[r, c]
    above = a[rows.start:rows.stop, c]
    below = a[rows.start + 2:rows.stop + 2, c]
    left = a[r, cols.start:cols.stop]
    right = a[r, cols.start + 2:cols.stop + 2]
    b[r, c] = centre + DT * (above + below + left + right - 4 * centre)


def rim(rows, cols):
    """The owned cells within one cell of the block's edge, as (rows, cols) ranges."""
    yield range(0, min(1, rows)), range(0, cols)
    yield range(max(rows - 1, 1), rows), range(0, cols)
    yield range(1, rows - 1), range(0, min(1, cols))
    yield range(1, rows - 1), range(max(cols - 1, 1), cols)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    world = ghostwire.World()
    u = ghostwire.Grid(world, (n, n), halo=1, periodic=True)
    v = ghostwire.Grid(world, (n, n), halo=1, periodic=True)

    # A hot square in the middle of a cold plate.
    rows, cols = u.local_shape
    gi = numpy.arange(rows)[:, None] + u.offset[0]
    gj = numpy.arange(cols)[None, :] + u.offset[1]
    u.interior[:] = ((gi >= n // 4) & (gi < n // 2) & (gj >= n // 4) & (gj < n // 2)).astype(numpy.float64)
    energy_before = u.sum()

    world.barrier()
    start = time.perf_counter()
    for _ in range(steps):
        update = u.update_halo_async()
        step(u, v, range(1, rows - 1), range(1, cols - 1))  # needs no ghost cell
        update.wait()
        for r, c in rim(rows, cols):
            step(u, v, r, c)
        u, v = v, u
    world.barrier()
    seconds = time.perf_counter() - start

    energy_after = u.sum()
    squares = v  # reuse the other grid
    squares.interior[:] = u.interior * u.interior
    checksum = squares.sum()
    if world.rank == 0:
        team = u.team
        print(f"heat_jacobi.py: {n} x {n}, {steps} steps, {world.size} ranks (team {team[0]} x {team[1]})")
        print(f"energy before {energy_before:.17g} after {energy_after:.17g}")
        print(f"checksum {checksum:.17g}")
        print(f"time {seconds:.6f} s, {1e3 * seconds / steps:.3f} ms per step, "
              f"{n * n * steps / seconds / 1e6:.1f} Mcells/s")
    u.close()
    v.close()
    world.close()


if __name__ == "__main__":
    main()
