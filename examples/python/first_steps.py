# SPDX-License-Identifier: BSD-3-Clause
"""docs/python.md's first program: a periodic 2-D heat step on two ghostwire grids whose blocks
are numpy arrays. Prints the sum, minimum and maximum (each collective) and a checksum that weighs
each cell by its global position, the same on any number of ranks.

    scripts/launch -n 2 -- /usr/bin/python3 examples/python/first_steps.py
"""
from mpi4py import MPI            # optional
import numpy, ghostwire

world = ghostwire.World(MPI.COMM_WORLD)          # or ghostwire.World(): MPI_COMM_WORLD
u = ghostwire.Grid(world, (128, 96), halo=1, dtype=numpy.float64, periodic=True)
v = ghostwire.Grid(world, (128, 96), halo=1, periodic=True)
i, j = numpy.indices(u.local_shape)              # interior[i, j] is global cell u.offset + (i, j)
u.interior[:] = (7 * (i + u.offset[0]) + 13 * (j + u.offset[1])) % 17
for step in range(20):
    u.update_halo()                              # u.local's ghost cells now hold the neighbours' cells
    a = u.local                                  # ghosts included: interior is a[1:-1, 1:-1]
    v.interior[:] = a[1:-1, 1:-1] + 0.2 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] - 4 * a[1:-1, 1:-1])
    u, v = v, u
total, low, high = u.sum(), u.min(), u.max()     # collective: the same value on every rank
weights = (1 + i + u.offset[0]) / 128 + (1 + j + u.offset[1]) / 96
checksum = ghostwire.allreduce(world, float((weights * u.interior).sum()))
if world.rank == 0:
    print(f"first_steps.py: sum {total:.6f}, min {low:.6f}, max {high:.6f}")
    print(f"checksum {checksum:.6f}")
