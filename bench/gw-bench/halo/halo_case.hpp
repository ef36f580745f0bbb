// SPDX-License-Identifier: BSD-3-Clause
// A halo-exchange case as every implementation of `gw-bench halo` sees it: this rank's array of
// doubles (owned and ghost elements), the messages it sends and receives (which elements, to and
// from which rank), and the value every element must hold after an exchange, so that any
// implementation can be verified the same way.
//
// Cases: "2d-N-hH" (N^2 doubles, halo width H, faces), "3d-N-7pt" / "3d-N-27pt" (N^3 doubles, halo 1,
// faces / faces+edges+corners), all non-periodic with a block decomposition from MPI_Dims_create;
// "unstructured" (a k-nearest-neighbour graph of a random point cloud partitioned by METIS).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ghostwire/layout.hpp"
#include "ghostwire/plan.hpp"

namespace gwbench::halo {

// One message from or to `neighbour`. `tag` tells the messages of one pair of ranks apart and is
// the same on both sides (for grids: the direction of travel, 0..26).
struct Message {
  int neighbour = -1;
  int tag = 0;
  ghostwire::Layout layout;  // elements of my array, in message order
};

// A receive also says where its elements sit in the sender's array (the raw floor reads them there).
struct Receive : Message {
  ghostwire::Layout source;  // elements of the neighbour's array, in message order
};

// A grid case's decomposition, for implementations that describe the grid themselves (ga): the
// global grid is size^dimensions, split into blocks over procs (x first, the fastest axis of the
// array and of the rank order), each stored with `halo` ghost layers on every side.
struct GridShape {
  int dimensions = 0;  // 0: not a grid case
  int size = 0, halo = 0;
  bool corners = false;
  std::array<int, 3> procs{1, 1, 1};
};

struct HaloCase {
  std::string name;         // "2d-512-h1"
  std::string description;  // "512^2 doubles on 2x1 ranks, halo 1, faces"
  std::size_t elements = 0;         // this rank's array: owned and ghost doubles
  std::int64_t global_elements = 0; // owned elements of all ranks; values encode id + epoch * this
  // Per element of my array: the global id of the value it holds after an exchange (owned: its own
  // id; ghost: the id of the neighbour's element it mirrors), or -1 for a ghost nobody fills.
  std::vector<std::int64_t> ids;
  std::vector<std::uint8_t> ghost;  // per element: 1 for ghost elements
  std::vector<Message> sends;       // sorted by (neighbour, tag)
  std::vector<Receive> receives;    // sorted by (neighbour, tag)
  GridShape grid;                   // grid cases

  // Unstructured cases: owned elements come first, ghosts after; ghostwire builds its plan from
  // this map with make_unstructured_plan instead of from the message lists.
  bool unstructured = false;
  std::size_t owned_elements = 0;
  ghostwire::GhostMap ghost_map;

  std::vector<int> neighbours() const;  // distinct ranks of sends and receives, ascending
  std::size_t receive_elements() const;
};

// What a name in --cases asks for; parsed before MPI starts.
struct CaseSpec {
  enum class Kind { grid2d, grid3d, unstructured } kind = Kind::grid2d;
  std::string name;
  int size = 0;         // N
  int halo = 1;         // grids
  bool corners = false; // 27-point
};

std::vector<std::string> default_case_names();
// Throws UsageError naming the bad entry.
CaseSpec parse_case(const std::string& name);

struct PointCloudOptions {
  long points_per_rank = 50'000;
  int neighbours = 8;  // k of the k-nearest-neighbour graph
};

// Collective over MPI_COMM_WORLD. Throws UsageError when the case does not fit the job (a block
// thinner than the halo).
HaloCase make_grid_case(const CaseSpec& spec, int rank, int size);
HaloCase make_point_cloud_case(const CaseSpec& spec, const PointCloudOptions& options, int rank, int size);
bool point_cloud_available();  // built with METIS

}  // namespace gwbench::halo
