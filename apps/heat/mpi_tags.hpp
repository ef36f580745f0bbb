// SPDX-License-Identifier: BSD-3-Clause
// Message tags of the MPI variants: one per column block, so a message names the part of the halo
// row it fills. Tags wrap at MPI_TAG_UB (32767 may be all an MPI offers): that stays correct
// because messages between two ranks are matched in the order they were sent, and every variant
// sends and posts the column blocks of a sweep in the same ascending order.
//
// See docs/heat.md, "The variants".
#pragma once

#include <mpi.h>

namespace heat {

class ColumnBlockTags {
 public:
  explicit ColumnBlockTags(MPI_Comm comm) {
    int* upper_bound = nullptr;
    int found = 0;
    MPI_Comm_get_attr(comm, MPI_TAG_UB, &upper_bound, &found);
    if (found && upper_bound != nullptr) tag_count_ = static_cast<long long>(*upper_bound) + 1;
  }
  int operator()(int column_block) const { return static_cast<int>(column_block % tag_count_); }
  // How many distinct tags there are (MPI_TAG_UB + 1).
  long long count() const { return tag_count_; }

 private:
  long long tag_count_ = 32768;  // the least MPI_TAG_UB the standard allows, plus one
};

}  // namespace heat
