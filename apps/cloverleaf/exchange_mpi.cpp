// SPDX-License-Identifier: BSD-3-Clause
// mpi: the reference's clover_exchange. Per face, each field of the call is packed into one buffer
// per neighbour (the field's `depth` columns next to the face, over every row including the ghost
// rows), sent with MPI_Isend/Irecv; left and right first, waited for and unpacked, then bottom and
// top, whose rows include the ghost columns just received, so corners arrive in two hops and no
// diagonal message is needed. Message sizes, tags and the buffer layout are the reference's.
//
// See docs/cloverleaf.md, "Exchange variants".
#include <array>
#include <vector>

#include "exchange.hpp"

namespace cloverleaf {
namespace {

class MpiExchange final : public Exchange {
 public:
  explicit MpiExchange(const ExchangeSetup& setup) : c_(setup.chunk), d_(setup.chunk.d) {
    MPI_Comm_dup(setup.comm, &comm_);
    const std::size_t side = static_cast<std::size_t>(field_count) * 2 * static_cast<std::size_t>(c_.ny + 5);
    const std::size_t level = static_cast<std::size_t>(field_count) * 2 * static_cast<std::size_t>(c_.nx + 5);
    for (Face f : {left, right}) send_[f].resize(side), receive_[f].resize(side);
    for (Face f : {bottom, top}) send_[f].resize(level), receive_[f].resize(level);
  }
  ~MpiExchange() override { MPI_Comm_free(&comm_); }

  void update_halo(FieldMask fields, int depth) override {
    // Each field's slice of a message: depth * (cells + 5) values, whatever the field's kind.
    std::array<std::size_t, field_count> side_offset{}, level_offset{};
    std::size_t side_size = 0, level_size = 0;
    fields.for_each([&](Field f) {
      side_offset[static_cast<std::size_t>(f)] = side_size;
      level_offset[static_cast<std::size_t>(f)] = level_size;
      side_size += static_cast<std::size_t>(depth * (c_.ny + 5));
      level_size += static_cast<std::size_t>(depth * (c_.nx + 5));
    });

    int count = 0;
    if (!d_.external(left)) {
      fields.for_each([&](Field f) { pack_side(f, depth, left, side_offset); });
      post(left, side_size, 1, 2, count);
    }
    if (!d_.external(right)) {
      fields.for_each([&](Field f) { pack_side(f, depth, right, side_offset); });
      post(right, side_size, 2, 1, count);
    }
    MPI_Waitall(count, requests_.data(), MPI_STATUSES_IGNORE);
    if (!d_.external(left)) fields.for_each([&](Field f) { unpack_side(f, depth, left, side_offset); });
    if (!d_.external(right)) fields.for_each([&](Field f) { unpack_side(f, depth, right, side_offset); });

    count = 0;
    if (!d_.external(bottom)) {
      fields.for_each([&](Field f) { pack_level(f, depth, bottom, level_offset); });
      post(bottom, level_size, 3, 4, count);
    }
    if (!d_.external(top)) {
      fields.for_each([&](Field f) { pack_level(f, depth, top, level_offset); });
      post(top, level_size, 4, 3, count);
    }
    MPI_Waitall(count, requests_.data(), MPI_STATUSES_IGNORE);
    if (!d_.external(top)) fields.for_each([&](Field f) { unpack_level(f, depth, top, level_offset); });
    if (!d_.external(bottom)) fields.for_each([&](Field f) { unpack_level(f, depth, bottom, level_offset); });
  }

  void barrier() override { MPI_Barrier(comm_); }
  void allgather(std::span<const double> mine, std::span<double> all) override { allgather_by_mpi(comm_, mine, all); }

 private:
  void post(Face face, std::size_t size, int send_tag, int receive_tag, int& count) {
    const int n = static_cast<int>(size);
    MPI_Isend(send_[face].data(), n, MPI_DOUBLE, d_.neighbour[face], send_tag, comm_, &requests_[static_cast<std::size_t>(count++)]);
    MPI_Irecv(receive_[face].data(), n, MPI_DOUBLE, d_.neighbour[face], receive_tag, comm_,
              &requests_[static_cast<std::size_t>(count++)]);
  }

