# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures: every rank runs the same tests in the same order (they are collective).

The world is built on mpi4py's COMM_WORLD when ghostwire runs on mpi4py's MPI (Open MPI builds),
else on MPI_COMM_WORLD without mpi4py (GHOSTWIRE_MPI_FLAVOR=mpich: Debian's mpi4py is Open MPI's).
"""
import os

import numpy
import pytest

import ghostwire

WITH_MPI4PY = os.environ.get("GHOSTWIRE_MPI_FLAVOR", "openmpi") != "mpich"


@pytest.fixture(scope="session")
def world():
    if WITH_MPI4PY:
        from mpi4py import MPI
        w = ghostwire.World(MPI.COMM_WORLD)
    else:
        w = ghostwire.World()
    yield w


def encode(global_index, shape):
    """A cell's value: its global row-major index + 1 (0 is never a cell: unwritten ghosts are -1)."""
    value = 0
    for g, e in zip(global_index, shape):
        value = value * e + g
    return value + 1


def fill_encoded(grid):
    """Every owned cell holds encode(its global index); ghost cells hold -1."""
    grid.local[...] = -1
    index = numpy.indices(grid.local_shape)
    value = numpy.zeros(grid.local_shape, dtype=numpy.int64)
    for d, e in enumerate(grid.shape):
        value = value * e + index[d] + grid.offset[d]
    grid.interior[...] = (value + 1).astype(grid.dtype)


def gather(world, grid):
    """The whole grid on every rank (float64), through allreduce of disjoint blocks."""
    full = numpy.zeros(grid.shape, dtype=numpy.float64)
    block = tuple(slice(o, o + n) for o, n in zip(grid.offset, grid.local_shape))
    full[block] = grid.interior
    return ghostwire.allreduce(world, full, "sum")
