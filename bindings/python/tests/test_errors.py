# SPDX-License-Identifier: BSD-3-Clause
"""Bad input is refused with ghostwire.Error, its Errc and a message naming what is wrong; nothing
is read or written through a wrong dtype, shape or layout."""
import numpy
import pytest

import ghostwire


def refused(code, fragment, call, *args, **kwargs):
    with pytest.raises(ghostwire.Error) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code
    assert fragment in str(caught.value), str(caught.value)
    return caught.value


def test_error_is_a_runtime_error_with_a_code():
    assert issubclass(ghostwire.Error, RuntimeError)
    assert issubclass(ghostwire.TimeoutError, ghostwire.Error)
    assert int(ghostwire.Errc.invalid_argument) == 1


@pytest.mark.parametrize("dtype,name", [(numpy.complex128, "complex128"), (numpy.int16, "int16"),
                                        (numpy.uint64, "uint64"), (bool, "bool"), ("float16", "float16")])
def test_grid_refuses_unsupported_dtypes(world, dtype, name):
    refused(ghostwire.Errc.invalid_argument, f"dtype {name} is not supported", ghostwire.Grid, world, (4, 4),
            dtype=dtype)


def test_grid_refuses_bad_shapes_halos_and_options(world):
    invalid = ghostwire.Errc.invalid_argument
    refused(invalid, "expected 1, 2 or 3", ghostwire.Grid, world, (2, 2, 2, 2))
    refused(invalid, "expected 1, 2 or 3", ghostwire.Grid, world, ())
    refused(invalid, "at least 1", ghostwire.Grid, world, (4, 0))
    refused(invalid, "shape must be a tuple", ghostwire.Grid, world, 16)
    refused(invalid, "halo has 3 values for a 2-d grid", ghostwire.Grid, world, (4, 4), halo=(1, 1, 1))
    refused(invalid, "must not be negative", ghostwire.Grid, world, (4, 4), halo=-1)
    refused(invalid, "periodic has 1 values", ghostwire.Grid, world, (4, 4), periodic=(True,))
    refused(invalid, "stencil 'star'", ghostwire.Grid, world, (4, 4), stencil="star")
    refused(invalid, "not a numpy dtype", ghostwire.Grid, world, (4, 4), dtype="no-such-type")
    with pytest.raises(ghostwire.Error):
        ghostwire.Grid(world, (4, 4), placement="diagonal")


def test_allreduce_refuses_wrong_arrays(world):
    invalid = ghostwire.Errc.invalid_argument
    refused(invalid, "float32 is not supported", ghostwire.allreduce, world, numpy.zeros(4, numpy.float32))
    refused(invalid, "int32 is not supported", ghostwire.allreduce, world, numpy.zeros(4, numpy.int32))
    strided = numpy.zeros(8)[::2]
    refused(invalid, "not C-contiguous", ghostwire.allreduce, world, strided)
    refused(invalid, "not C-contiguous", ghostwire.allreduce, world, numpy.zeros((3, 4)).T)
    frozen = numpy.zeros(3)
    frozen.flags.writeable = False
    refused(invalid, "read-only", ghostwire.allreduce, world, frozen)
    refused(invalid, "op 'avg'", ghostwire.allreduce, world, 1.0, "avg")
    refused(invalid, "expected a float, an int or a numpy array", ghostwire.allreduce, world, "1")
    refused(invalid, "must be a ghostwire.World", ghostwire.allreduce, None, 1.0)


def test_plan_refuses_wrong_arrays_and_indices(world):
    plan = ghostwire.Plan(world, [world.rank])
    invalid = ghostwire.Errc.invalid_argument
    refused(invalid, "not C-contiguous", plan.add_send, 0, world.rank, numpy.zeros(10)[::2], [0])
    refused(invalid, "dtype complex64 is not supported", plan.add_send, 0, world.rank,
            numpy.zeros(4, numpy.complex64), [0])
    refused(invalid, "expected a numpy array", plan.add_receive, 0, world.rank, [1.0, 2.0], [0])
    refused(ghostwire.Errc.out_of_range, "index 4 is outside 0..3", plan.add_send, 0, world.rank, numpy.zeros(4), [4])
    plan.close()


def test_closed_objects_refuse_use(world):
    grid = ghostwire.Grid(world, (4, 4))
    grid.close()
    assert grid.closed
    refused(ghostwire.Errc.state, "used after close()", grid.update_halo)
    refused(ghostwire.Errc.state, "used after close()", lambda: grid.local)
    grid.close()  # twice is fine


def test_a_world_in_use_is_not_closed(world):
    grid = ghostwire.Grid(world, (4, 4))
    refused(ghostwire.Errc.state, "still use this world", world.close)
    assert not world.closed
    grid.close()


def test_library_errors_keep_their_message_and_code(world):
    """An error raised inside the C++ library (not the binding's checks) comes through unchanged."""
    plan = ghostwire.Plan(world, [world.rank])
    plan.commit()
    refused(ghostwire.Errc.state, "committed", plan.add_send, 0, world.rank, numpy.zeros(2), [0])
    with pytest.raises(ghostwire.Error) as caught:
        plan.send(0, world.size + 7)
    assert caught.value.code in (ghostwire.Errc.out_of_range, ghostwire.Errc.invalid_argument)
    plan.close()
