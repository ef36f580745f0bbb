// SPDX-License-Identifier: BSD-3-Clause
// What the MPI-shaped neighbourhood exchange (neighbor_c.cpp) reads from MPI: a communicator's
// neighbours and which plan channel each edge travels on, and whether a datatype is contiguous.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace ghostwire::capi {

// A failure carrying the MPI error class the GW_ call returns.
class MpiError : public std::runtime_error {
 public:
  MpiError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

// Edges in MPI's order (the index of sendcounts/recvcounts), MPI_PROC_NULL where MPI has one. Edge i
// to destinations[i] travels on channel send_channel[i]; edge i from sources[i] on receive_channel[i].
struct Neighbourhood {
  std::vector<int> sources, destinations;
  std::vector<std::size_t> receive_channel, send_channel;
  std::size_t channels = 1;
  bool cartesian = false;
  std::vector<int> ranks;  // every rank that is a source or a destination, once: the plan's neighbours
};

// Collective over comm (the channel count is agreed). MPI_ERR_TOPOLOGY without a topology.
Neighbourhood neighbourhood_of(MPI_Comm comm);

// How the plan's channels map to MPI's blocks, for messages that name channels.
std::string channel_legend(const Neighbourhood& n);

// Bytes of one element of `type`, which must be contiguous (predefined, or MPI_Type_contiguous /
// MPI_Type_dup of contiguous types, size == extent, no lower bound); MPI_ERR_TYPE naming `what`
// otherwise.
std::size_t contiguous_size(MPI_Datatype type, const char* what);

void check_mpi_call(int rc, const char* call);

}  // namespace ghostwire::capi
