// SPDX-License-Identifier: BSD-3-Clause
// mpi-partitioned: the reference's schedule on MPI-4 partitioned communication (MPICH builds; Open
// MPI 4.1 has no MPI_Psend_init, so there this file registers nothing and --variant names the
// reason: exchange.cpp).
//
// Per partner one persistent pair MPI_Psend_init / MPI_Precv_init, started before every gradient.
// A partner's send points are grouped by the colour that finalises them (a thread and a colour of
// its share; the groups in thread, then colour order); its message holds the groups one after
// another, one partition per point, 21 doubles each (MPI wants equal partitions; a group is a run
// of them). The thread that finishes a group packs it and marks it ready with MPI_Pready_range. The
// receiver learns the sender's row order once, at setup, and in complete() copies each row into
// its ghost point as soon as MPI_Parrived says it is there, then MPI_Wait ends the receive.
//
// See docs/cfdproxy.md, "The variants".
#include <mpi.h>

#if MPI_VERSION >= 4

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "exchange.hpp"

namespace cfdproxy {
namespace {

constexpr int gradient_tag = 4713;
constexpr int order_tag = 4714;

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string(call) + " failed with MPI error " + std::to_string(status));
}

struct Group {  // send points of one partner that one colour of one thread finalises
  std::size_t partner;
  int first_row;
  std::vector<std::int32_t> points;  // local ids, in row order
};

class PartitionedExchange final : public Exchange {
 public:
  explicit PartitionedExchange(const ExchangeContext& c)
      : d_(c.domain), fields_(c.fields), team_(c.team), comm_(c.world.comm()), ready_(c.domain.shares.size()) {
    for (std::size_t t = 0; t < d_.shares.size(); ++t) ready_[t].resize(d_.shares[t].colours.size());
    std::vector<std::vector<int>> rows(d_.partners.size());  // per partner: send-list position of each row
    for (std::size_t i = 0; i < d_.partners.size(); ++i) rows[i] = group_send_points(i);
    learn_receive_order(rows);
    for (std::size_t i = 0; i < d_.partners.size(); ++i) {
      const Partner& p = d_.partners[i];
      send_buffers_.emplace_back(p.send_points.size() * gradient_values);
      receive_buffers_.emplace_back(static_cast<std::size_t>(p.halo_count) * gradient_values);
      sends_.push_back(MPI_REQUEST_NULL);
      receives_.push_back(MPI_REQUEST_NULL);
      check(MPI_Psend_init(send_buffers_[i].data(), static_cast<int>(p.send_points.size()), gradient_values, MPI_DOUBLE,
                           p.rank, gradient_tag, comm_, MPI_INFO_NULL, &sends_[i]),
            "MPI_Psend_init");
      check(MPI_Precv_init(receive_buffers_[i].data(), p.halo_count, gradient_values, MPI_DOUBLE, p.rank, gradient_tag,
                           comm_, MPI_INFO_NULL, &receives_[i]),
            "MPI_Precv_init");
    }
    arrived_.assign(d_.partners.size(), 0);
  }

  ~PartitionedExchange() override {
    for (std::vector<MPI_Request>* r : {&sends_, &receives_})
      for (MPI_Request& request : *r)
        if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
  }

  void begin() override {
    if (d_.partners.empty()) return;
    check(MPI_Startall(static_cast<int>(receives_.size()), receives_.data()), "MPI_Startall");
    check(MPI_Startall(static_cast<int>(sends_.size()), sends_.data()), "MPI_Startall");
  }

  void after_colour(int thread, std::size_t colour) override {
    for (std::size_t g : ready_[static_cast<std::size_t>(thread)][colour]) {
      const Group& group = groups_[g];
      double* out = send_buffers_[group.partner].data() + static_cast<std::size_t>(group.first_row) * gradient_values;
      for (std::int32_t p : group.points) {
        std::memcpy(out, fields_.grad + static_cast<std::size_t>(p) * gradient_values, gradient_values * sizeof(double));
        out += gradient_values;
      }
      const int last_row = group.first_row + static_cast<int>(group.points.size()) - 1;
      check(MPI_Pready_range(group.first_row, last_row, sends_[group.partner]), "MPI_Pready_range");
    }
  }