  // Left and right: rows y_min-depth .. y_max+y_inc+depth, `depth` columns each, column fastest.
  void pack_side(Field f, int depth, Face face, const std::array<std::size_t, field_count>& offset) {
    const FieldKind kind = kind_of(f);
    const Rows g = rows(c_.field(f));
    double* buffer = send_[face].data() + offset[static_cast<std::size_t>(f)];
    const Index k0 = c_.y_min - depth, k1 = c_.y_max + y_extra(kind) + depth;
    // The columns sent: the first `depth` owned ones (past the low edge node of vertex and x-face
    // fields, which the neighbour has as its own high edge), or the last `depth` before the high edge.
    for (Index k = k0; k <= k1; ++k) {
      double* out = buffer + (k - k0) * depth;
      if (face == left)
        for (Index j = 1; j <= depth; ++j) out[j - 1] = g[k][c_.x_min + x_extra(kind) - 1 + j];
      else
        for (Index j = 1; j <= depth; ++j) out[j - 1] = g[k][c_.x_max + 1 - j];
    }
  }

  void unpack_side(Field f, int depth, Face face, const std::array<std::size_t, field_count>& offset) {
    const FieldKind kind = kind_of(f);
    const Rows g = rows(c_.field(f));
    const double* buffer = receive_[face].data() + offset[static_cast<std::size_t>(f)];
    const Index k0 = c_.y_min - depth, k1 = c_.y_max + y_extra(kind) + depth;
    for (Index k = k0; k <= k1; ++k) {
      const double* in = buffer + (k - k0) * depth;
      if (face == left)
        for (Index j = 1; j <= depth; ++j) g[k][c_.x_min - j] = in[j - 1];
      else
        for (Index j = 1; j <= depth; ++j) g[k][c_.x_max + x_extra(kind) + j] = in[j - 1];
    }
  }

  // Bottom and top: columns x_min-depth .. x_max+x_inc+depth (ghost columns included: the corners'
  // second hop), `depth` rows each, row fastest (the reference's layout).
  void pack_level(Field f, int depth, Face face, const std::array<std::size_t, field_count>& offset) {
    const FieldKind kind = kind_of(f);
    const Rows g = rows(c_.field(f));
    double* buffer = send_[face].data() + offset[static_cast<std::size_t>(f)];
    const Index j0 = c_.x_min - depth, j1 = c_.x_max + x_extra(kind) + depth;
    for (Index k = 1; k <= depth; ++k) {
      const double* row = face == bottom ? g[c_.y_min + y_extra(kind) - 1 + k] : g[c_.y_max + 1 - k];
      for (Index j = j0; j <= j1; ++j) buffer[(j - j0) * depth + (k - 1)] = row[j];
    }
  }

  void unpack_level(Field f, int depth, Face face, const std::array<std::size_t, field_count>& offset) {
    const FieldKind kind = kind_of(f);
    const Rows g = rows(c_.field(f));
    const double* buffer = receive_[face].data() + offset[static_cast<std::size_t>(f)];
    const Index j0 = c_.x_min - depth, j1 = c_.x_max + x_extra(kind) + depth;
    for (Index k = 1; k <= depth; ++k) {
      double* row = face == bottom ? g[c_.y_min - k] : g[c_.y_max + y_extra(kind) + k];
      for (Index j = j0; j <= j1; ++j) row[j] = buffer[(j - j0) * depth + (k - 1)];
    }
  }

  Chunk& c_;
  const Decomposition& d_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::array<std::vector<double>, 4> send_, receive_;
  std::array<MPI_Request, 4> requests_{};
};

std::unique_ptr<Exchange> make(const ExchangeSetup& setup) { return std::make_unique<MpiExchange>(setup); }

const ExchangeRegistration registration{"mpi", "the reference's clover_exchange: per-field packing, Isend/Irecv, "
                                               "left/right then bottom/top (corners in two hops)",
                                        make};

}  // namespace
}  // namespace cloverleaf
