// SPDX-License-Identifier: BSD-3-Clause
// Plan.add_send / add_receive with a numpy index instead of an index list: numpy.s_[1:-1, 0] (a
// column of a 2-D array), numpy.s_[0, 1:-1] (a row), numpy.s_[..., -2] select a strided box of the
// array, which the plan sends as one Layout::box without listing its elements.
#pragma once

#include <optional>

#include "common.hpp"
#include "ghostwire/layout.hpp"

namespace ghostwire::python {

// Whether `indices` selects a box: a slice, an Ellipsis, a single integer, or a tuple with at least
// one slice or Ellipsis among integers. A list, a numpy integer array or a tuple of integers only
// is a flat index list.
bool is_box_index(const py::handle& indices);

// The box that array[indices] selects (basic numpy indexing: integers and slices, steps and
// negative indices included), in elements of the C-contiguous `array`. Error(invalid_argument) or
// Error(out_of_range) naming `what` and the dimension when numpy would refuse the index too, or when
// the box has more than 3 dimensions of more than one element.
Layout box_of(const py::handle& indices, const py::array& array, const char* what);

}  // namespace ghostwire::python
