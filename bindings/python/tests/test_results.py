# SPDX-License-Identifier: BSD-3-Clause
"""Results that must not depend on the number of ranks: a few heat steps on a Grid against the
same steps on the whole array in one numpy process, reductions, allreduce."""
import numpy
import pytest

import ghostwire
from conftest import fill_encoded, gather

DT = 0.2


def serial_steps(full, steps):
    for _ in range(steps):
        up, down = numpy.roll(full, 1, 0), numpy.roll(full, -1, 0)
        left, right = numpy.roll(full, 1, 1), numpy.roll(full, -1, 1)
        full = full + DT * (up + down + left + right - 4 * full)
    return full


def test_heat_steps_equal_the_serial_computation_bit_for_bit(world):
    shape = (18, 14)
    rng = numpy.random.default_rng(5)
    start = rng.random(shape)
    u = ghostwire.Grid(world, shape, halo=1, periodic=True)
    v = ghostwire.Grid(world, shape, halo=1, periodic=True)
    block = tuple(slice(o, o + n) for o, n in zip(u.offset, u.local_shape))
    u.interior[...] = start[block]
    for _ in range(5):
        u.update_halo()
        a = u.local
        v.interior[...] = a[1:-1, 1:-1] + DT * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]
                                                - 4 * a[1:-1, 1:-1])
        u, v = v, u
    result = gather(world, u)
    assert numpy.array_equal(result, serial_steps(start, 5))
    del a  # a view of one of the grids: close() refuses while it is alive
    u.close()
    v.close()


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32, numpy.int32, numpy.int64])
def test_reductions_over_the_whole_grid(world, dtype):
    shape = (9, 7, 5)
    with ghostwire.Grid(world, shape, dtype=dtype) as grid:
        fill_encoded(grid)  # 1 .. cells
        grid.local[0, ...] = 10**6  # ghost cells never count
        cells = 9 * 7 * 5
        assert grid.sum() == cells * (cells + 1) // 2
        assert grid.min() == 1
        assert grid.max() == cells
        assert isinstance(grid.sum(), int if numpy.dtype(dtype).kind == "i" else float)


def test_allreduce_scalars_and_arrays(world):
    n = world.size
    assert ghostwire.allreduce(world, world.rank + 1) == n * (n + 1) // 2
    assert ghostwire.allreduce(world, float(world.rank), "max") == float(n - 1)
    values = numpy.array([world.rank, -world.rank, 5], dtype=numpy.int64)
    out = ghostwire.allreduce(world, values, "min")
    assert out is values  # in place
    assert values.tolist() == [0, -(n - 1), 5]
    doubles = numpy.full(4, 0.5)
    ghostwire.allreduce(world, doubles)
    assert doubles.tolist() == [0.5 * n] * 4


def test_placement_gives_every_rank_one_block(world):
    for placement in ["automatic", "rank_order", "hierarchical"]:
        with ghostwire.Grid(world, (16, 12), placement=placement) as grid:
            positions = {grid.position(r) for r in range(world.size)}
            assert len(positions) == world.size
            assert grid.position() == grid.position(world.rank)
            team = grid.team
            assert grid.offset == tuple(p * ((e + t - 1) // t) for p, e, t in zip(grid.position(), grid.shape, team))
    with ghostwire.Grid(world, (16, 12), placement="rank_order") as grid:
        team = grid.team
        assert grid.position(world.rank) == (world.rank // team[1], world.rank % team[1])
