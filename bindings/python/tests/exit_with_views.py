# SPDX-License-Identifier: BSD-3-Clause
"""A script that ends with numpy views of an open Grid still alive (a module-level `view`, no
close()): the package's exit handler must close the grid anyway, since Grid.close() refuses only to
protect views, and these go with the interpreter. It prints "exit_with_views: ok" and must exit
without "ghostwire: at exit:" (the handler's report of a close that failed)."""
import os

import numpy

import ghostwire

if os.environ.get("GHOSTWIRE_MPI_FLAVOR", "openmpi") != "mpich":
    from mpi4py import MPI
    world = ghostwire.World(MPI.COMM_WORLD)
else:
    world = ghostwire.World()
grid = ghostwire.Grid(world, (8, 8), periodic=True)
view = grid.local
interior = view[1:-1, 1:-1]
interior[...] = world.rank + 1.0
grid.update_halo()
assert numpy.all(grid.interior == world.rank + 1.0)
print("exit_with_views: ok", flush=True)
