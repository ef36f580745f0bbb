// SPDX-License-Identifier: BSD-3-Clause
// mpi-alltoallw: MPI's own answer to halo exchange, a neighbourhood collective. A distributed
// graph communicator (MPI_Dist_graph_create_adjacent, no reordering) and one derived datatype per
// neighbour and direction are built once; MPI_Neighbor_alltoallw then moves every message straight
// between the arrays, with no packing in our code: boxes are vectors of rows (hvectors of those in
// 3-D), index lists are MPI_Type_create_indexed_block, contiguous runs MPI_Type_contiguous.
//
// The send and receive regions are disjoint parts of one array, but MPI forbids passing the same
// buffer as input and output, so receives are addressed from MPI_BOTTOM with absolute addresses.
//
// Reverse (--reverse): a collective cannot add into the owned elements, so the graph is built the
// other way round, the ghost regions go back with the receive datatypes (from MPI_BOTTOM), land one
// neighbour after another in a scratch area (reverse_buffers.hpp; its packing storage unused), and
// the owner adds them in (neighbour, tag) order.
#include <mpi.h>

#include <climits>
#include <memory>
#include <stdexcept>

#include "../mpi_call.hpp"
#include "exchanger.hpp"
#include "reverse_buffers.hpp"

namespace gwbench::halo {
namespace {

using ghostwire::Layout;

int as_int(std::size_t value, const char* what) {
  if (value > static_cast<std::size_t>(INT_MAX)) throw std::runtime_error(std::string("mpi-alltoallw: ") + what + " exceeds INT_MAX");
  return static_cast<int>(value);
}

// A committed-to-be datatype for the doubles of `layout`, starting at byte `displacement` of the array.
MPI_Datatype datatype_of(const Layout& layout, MPI_Aint& displacement) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  if (layout.kind() == Layout::Kind::box) {
    displacement = static_cast<MPI_Aint>(layout.start() * sizeof(double));
    const int e0 = as_int(layout.extent(0), "a box extent"), e1 = as_int(layout.extent(1), "a box extent");
    MPI_Datatype plane = MPI_DATATYPE_NULL;
    if (layout.stride(0) == 1) {
      mpi_call(MPI_Type_vector(e1, e0, static_cast<int>(layout.stride(1)), MPI_DOUBLE, &plane), "MPI_Type_vector");
    } else {
      MPI_Datatype row;
      mpi_call(MPI_Type_vector(e0, 1, static_cast<int>(layout.stride(0)), MPI_DOUBLE, &row), "MPI_Type_vector");
      mpi_call(MPI_Type_create_hvector(e1, 1, static_cast<MPI_Aint>(layout.stride(1) * 8), row, &plane),
               "MPI_Type_create_hvector");
      MPI_Type_free(&row);
    }
    if (layout.dimensions() < 3 || layout.extent(2) == 1) return plane;
    mpi_call(MPI_Type_create_hvector(as_int(layout.extent(2), "a box extent"), 1,
                                     static_cast<MPI_Aint>(layout.stride(2) * 8), plane, &type),
             "MPI_Type_create_hvector");
    MPI_Type_free(&plane);
    return type;
  }
  displacement = static_cast<MPI_Aint>(layout.lowest() * sizeof(double));
  std::vector<int> starts, lengths;
  layout.for_each_run([&](std::size_t first, std::size_t count) {
    starts.push_back(as_int(first - layout.lowest(), "an element index"));
    lengths.push_back(as_int(count, "a run"));
  });
  if (starts.size() == 1) {
    mpi_call(MPI_Type_contiguous(lengths[0], MPI_DOUBLE, &type), "MPI_Type_contiguous");
  } else if (layout.kind() == Layout::Kind::indices) {
    // One element per block, as an unstructured mesh's index list is.
    std::vector<int> elements;
    for (std::size_t r = 0; r < starts.size(); ++r)
      for (int k = 0; k < lengths[r]; ++k) elements.push_back(starts[r] + k);
    mpi_call(MPI_Type_create_indexed_block(static_cast<int>(elements.size()), 1, elements.data(), MPI_DOUBLE, &type),
             "MPI_Type_create_indexed_block");
  } else {
    mpi_call(MPI_Type_indexed(static_cast<int>(starts.size()), lengths.data(), starts.data(), MPI_DOUBLE, &type),
             "MPI_Type_indexed");
  }
  return type;
}

// One datatype per neighbour for all its messages (sorted by neighbour, then tag, on both sides):
// the message's own type when there is one, else a struct of them.
template <class Messages>
void per_neighbour(const Messages& messages, std::vector<int>& ranks, std::vector<MPI_Datatype>& types,
                   std::vector<MPI_Aint>& displacements) {
  for (std::size_t i = 0; i < messages.size();) {
    std::size_t end = i;
    std::vector<MPI_Datatype> parts;
    std::vector<MPI_Aint> offsets;
    while (end < messages.size() && messages[end].neighbour == messages[i].neighbour) {
      MPI_Aint offset = 0;
      parts.push_back(datatype_of(messages[end].layout, offset));
      offsets.push_back(offset);
      ++end;
    }
    MPI_Datatype type = parts[0];
    MPI_Aint displacement = offsets[0];
    if (parts.size() > 1) {
      std::vector<int> ones(parts.size(), 1);
      mpi_call(MPI_Type_create_struct(static_cast<int>(parts.size()), ones.data(), offsets.data(), parts.data(), &type),
               "MPI_Type_create_struct");
      for (MPI_Datatype& part : parts) MPI_Type_free(&part);
      displacement = 0;
    }
    mpi_call(MPI_Type_commit(&type), "MPI_Type_commit");
    ranks.push_back(messages[i].neighbour);
    types.push_back(type);
    displacements.push_back(displacement);
    i = end;
  }
}

MPI_Comm make_graph(const std::vector<int>& sources, const std::vector<int>& destinations) {
  MPI_Comm graph = MPI_COMM_NULL;
  int unused = 0;
  mpi_call(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(sources.size()),
                                          sources.empty() ? &unused : sources.data(), MPI_UNWEIGHTED,
                                          static_cast<int>(destinations.size()),
                                          destinations.empty() ? &unused : destinations.data(), MPI_UNWEIGHTED,
                                          MPI_INFO_NULL, 0, &graph),
           "MPI_Dist_graph_create_adjacent");
  MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN);
  return graph;
}

