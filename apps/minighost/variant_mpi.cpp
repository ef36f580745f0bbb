// SPDX-License-Identifier: BSD-3-Clause
// The plain-MPI baseline ghostwire is measured against, written the way a careful MPI programmer
// writes a halo exchange (and the way the reference does it):
//
// - buffers are allocated once; receives are posted before anything is packed, so no message
//   waits for its receive;
// - each neighbour's buffer is packed and sent at once, before the next is packed, so packing
//   overlaps the sends already in flight;
// - received buffers are unpacked in arrival order (MPI_Waitany), overlapping unpacking with the
//   messages still arriving;
// - BSPMA packs all variables into one message per neighbour; SVAF exchanges one variable at a
//   time with the same code and buffers sized for one variable.
// Diagonal stencils exchange x, then y, then z (halo_boxes.hpp), one round of messages per axis.
//
// See docs/minighost.md, "The MPI baseline".
#include <array>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "halo_boxes.hpp"
#include "heap_variables.hpp"
#include "variant.hpp"

namespace minighost {
namespace {

class MpiVariant final : public Variant {
 public:
  explicit MpiVariant(const VariantSetup& setup)
      : variables_(setup.decomposition->block(), setup.num_vars), all_variables_(setup.num_vars) {
    MPI_Comm_dup(setup.comm, &comm_);
    std::iota(all_variables_.begin(), all_variables_.end(), 0);
    // BSPMA messages carry every variable, SVAF messages one.
    variables_per_message_ = setup.comm_method == CommMethod::bspma ? setup.num_vars : 1;
    std::size_t most_links = 0;
    for (HaloPhase& phase : halo_phases(*setup.decomposition, setup.halo_shape)) {
      std::vector<Channel> channels;
      for (HaloLink& link : phase) {
        Channel c{link, {}, {}, tag(link.axis, link.side), tag(link.axis, opposite(link.side))};
        c.send_buffer.resize(link.send.cells() * static_cast<std::size_t>(variables_per_message_));
        c.receive_buffer.resize(link.receive.cells() * static_cast<std::size_t>(variables_per_message_));
        channels.push_back(std::move(c));
      }
      most_links = std::max(most_links, channels.size());
      phases_.push_back(std::move(channels));
    }
    receives_.resize(most_links);
    sends_.resize(most_links);
  }

  ~MpiVariant() override { MPI_Comm_free(&comm_); }

  FieldView variable(int variable) override { return variables_.view(variable); }

  void exchange_all_variables() override { exchange(all_variables_); }

  void exchange_variable(int variable) override {
    const int one[1] = {variable};
    exchange(one);
  }

 private:
  struct Channel {
    HaloLink link;
    std::vector<double> send_buffer;
    std::vector<double> receive_buffer;
    int send_tag;
    int receive_tag;
  };

  static Side opposite(Side side) { return side == Side::low ? Side::high : Side::low; }
  // Messages are tagged with the axis and the direction they travel; the receiver's link on the
  // opposite side expects the same tag. Distinct per phase and neighbour, so no message can match
  // the wrong receive even if two neighbours are the same rank.
  static int tag(Axis axis, Side towards) { return 2 * axis + (towards == Side::high ? 1 : 0); }

  void exchange(std::span<const int> variables) {
    if (static_cast<int>(variables.size()) > variables_per_message_) {
      throw std::logic_error("MpiVariant: exchange of " + std::to_string(variables.size()) +
                             " variables with buffers for " + std::to_string(variables_per_message_) +
                             " (BSPMA exchanges all variables, SVAF one)");
    }
    for (std::vector<Channel>& phase : phases_) {
      const int links = static_cast<int>(phase.size());
      for (int l = 0; l < links; ++l) {
        Channel& c = phase[l];
        MPI_Irecv(c.receive_buffer.data(), static_cast<int>(c.link.receive.cells() * variables.size()), MPI_DOUBLE,
                  c.link.neighbour, c.receive_tag, comm_, &receives_[l]);
      }
      for (int l = 0; l < links; ++l) {
        Channel& c = phase[l];
        double* next = c.send_buffer.data();
        for (int v : variables) next += pack_box(variables_.view(v), c.link.send, next);
        MPI_Isend(c.send_buffer.data(), static_cast<int>(next - c.send_buffer.data()), MPI_DOUBLE, c.link.neighbour,
                  c.send_tag, comm_, &sends_[l]);
      }
      for (int arrived = 0; arrived < links; ++arrived) {
        int l = MPI_UNDEFINED;
        MPI_Waitany(links, receives_.data(), &l, MPI_STATUS_IGNORE);
        const Channel& c = phase[l];
        const double* next = c.receive_buffer.data();
        for (int v : variables) next += unpack_box(variables_.view(v), c.link.receive, next);
      }
      // The next phase (or exchange) packs into the same buffers.
      MPI_Waitall(links, sends_.data(), MPI_STATUSES_IGNORE);
    }
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  HeapVariables variables_;
  std::vector<int> all_variables_;
  int variables_per_message_ = 1;
  std::vector<std::vector<Channel>> phases_;
  std::vector<MPI_Request> receives_;
  std::vector<MPI_Request> sends_;
};

std::unique_ptr<Variant> make(const VariantSetup& setup) { return std::make_unique<MpiVariant>(setup); }

const VariantRegistration registration{"mpi", "plain MPI: Irecv/Isend of packed faces, the baseline", make};

}  // namespace
}  // namespace minighost
