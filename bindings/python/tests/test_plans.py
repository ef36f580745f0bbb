# SPDX-License-Identifier: BSD-3-Clause
"""Index-list exchanges: every ghost must hold exactly the owner's value it names."""
import numpy
import pytest

import ghostwire


def owned_value(rank, index):
    return rank * 1000.0 + index + 0.5


def test_unstructured_plan_fetches_every_named_value(world):
    owned = 37 + 3 * world.rank  # ranks own different counts
    counts = [37 + 3 * r for r in range(world.size)]
    rng = numpy.random.default_rng(11 + world.rank)  # each rank its own ghosts, some repeated, some its own
    ghost_owner = rng.integers(0, world.size, 50)
    ghost_index = numpy.array([rng.integers(0, counts[o]) for o in ghost_owner])
    with ghostwire.UnstructuredPlan(world, owned, ghost_owner, ghost_index) as plan:
        assert plan.owned.shape == (owned,) and plan.ghosts.shape == (50,)
        for step in range(3):
            plan.owned[:] = [owned_value(world.rank, i) + step for i in range(owned)]
            plan.ghosts[:] = -1
            plan.exchange()
            want = [owned_value(o, i) + step for o, i in zip(ghost_owner, ghost_index)]
            assert plan.ghosts.tolist() == want


def test_unstructured_plan_of_int32(world):
    right = (world.rank + 1) % world.size
    with ghostwire.UnstructuredPlan(world, 4, [right, right], [3, 0], dtype=numpy.int32) as plan:
        plan.owned[:] = numpy.arange(4, dtype=numpy.int32) + 10 * world.rank
        plan.start()
        plan.finish()
        assert plan.ghosts.dtype == numpy.int32
        assert plan.ghosts.tolist() == [10 * right + 3, 10 * right]


def test_general_plan_ring_over_numpy_arrays(world):
    """Each rank sends scattered values to its right and left neighbours (channel 0: to the right,
    channel 1: to the left, so a ring of 2 does not mix them) and receives into scattered places."""
    n, rank = world.size, world.rank
    right, left = (rank + 1) % n, (rank - 1) % n
    neighbours = sorted({right, left})
    data = numpy.arange(20, dtype=numpy.float64) + 100 * rank
    ghosts = numpy.full(8, -1.0)
    plan = ghostwire.Plan(world, neighbours, channels=2)
    plan.add_send(0, right, data, [1, 5, 7]).add_send(1, left, data, [19, 0])
    plan.add_receive(0, left, ghosts, [6, 0, 2]).add_receive(1, right, ghosts, [1, 7])
    plan.commit()
    assert plan.committed
    for step in range(3):
        data += 1
        ghosts[:] = -1
        plan.exchange()
        base_left, base_right = 100 * left + step + 1, 100 * right + step + 1
        assert ghosts.tolist() == [base_left + 5, base_right + 19, base_left + 7, -1, -1, -1, base_left + 1,
                                   base_right + 0]
    plan.close()


def test_plan_follows_arrays_swapped_every_step(world):
    """rebind(old, new): the ring's data and ghosts alternate between two pairs of arrays; each step's
    ghosts land in that step's array and the other one is left as it was."""
    n, rank = world.size, world.rank
    right, left = (rank + 1) % n, (rank - 1) % n
    data = [numpy.zeros(20), numpy.zeros(20)]
    ghosts = [numpy.full(5, -1.0), numpy.full(5, -1.0)]
    plan = ghostwire.Plan(world, sorted({right, left}))
    plan.add_send(0, right, data[0], [1, 5, 7, 8, 9]).add_receive(0, left, ghosts[0], [4, 0, 2, 1, 3])
    plan.commit()
    for step in range(1, 5):
        now, other = step % 2, 1 - step % 2
        plan.rebind(data[other], data[now])  # the last step's arrays are the other ones
        plan.rebind(ghosts[other], ghosts[now])
        data[now][:] = numpy.arange(20) + 100 * rank + step
        ghosts[now][:] = -1
        ghosts[other][:] = -2
        plan.exchange()
        base = 100 * left + step
        assert ghosts[now].tolist() == [base + 5, base + 8, base + 7, base + 9, base + 1]
        assert ghosts[other].tolist() == [-2] * 5
    with pytest.raises(ghostwire.Error, match="Plan.rebind: the first array is not one the plan was given"):
        plan.rebind(numpy.zeros(20), data[0])
    with pytest.raises(ghostwire.Error, match="the second array has 19 elements, the first 20"):
        plan.rebind(data[0], numpy.zeros(19))
    plan.close()


