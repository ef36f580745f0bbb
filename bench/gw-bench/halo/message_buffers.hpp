// SPDX-License-Identifier: BSD-3-Clause
// The messages of a case as the packing MPI implementations (mpi-isend, mpi-persistent, mpi-put)
// see them: for each message, the contiguous doubles MPI sends from or receives into, and the
// hand-written loop that packs or unpacks it. A message that is one contiguous run of the array
// (a row of a 2-D grid, an unstructured rank's ghosts from one owner) is sent or received in place,
// as a careful MPI programmer would.
#pragma once

#include <vector>

#include "copy_loop.hpp"
#include "halo_case.hpp"

namespace gwbench::halo {

struct PackedMessage {
  int neighbour = -1;
  int tag = 0;
  int count = 0;            // doubles
  double* data = nullptr;   // what MPI sends from or receives into
  bool in_place = false;    // data points into the array: no copy
  CopyLoop copy;            // sends: array -> data; receives: data -> array
};

class MessageBuffers {
 public:
  // `receive_area` (optional): receives land there, one after another, never in place (mpi-put's
  // window); it must hold case.receive_elements() doubles.
  MessageBuffers(const HaloCase& c, double* field, double* receive_area = nullptr);
  MessageBuffers(const MessageBuffers&) = delete;
  MessageBuffers& operator=(const MessageBuffers&) = delete;

  void pack(const PackedMessage& m) const {
    if (!m.in_place) m.copy.run(field_, m.data);
  }
  void pack() const {
    for (const PackedMessage& m : sends) pack(m);
  }
  void unpack(const PackedMessage& m) const {
    if (!m.in_place) m.copy.run(m.data, field_);
  }
  void unpack() const {
    for (const PackedMessage& m : receives) unpack(m);
  }

  std::vector<PackedMessage> sends, receives;

 private:
  double* field_;
  std::vector<double> storage_;
};

}  // namespace gwbench::halo
