# SPDX-License-Identifier: BSD-3-Clause
"""Every ghost cell after update_halo() against the global index it must hold: a single stale or
misplaced ghost fails, on every dtype, 1 to 3 dimensions, open and periodic, faces and full."""
import itertools

import numpy
import pytest

import ghostwire
from conftest import encode, fill_encoded

SHAPES = {1: (29,), 2: (13, 10), 3: (7, 6, 5)}
DTYPES = [numpy.float64, numpy.float32, numpy.int32, numpy.int64]


def expected_local(grid):
    """What grid.local must hold after an update: the encoded global index of every cell the
    update fills, -1 where nothing is written (beyond open edges; edges and corners for faces)."""
    width = grid.halo
    out = numpy.full(grid.local.shape, -1, dtype=numpy.int64)
    for local in itertools.product(*(range(n) for n in grid.local.shape)):
        ghost_dims = 0
        g = []
        inside = True
        for d, l in enumerate(local):
            i = l - width[d]
            if i < 0 or i >= grid.local_shape[d]:
                ghost_dims += 1
            x = grid.offset[d] + i
            if x < 0 or x >= grid.shape[d]:
                if not grid.periodic[d]:
                    inside = False
                x %= grid.shape[d]
            g.append(x)
        if not inside or (grid.stencil == "faces" and ghost_dims > 1):
            continue
        out[local] = encode(g, grid.shape)
    return out


def check_ghosts(grid):
    got = grid.local.astype(numpy.int64)
    want = expected_local(grid)
    wrong = numpy.argwhere(got != want)
    assert wrong.size == 0, (f"{len(wrong)} wrong cells, first at local {tuple(wrong[0])}: "
                             f"{got[tuple(wrong[0])]} instead of {want[tuple(wrong[0])]}")


@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("periodic", [False, True])
@pytest.mark.parametrize("stencil", ["faces", "full"])
def test_every_ghost_holds_its_neighbours_cell(world, dims, dtype, periodic, stencil):
    with ghostwire.Grid(world, SHAPES[dims], halo=1, dtype=dtype, periodic=periodic, stencil=stencil) as grid:
        assert grid.local.dtype == numpy.dtype(dtype)
        fill_encoded(grid)
        grid.update_halo()
        check_ghosts(grid)


@pytest.mark.parametrize("dims", [2, 3])
def test_wide_and_uneven_halos(world, dims):
    halo = (2, 1, 1)[:dims]
    shape = (16, 9, 6)[:dims]
    with ghostwire.Grid(world, shape, halo=halo, dtype=numpy.int64, periodic=(True, False, True)[:dims],
                        stencil="full") as grid:
        assert grid.halo == halo
        fill_encoded(grid)
        grid.update_halo()
        check_ghosts(grid)


def test_async_update_fills_the_same_cells_and_repeats(world):
    with ghostwire.Grid(world, (12, 11), halo=1, dtype=numpy.float64, periodic=True, stencil="full") as grid:
        for step in range(3):
            fill_encoded(grid)
            grid.interior[...] += 0  # same values each step: stale ghosts from a step before would still show
            handle = grid.update_halo_async()
            assert handle.pending
            handle.wait()
            assert not handle.pending
            check_ghosts(grid)
            with grid.update_halo_async():
                pass
            check_ghosts(grid)


def test_changed_values_reach_the_ghosts(world):
    """Values change between updates: a ghost left from the first update fails the second check."""
    with ghostwire.Grid(world, (10, 10), halo=1, dtype=numpy.int64, periodic=True) as grid:
        fill_encoded(grid)
        grid.update_halo()
        grid.interior[...] *= 3
        grid.update_halo()
        want = expected_local(grid)
        want[want > 0] *= 3
        assert numpy.array_equal(grid.local, want)


def test_views_are_the_grids_memory(world):
    with ghostwire.Grid(world, (8, 8), halo=2) as grid:
        local, interior = grid.local, grid.interior
        assert local.shape == tuple(n + 4 for n in grid.local_shape)
        assert interior.shape == grid.local_shape
        assert numpy.shares_memory(local, interior)
        interior[0, 0] = 42.0
        assert local[2, 2] == 42.0
        assert grid.interior[0, 0] == 42.0  # a new view sees the write: no copy
        assert local.base.owner is grid and interior.base.owner is grid
        del local, interior  # close() is refused while views are alive (test_views.py)


def test_a_view_keeps_its_grid_alive(world):
    view = ghostwire.Grid(world, (6, 6), halo=1).interior
    view[...] = 7.0
    assert view.sum() == 7.0 * view.size
    owner = view.base.owner
    assert isinstance(owner, ghostwire.Grid) and not owner.closed
    del view
    owner.close()