def test_ring_combined_per_pair_of_nodes(world):
    """The ring's messages between nodes in one message per pair of nodes: a part misplaced in its
    combined message would put a wrong value in the ghosts."""
    n, rank = world.size, world.rank
    right, left = (rank + 1) % n, (rank - 1) % n
    data = numpy.arange(64, dtype=numpy.float64) + 1000 * rank
    ghosts = numpy.full(5, -1.0)
    with ghostwire.Plan(world, sorted({right, left}), channels=2) as plan:
        assert plan.aggregate("node") is plan
        plan.add_send(0, right, data, [3, 63, 0]).add_send(1, left, data, [5, 9])
        plan.add_receive(0, left, ghosts, [4, 0, 2]).add_receive(1, right, ghosts, [1, 3])
        plan.commit()
        if world.node_count > 1:
            assert "one message per pair of nodes" in plan.describe()
        for step in range(4):
            data += 1
            plan.exchange()
            l, r = 1000 * left + step + 1, 1000 * right + step + 1
            assert ghosts.tolist() == [l + 63, r + 5, l + 0, r + 9, l + 3]


def test_unstructured_plan_combined_per_pair_of_nodes(world):
    """Every rank takes two values from every rank, combined per pair of nodes or not: a part misplaced
    in its combined message would put a wrong value in the ghosts."""
    n = world.size
    owners = [q for q in range(n) for _ in range(2)]
    indices = [i for _ in range(n) for i in (2, 0)]
    for mode in ("node", "off"):
        with ghostwire.UnstructuredPlan(world, 3, owners, indices, aggregate=mode) as plan:
            assert ("one message per pair of nodes" in plan.describe()) == (mode == "node" and world.node_count > 1)
            for step in range(3):
                plan.owned[:] = [1000 * world.rank + 10 * step + k for k in range(3)]
                plan.exchange()
                assert plan.ghosts.tolist() == [1000 * q + 10 * step + i for q, i in zip(owners, indices)]
    with pytest.raises(ghostwire.Error, match="UnstructuredPlan: aggregate: mode 'always'"):
        ghostwire.UnstructuredPlan(world, 3, owners, indices, aggregate="always")


def test_aggregate_names_the_modes(world):
    with ghostwire.Plan(world, [world.rank], channels=1) as plan:
        with pytest.raises(ghostwire.Error, match="'auto', 'node', 'off'"):
            plan.aggregate("always")


