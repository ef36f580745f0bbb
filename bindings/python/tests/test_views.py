# SPDX-License-Identifier: BSD-3-Clause
"""A Grid's numpy views never outlive its memory (docs/python.md, "How it works"; the Python case of
the misuse catalogue, docs/runtime.md): close() is refused on every rank alike while any rank has a
view alive (or an array made from one), and the views keep showing the grid's memory meanwhile. A
close() that went ahead would make the pytest.raises below fail, and the writes through the old
views after it would go to freed memory."""
import numpy
import pytest

import ghostwire


def refused_close(grid, here, everywhere):
    with pytest.raises(ghostwire.Error) as caught:
        grid.close()
    message = str(caught.value)
    assert caught.value.code == ghostwire.Errc.state, message
    assert (f"Grid.close: {here} numpy view(s) of this grid are alive on this rank ({everywhere} on all ranks)"
            in message), message
    assert "del them" in message, message
    assert not grid.closed


def test_close_is_refused_while_views_are_alive(world):
    grid = ghostwire.Grid(world, (8, 6), halo=1, periodic=True)
    local, interior = grid.local, grid.interior
    refused_close(grid, 2, 2 * world.size)
    interior[...] = world.rank + 1.0  # still the grid's memory: a new view and an update see it
    assert (grid.interior == world.rank + 1.0).all()
    grid.update_halo()
    faces = numpy.concatenate([local[0, 1:-1], local[-1, 1:-1], local[1:-1, 0], local[1:-1, -1]])
    assert ((faces >= 1.0) & (faces <= world.size)).all()  # every face ghost filled from some rank's block
    del local
    refused_close(grid, 1, world.size)
    del interior
    grid.close()
    assert grid.closed


def test_arrays_made_from_a_view_count_as_views(world):
    grid = ghostwire.Grid(world, (8, 6), halo=1)
    inner = grid.local[1:-1, 1:-1]  # the view it was sliced from is gone already
    column = inner.T[0].reshape(-1, 1)
    del inner
    refused_close(grid, 1, world.size)
    column[...] = 3.0
    assert grid.interior[:, 0].tolist() == [3.0] * grid.local_shape[0]
    del column
    grid.close()


def test_every_rank_refuses_when_one_rank_keeps_a_view(world):
    grid = ghostwire.Grid(world, (8, 6))
    last = world.rank == world.size - 1
    kept = grid.interior if last else None
    refused_close(grid, 1 if last else 0, 1)
    del kept
    grid.close()


def test_a_with_block_that_keeps_a_view_leaves_the_grid_open(world):
    with pytest.raises(ghostwire.Error) as caught:
        with ghostwire.Grid(world, (4, 4)) as grid:
            view = grid.local
    assert "numpy view(s) of this grid are alive" in str(caught.value)
    assert not grid.closed
    view[...] = 1.0
    assert grid.sum() == 16.0
    del view
    grid.close()


def test_close_is_refused_while_an_update_is_under_way(world):
    grid = ghostwire.Grid(world, (8, 8), periodic=True)
    handle = grid.update_halo_async()
    with pytest.raises(ghostwire.Error) as caught:
        grid.close()
    assert caught.value.code == ghostwire.Errc.state
    assert f"update_halo_async() is not waited for (1 on this rank, {world.size} on all ranks)" in str(caught.value)
    handle.wait()
    grid.close()


def test_a_views_base_names_its_grid(world):
    with ghostwire.Grid(world, (4, 4)) as grid:
        view = grid.local
        assert isinstance(view.base, ghostwire._ghostwire.ViewBase)
        assert view.base.owner is grid
        assert repr(view.base) == "<ghostwire.ViewBase of <ghostwire.Grid 4 x 4 float64>>"
        del view


def test_unstructured_plan_close_is_refused_while_views_are_alive(world):
    right = (world.rank + 1) % world.size
    plan = ghostwire.UnstructuredPlan(world, 4, [right, right], [3, 0])
    owned, ghosts = plan.owned, plan.ghosts
    owned[:] = numpy.arange(4) + 10 * world.rank
    with pytest.raises(ghostwire.Error) as caught:
        plan.close()
    message = str(caught.value)
    assert caught.value.code == ghostwire.Errc.state, message
    assert ("UnstructuredPlan.close: 2 numpy view(s) of this plan are alive on this rank "
            f"({2 * world.size} on all ranks)") in message, message
    assert not plan.closed
    plan.exchange()  # the views are still the plan's memory
    assert ghosts.tolist() == [10 * right + 3, 10 * right]
    del owned, ghosts
    plan.close()
    assert plan.closed