  // Rows are copied as they arrive, partner after partner, until every partner's are in.
  void complete() override {
    std::fill(arrived_.begin(), arrived_.end(), 0);
    for (std::size_t pending = d_.partners.size(); pending > 0;) {
      bool moved = false;
      for (std::size_t i = 0; i < d_.partners.size(); ++i) {
        if (arrived_[i] == d_.partners[i].halo_count) continue;
        moved |= copy_arrived_rows(i);
        if (arrived_[i] == d_.partners[i].halo_count) {
          check(MPI_Wait(&receives_[i], MPI_STATUS_IGNORE), "MPI_Wait");
          --pending;
        }
      }
      if (!moved) team_.relax();
    }
    check(MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

 private:
  // Partner i's send points grouped by the (thread, colour) whose last face finalises them; returns
  // each row's position in the partner's send list (= its halo order).
  std::vector<int> group_send_points(std::size_t i) {
    const Partner& partner = d_.partners[i];
    if (partner.send_points.empty() || partner.halo_count == 0)
      throw std::runtime_error("mpi-partitioned: rank " + std::to_string(partner.rank) +
                               " is a partner with nothing to send or receive; a partition needs a point");
    std::vector<int> position(static_cast<std::size_t>(d_.all), -1);
    for (std::size_t j = 0; j < partner.send_points.size(); ++j)
      position[static_cast<std::size_t>(partner.send_points[j])] = static_cast<int>(j);
    std::vector<int> rows;
    for (std::size_t t = 0; t < d_.shares.size(); ++t) {
      const Share& share = d_.shares[t];
      for (std::size_t c = 0; c < share.colours.size(); ++c) {
        Group group{i, static_cast<int>(rows.size()), {}};
        for (std::int32_t k = share.colours[c].last_begin; k < share.colours[c].last_end; ++k) {
          const std::int32_t p = share.last_points[static_cast<std::size_t>(k)];
          if (position[static_cast<std::size_t>(p)] < 0) continue;
          group.points.push_back(p);
          rows.push_back(position[static_cast<std::size_t>(p)]);
        }
        if (group.points.empty()) continue;
        ready_[t][c].push_back(groups_.size());
        groups_.push_back(std::move(group));
      }
    }
    if (rows.size() != partner.send_points.size())
      throw std::logic_error("mpi-partitioned: " + std::to_string(rows.size()) + " of the " +
                             std::to_string(partner.send_points.size()) + " send points to rank " +
                             std::to_string(partner.rank) + " are some colour's last points");
    return rows;
  }

  // Each partner tells where each row of its message goes among my ghost points of it.
  void learn_receive_order(const std::vector<std::vector<int>>& rows) {
    unpack_.resize(d_.partners.size());
    std::vector<MPI_Request> requests;
    for (std::size_t i = 0; i < d_.partners.size(); ++i) {
      unpack_[i].resize(static_cast<std::size_t>(d_.partners[i].halo_count));
      requests.emplace_back();
      check(MPI_Irecv(unpack_[i].data(), d_.partners[i].halo_count, MPI_INT, d_.partners[i].rank, order_tag, comm_,
                      &requests.back()),
            "MPI_Irecv");
      requests.emplace_back();
      check(MPI_Isend(rows[i].data(), static_cast<int>(rows[i].size()), MPI_INT, d_.partners[i].rank, order_tag, comm_,
                      &requests.back()),
            "MPI_Isend");
    }
    check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (std::size_t i = 0; i < d_.partners.size(); ++i) {
      std::vector<char> seen(unpack_[i].size(), 0);
      for (int j : unpack_[i]) {
        if (j < 0 || static_cast<std::size_t>(j) >= seen.size() || seen[static_cast<std::size_t>(j)])
          throw std::runtime_error("mpi-partitioned: rank " + std::to_string(d_.partners[i].rank) +
                                   " sends a row order that is not a permutation of its " + std::to_string(seen.size()) +
                                   " points");
        seen[static_cast<std::size_t>(j)] = 1;
      }
    }
  }

  // The rows of partner i that arrived since the last call, into their ghost points.
  bool copy_arrived_rows(std::size_t i) {
    const Partner& p = d_.partners[i];
    bool moved = false;
    while (arrived_[i] < p.halo_count) {
      int flag = 0;
      check(MPI_Parrived(receives_[i], arrived_[i], &flag), "MPI_Parrived");
      if (!flag) break;
      const auto row = static_cast<std::size_t>(arrived_[i]);
      const auto ghost = static_cast<std::size_t>(p.halo_begin + unpack_[i][row]);
      std::memcpy(fields_.grad + ghost * gradient_values, receive_buffers_[i].data() + row * gradient_values,
                  gradient_values * sizeof(double));
      ++arrived_[i];
      moved = true;
    }
    return moved;
  }

  const LocalDomain& d_;
  Fields& fields_;
  const ThreadTeam& team_;
  MPI_Comm comm_;
  std::vector<Group> groups_;
  std::vector<std::vector<std::vector<std::size_t>>> ready_;  // [thread][colour] -> groups
  std::vector<std::vector<int>> unpack_;                      // per partner, per row: index in its ghost run
  std::vector<std::vector<double>> send_buffers_, receive_buffers_;
  std::vector<MPI_Request> sends_, receives_;
  std::vector<std::int32_t> arrived_;  // per partner: rows copied in this complete()
};

std::unique_ptr<Exchange> make(const ExchangeContext& context) {
  return std::make_unique<PartitionedExchange>(context);
}

const ExchangeRegistration registration{"mpi-partitioned", 4, make};

}  // namespace
}  // namespace cfdproxy

#endif  // MPI_VERSION >= 4