def test_messages_as_boxes_of_numpy_arrays(world):
    """Messages given as numpy indices of the arrays (boxes): a strided column, a reversed row, a
    3-D block with a step, an Ellipsis, one element, an index list and a box on one array.
    Every ghost must hold exactly what numpy's own indexing of the left neighbour's array gives."""
    n, rank = world.size, world.rank
    right, left = (rank + 1) % n, (rank - 1) % n
    s = numpy.s_
    pieces = [  # (array, index sent to the right, index received from the left)
        ("2d", s[1:-1, 0], s[1:-1, -1]),       # a column into the last column
        ("2d", s[2, ::-1], s[0, :]),           # a row, reversed, into the first row
        ("3d", s[1:3, ::2, -1], s[0:2, 1:4, 0]),      # a 2 x 3 block with a step
        ("3d", s[..., 2], s[3, ::-1, 1:5]),    # an Ellipsis, into a block reversed along one dimension
        ("2d", s[-1, -1:], s[3, 3:4]),         # one element
        ("2d", [0, 7, 9], s[2, 2:5]),          # an index list, then a box, on one array
    ]

    def arrays(owner):
        return {"2d": numpy.arange(48.0).reshape(6, 8) + 1000 * owner,
                "3d": numpy.arange(120.0).reshape(4, 5, 6) + 1000 * owner}

    mine = arrays(rank)
    ghosts = {name: numpy.full(a.shape, -1.0) for name, a in mine.items()}
    with ghostwire.Plan(world, sorted({right, left}), channels=len(pieces)) as plan:
        for channel, (name, send, receive) in enumerate(pieces):
            plan.add_send(channel, right, mine[name], send)
            plan.add_receive(channel, left, ghosts[name], receive)
        plan.commit()
        for step in range(3):
            for a in mine.values():
                a += 1
            for g in ghosts.values():
                g[...] = -1
            plan.exchange()
            theirs = {name: a + step + 1 for name, a in arrays(left).items()}
            want = {name: numpy.full(a.shape, -1.0) for name, a in mine.items()}
            for name, send, receive in pieces:
                sent = theirs[name].ravel()[send] if isinstance(send, list) else theirs[name][send]
                want[name][receive] = numpy.reshape(sent, want[name][receive].shape)
            for name in mine:
                assert ghosts[name].tolist() == want[name].tolist(), name


def test_boxes_the_exchange_writes_in_place(world):
    """A box of a numpy array the program owns is read and written where it is: values changed
    after commit travel, and ghost cells are written into the array itself, not a copy."""
    right, left = (world.rank + 1) % world.size, (world.rank - 1) % world.size
    u = numpy.zeros((4, 6))
    with ghostwire.Plan(world, sorted({right, left}), channels=1) as plan:
        plan.add_send(0, right, u, numpy.s_[1:-1, -2]).add_receive(0, left, u, numpy.s_[1:-1, 0]).commit()
        u[1:-1, -2] = [10 * world.rank + 1, 10 * world.rank + 2]
        plan.exchange()
        assert u[1:-1, 0].tolist() == [10 * left + 1, 10 * left + 2]


def test_box_index_errors_name_the_index(world):
    """What numpy would refuse is refused, naming the index and the dimension; so is a box of more
    than 3 dimensions of more than one element."""
    a = numpy.zeros((6, 8))
    s = numpy.s_
    with ghostwire.Plan(world, [world.rank], channels=1) as plan:
        cases = [
            (s[1:-1, 0, 0], ghostwire.Errc.out_of_range, r"3 indices for an array of 2 dimension"),
            (s[6, :], ghostwire.Errc.out_of_range, r"dimension 0: index 6 is outside an extent of 6"),
            (s[:, -9], ghostwire.Errc.out_of_range, r"dimension 1: index -9 is outside an extent of 8"),
            (s[::0, 1], ghostwire.Errc.invalid_argument, r"dimension 0: slice step cannot be zero"),
            (s[[1, 2], 0:1], ghostwire.Errc.invalid_argument, r"dimension 0: expected an integer or a slice, got list"),
            (s[..., ..., 0], ghostwire.Errc.invalid_argument, r"one Ellipsis"),
        ]
        for index, code, message in cases:
            with pytest.raises(ghostwire.Error, match=message) as raised:
                plan.add_send(0, world.rank, a, index)
            assert raised.value.code == code
            assert "Plan.add_send: indices" in str(raised.value)
        with pytest.raises(ghostwire.Error, match="a box of 4 dimensions of more than one element; a plan's box"):
            plan.add_receive(0, world.rank, numpy.zeros((2, 2, 2, 2)), s[...])
        assert plan.add_send(0, world.rank, numpy.zeros((2, 1, 2, 2)), s[...]) is plan  # a dimension of 1 is no dimension
