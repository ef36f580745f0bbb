# SPDX-License-Identifier: BSD-3-Clause
"""Reverse exchanges: ghost values go back to their owners and are combined in a fixed order."""
import numpy
import pytest

import ghostwire


def ghost_map(rank, size):
    """Each rank's ghosts (some repeated), reproducible on every rank."""
    counts = [9 + 2 * r for r in range(size)]
    rng = numpy.random.default_rng(23 + rank)
    owners = rng.integers(0, size, 30)
    indices = numpy.array([rng.integers(0, counts[o]) for o in owners])
    return counts, owners, indices


def ghost_values(rank, round_):
    # Values of very different sizes: a sum in another order gives other bits.
    k = numpy.arange(30)
    return numpy.where(k % 3 == 0, 1e16, numpy.where(k % 3 == 1, -1e16, 1.0)) * (rank + 1) + 0.25 * k + round_


def test_unstructured_reverse_sums_in_rank_and_position_order(world):
    counts, owners, indices = ghost_map(world.rank, world.size)
    with ghostwire.UnstructuredPlan(world, counts[world.rank], owners, indices) as plan:
        for round_ in range(3):
            plan.owned[:] = numpy.arange(counts[world.rank]) * 0.5 + world.rank
            plan.ghosts[:] = ghost_values(world.rank, round_)
            plan.reverse_exchange("sum")
            want = [i * 0.5 + world.rank for i in range(counts[world.rank])]
            for q in range(world.size):
                _, their_owners, their_indices = ghost_map(q, world.size)
                values = ghost_values(q, round_)
                for k, (o, i) in enumerate(zip(their_owners, their_indices)):
                    if o == world.rank:
                        want[i] += values[k]
            assert plan.owned.tolist() == want
            world.barrier()


def test_grid_reverse_halo_returns_each_image_once(world):
    grid = ghostwire.Grid(world, (4 * world.size, 3), halo=(1, 0), dtype=numpy.int64, periodic=(True, False))
    grid.interior[:] = 1
    grid.update_halo()
    grid.reverse_halo()  # the block's first and last rows have one ghost image each
    want = numpy.ones(grid.local_shape, dtype=numpy.int64)
    want[0, :] += 1
    want[-1, :] += 1
    assert grid.interior.tolist() == want.tolist()
    grid.update_halo()
    grid.reverse_halo("max")
    assert grid.interior.tolist() == want.tolist()
    with pytest.raises(ghostwire.Error, match="'replace'"):
        grid.reverse_halo("product")



def test_general_plan_reverse_of_int32(world):
    n, rank = world.size, world.rank
    right, left = (rank + 1) % n, (rank - 1) % n
    data = numpy.arange(10, dtype=numpy.int32) + 100 * rank
    ghosts = numpy.full(3, -1, dtype=numpy.int32)
    plan = ghostwire.Plan(world, sorted({right, left}), channels=1)
    plan.add_send(0, right, data, [4, 2, 9]).add_receive(0, left, ghosts, [0, 1, 2])
    plan.enable_reverse()
    plan.commit()
    ghosts[:] = [1000 * (rank + 1), 2000 * (rank + 1), 3000 * (rank + 1)]
    plan.reverse_exchange("max", numpy.int32)
    want = numpy.arange(10, dtype=numpy.int32) + 100 * rank
    want[[4, 2, 9]] = numpy.maximum(want[[4, 2, 9]], [1000 * (right + 1), 2000 * (right + 1), 3000 * (right + 1)])
    assert data.tolist() == want.tolist()
    world.barrier()
    plan.reverse_start()
    plan.reverse_finish("replace", numpy.int32)
    assert data[[4, 2, 9]].tolist() == [1000 * (right + 1), 2000 * (right + 1), 3000 * (right + 1)]
    plan.close()
