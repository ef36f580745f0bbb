# SPDX-License-Identifier: BSD-3-Clause
"""World from mpi4py communicators, and the GIL released while ranks wait."""
import time

import numpy
import pytest

import ghostwire
from conftest import WITH_MPI4PY
from thread_ticker import Ticker


def test_world_describes_the_job(world):
    assert 0 <= world.rank < world.size
    assert world.node_ranks == sorted(world.node_ranks) and world.rank in world.node_ranks
    assert world.shares_memory_with(world.rank)
    assert "rank" in world.where()


@pytest.mark.skipif(not WITH_MPI4PY, reason="Debian's mpi4py runs on Open MPI")
def test_world_of_a_split_communicator(world):
    from mpi4py import MPI
    half = MPI.COMM_WORLD.Split(world.rank % 2, world.rank)
    with ghostwire.World(half) as sub:
        assert sub.size == half.Get_size() and sub.rank == half.Get_rank()
        with ghostwire.Grid(sub, (6, 5), periodic=True) as grid:
            grid.interior[...] = world.rank % 2 + 1
            grid.update_halo()
            assert (grid.local[0, 1:-1] == world.rank % 2 + 1).all()  # ghosts from its own half only
            assert grid.sum() == 30 * (world.rank % 2 + 1)
    half.Free()


@pytest.mark.skipif(not WITH_MPI4PY, reason="Debian's mpi4py runs on Open MPI")
def test_world_refuses_what_is_not_a_communicator():
    with pytest.raises(ghostwire.Error) as caught:
        ghostwire.World(comm=42)
    assert caught.value.code == ghostwire.Errc.invalid_argument
    assert "mpi4py communicator" in str(caught.value)


def test_waits_release_the_gil(world):
    """Rank 0 arrives late at a halo update; meanwhile the other ranks' Python threads must run."""
    if world.size == 1:
        pytest.skip("needs a rank to wait for")
    grid = ghostwire.Grid(world, (8, 8), periodic=True)
    with Ticker() as ticker:
        if world.rank == 0:
            time.sleep(1.0)
        entered = time.monotonic()
        grid.update_halo()
        left = time.monotonic()
    if world.rank != 0:
        assert left - entered > 0.5
        during = ticker.count_between(entered + 0.1, left - 0.1)
        assert during > 10, f"{during} ticks of the other thread during a {left - entered:.2f} s wait"
    world.barrier()
    grid.close()