// Where the reverse messages of each forward destination land in the scratch, and how many doubles.
struct ScratchSlices {
  double* base = nullptr;
  std::vector<int> counts;
  std::vector<MPI_Aint> displacements;  // bytes from base
  std::vector<MPI_Datatype> types;      // MPI_DOUBLE each
};

ScratchSlices scratch_slices(const ReverseBuffers& reverse) {
  static double unused = 0;
  ScratchSlices s;
  const auto& messages = reverse.receives();
  s.base = messages.empty() ? &unused : messages[0].data;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (i == 0 || messages[i].neighbour != messages[i - 1].neighbour) {
      s.counts.push_back(0);
      s.displacements.push_back(static_cast<MPI_Aint>((messages[i].data - s.base) * sizeof(double)));
      s.types.push_back(MPI_DOUBLE);
    }
    s.counts.back() += messages[i].count;
  }
  return s;
}

class MpiAlltoallwExchanger final : public Exchanger {
 public:
  explicit MpiAlltoallwExchanger(const ExchangerSetup& setup)
      : field_(reinterpret_cast<double*>(setup.shared_field.data())) {
    std::vector<int> sources, destinations;
    per_neighbour(setup.halo_case.sends, destinations, send_types_, send_displacements_);
    per_neighbour(setup.halo_case.receives, sources, receive_types_, receive_displacements_);
    MPI_Aint base = 0;
    mpi_call(MPI_Get_address(field_, &base), "MPI_Get_address");
    for (MPI_Aint& d : receive_displacements_) d = MPI_Aint_add(base, d);
    send_counts_.assign(send_types_.size(), 1);
    receive_counts_.assign(receive_types_.size(), 1);
    if (setup.direction == Direction::reverse) {
      reverse_ = std::make_unique<ReverseBuffers>(setup.halo_case, field_);
      scratch_ = scratch_slices(*reverse_);
      graph_ = make_graph(destinations, sources);
    } else {
      graph_ = make_graph(sources, destinations);
    }
  }
  ~MpiAlltoallwExchanger() override {
    for (MPI_Datatype& t : send_types_) MPI_Type_free(&t);
    for (MPI_Datatype& t : receive_types_) MPI_Type_free(&t);
    MPI_Comm_free(&graph_);
  }

  double* field() override { return field_; }

  void exchange() override {
    mpi_call(MPI_Neighbor_alltoallw(field_, send_counts_.data(), send_displacements_.data(), send_types_.data(),
                                    MPI_BOTTOM, receive_counts_.data(), receive_displacements_.data(),
                                    receive_types_.data(), graph_),
             "MPI_Neighbor_alltoallw");
  }

  void reverse_sum() override {
    mpi_call(MPI_Neighbor_alltoallw(MPI_BOTTOM, receive_counts_.data(), receive_displacements_.data(),
                                    receive_types_.data(), scratch_.base, scratch_.counts.data(),
                                    scratch_.displacements.data(), scratch_.types.data(), graph_),
             "MPI_Neighbor_alltoallw");
    reverse_->add();
  }

 private:
  double* field_;
  MPI_Comm graph_ = MPI_COMM_NULL;
  std::vector<int> send_counts_, receive_counts_;
  std::vector<MPI_Aint> send_displacements_, receive_displacements_;
  std::vector<MPI_Datatype> send_types_, receive_types_;
  std::unique_ptr<ReverseBuffers> reverse_;  // --reverse only
  ScratchSlices scratch_;
};

}  // namespace

std::unique_ptr<Exchanger> make_mpi_alltoallw_exchanger(const ExchangerSetup& setup) {
  return std::make_unique<MpiAlltoallwExchanger>(setup);
}

}  // namespace gwbench::halo
