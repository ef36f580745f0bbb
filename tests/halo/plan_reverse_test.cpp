// SPDX-License-Identifier: BSD-3-Clause
// The reverse exchange: ghost values back to their owners, combined in a fixed order. Values are
// such that a lost, doubled, misplaced or stale contribution changes the result.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ghostwire/collective.hpp"  // detail::combine: the operations as the library defines them
#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

int right_of(const World& w) { return (w.rank() + 1) % w.size(); }
int left_of(const World& w) { return (w.rank() + w.size() - 1) % w.size(); }

// A periodic 1-D row of `owned` values with `width` ghosts on each side: [ghosts | owned | ghosts].
// Channel 0 carries the high edge to the right neighbour's low ghosts, channel 1 the low edge to
// the left neighbour's high ghosts (two channels, so a ring of 1 or 2 ranks works too).
template <class T>
struct Row {
  static constexpr std::size_t owned = 8, width = 2;
  Segment memory;
  Plan plan;
  explicit Row(World& w, bool reverse_before_commit = true)
      : memory(w, (owned + 2 * width) * sizeof(T)), plan(make(w, reverse_before_commit)) {}
  Plan make(World& w, bool reverse_before_commit) {
    std::vector<int> neighbours{right_of(w)};
    if (left_of(w) != right_of(w)) neighbours.push_back(left_of(w));
    Plan p(w, neighbours, 2);
    Region r = p.add_memory(memory, sizeof(T));
    p.add_send(0, right_of(w), r, Layout::contiguous(owned, width));               // my high edge
    p.add_receive(0, left_of(w), r, Layout::contiguous(0, width));                 // low ghosts
    p.add_send(1, left_of(w), r, Layout::contiguous(width, width));                // my low edge
    p.add_receive(1, right_of(w), r, Layout::contiguous(width + owned, width));    // high ghosts
    if (reverse_before_commit) p.enable_reverse();
    p.commit();
    return p;
  }
  T* cells() { return reinterpret_cast<T*>(memory.data()); }
  T& own(std::size_t i) { return cells()[width + i]; }
  T& low_ghost(std::size_t j) { return cells()[j]; }
  T& high_ghost(std::size_t j) { return cells()[width + owned + j]; }
};

template <class T>
T owned_value(int rank, std::size_t i, int round) { return static_cast<T>(1000 * rank + 10 * static_cast<int>(i) + round); }
template <class T>
T ghost_value(int rank, std::size_t j, int side, int round) {
  return static_cast<T>(100000 * (rank + 1) + 100 * static_cast<int>(j) + side + 7 * round);
}

// My high edge is the right neighbour's low ghosts; my low edge the left neighbour's high ghosts.
template <class T>
void check_row(World& w, ReduceOp op, ScalarType type, bool split) {
  Row<T> row(w);
  for (int round = 0; round < 20; ++round) {
    for (std::size_t i = 0; i < Row<T>::owned; ++i) row.own(i) = owned_value<T>(w.rank(), i, round);
    for (std::size_t j = 0; j < Row<T>::width; ++j) {
      row.low_ghost(j) = ghost_value<T>(w.rank(), j, 1, round);
      row.high_ghost(j) = ghost_value<T>(w.rank(), j, 2, round);
    }
    if (split) {
      row.plan.reverse_start();
      row.plan.reverse_finish(Combine{op, type});
    } else {
      row.plan.reverse_exchange(Combine{op, type});
    }
    for (std::size_t i = 0; i < Row<T>::owned; ++i) {
      T expected = owned_value<T>(w.rank(), i, round);
      if (i < Row<T>::width) expected = detail::combine(op, expected, ghost_value<T>(left_of(w), i, 2, round));
      if (i >= Row<T>::owned - Row<T>::width)
        expected = detail::combine(op, expected, ghost_value<T>(right_of(w), i - (Row<T>::owned - Row<T>::width), 1, round));
      ASSERT_EQ(row.own(i), expected) << "round " << round << " owned " << i << " op " << reduce_name(op);
    }
    w.barrier();  // nobody changes its ghosts for the next round before every owner has read them
  }
}

}  // namespace

TEST(PlanReverse, RowSumsMinMaxAndReplaceEveryType) {
  World& w = gwtest::world();
  for (ReduceOp op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max, ReduceOp::replace}) {
    check_row<double>(w, op, ScalarType::float64, false);
    check_row<std::int64_t>(w, op, ScalarType::int64, true);
  }
  check_row<float>(w, ReduceOp::sum, ScalarType::float32, false);
  check_row<std::int32_t>(w, ReduceOp::max, ScalarType::int32, true);
}

TEST(PlanReverse, ForwardAndReverseAlternate) {
  World& w = gwtest::world();
  Row<std::int64_t> row(w);
  for (int round = 0; round < 10; ++round) {
    for (std::size_t i = 0; i < Row<std::int64_t>::owned; ++i) row.own(i) = owned_value<std::int64_t>(w.rank(), i, round);
    row.plan.exchange();
    for (std::size_t j = 0; j < Row<std::int64_t>::width; ++j) {
      ASSERT_EQ(row.low_ghost(j), owned_value<std::int64_t>(left_of(w), Row<std::int64_t>::owned - 2 + j, round));
      ASSERT_EQ(row.high_ghost(j), owned_value<std::int64_t>(right_of(w), j, round));
    }
    // Each owner gets its own values back from every neighbour that holds them: edges double.
    row.plan.reverse_exchange(Combine{ReduceOp::sum, ScalarType::int64});
    for (std::size_t i = 0; i < Row<std::int64_t>::owned; ++i) {
      const bool edge = i < 2 || i >= Row<std::int64_t>::owned - 2;
      ASSERT_EQ(row.own(i), (edge ? 2 : 1) * owned_value<std::int64_t>(w.rank(), i, round)) << "round " << round;
    }
    w.barrier();
  }
}

namespace {

// Unstructured: every rank holds ghosts of elements of several ranks, some twice (duplicate
// leaves), with values of very different sizes so that the order of a double sum shows.
struct Mesh {
  static constexpr std::size_t owned = 16;
  static std::size_t ghosts(int size) { return 6 + 2 * static_cast<std::size_t>(size); }
  static GhostMap map_of(int rank, int size) {
    GhostMap map;
    for (std::size_t k = 0; k < ghosts(size); ++k) {
      map.owner.push_back((rank + 1 + static_cast<int>(k)) % size);
      map.index.push_back((3 * k + static_cast<std::size_t>(rank)) % owned);
    }
    // Duplicates: the last two repeat the first two.
    map.owner.push_back(map.owner[0]);
    map.index.push_back(map.index[0]);
    map.owner.push_back(map.owner[1]);
    map.index.push_back(map.index[1]);
    return map;
  }
  static double ghost_value(int rank, std::size_t k, int round) {
    const double scale = (k % 3 == 0) ? 1e16 : (k % 3 == 1 ? -1e16 : 1.0);
    return scale * (1 + rank) + 0.25 * static_cast<double>(k) + round;
  }
  static double owned_value(int rank, std::size_t i) { return 3.0 * rank + 0.5 * static_cast<double>(i); }
};

}  // namespace

TEST(PlanReverse, UnstructuredDuplicatesCombineInRankAndMessageOrder) {
  World& w = gwtest::world();
  Segment owned(w, Mesh::owned * sizeof(double));
  const GhostMap map = Mesh::map_of(w.rank(), w.size());
  std::vector<double> ghosts(map.owner.size());
  Plan plan = make_unstructured_plan(w, owned, 0, Mesh::owned, ghosts.data(), map, sizeof(double));
  EXPECT_FALSE(plan.reverse_enabled());
  plan.enable_reverse();  // after commit: collective
  auto* own = reinterpret_cast<double*>(owned.data());
  for (int round = 0; round < 10; ++round) {
    for (std::size_t i = 0; i < Mesh::owned; ++i) own[i] = Mesh::owned_value(w.rank(), i);
    for (std::size_t k = 0; k < ghosts.size(); ++k) ghosts[k] = Mesh::ghost_value(w.rank(), k, round);
    plan.reverse_exchange(Combine{ReduceOp::sum, ScalarType::float64});
    // The documented order: my value, then by rank, then by the sender's ghost entry order.
    std::vector<double> expected(Mesh::owned);
    for (std::size_t i = 0; i < Mesh::owned; ++i) expected[i] = Mesh::owned_value(w.rank(), i);
    for (int q = 0; q < w.size(); ++q) {
      const GhostMap theirs = Mesh::map_of(q, w.size());
      for (std::size_t k = 0; k < theirs.owner.size(); ++k)
        if (theirs.owner[k] == w.rank()) expected[theirs.index[k]] += Mesh::ghost_value(q, k, round);
    }
    for (std::size_t i = 0; i < Mesh::owned; ++i)
      ASSERT_EQ(std::memcmp(&own[i], &expected[i], sizeof(double)), 0)
          << "round " << round << " element " << i << ": " << own[i] << " expected " << expected[i];
    w.barrier();
  }
}

TEST(PlanReverse, ElementsOfSeveralValuesAndOneCombinePerRegion) {
  World& w = gwtest::world();
  // Region 0: elements of three doubles; region 1: int32 pairs. One message carries both.
  Segment vectors(w, 4 * 3 * sizeof(double)), pairs(w, 4 * 2 * sizeof(std::int32_t));
  std::vector<int> neighbours{right_of(w)};
  if (left_of(w) != right_of(w)) neighbours.push_back(left_of(w));
  Plan plan(w, neighbours, 1);
  Region v = plan.add_memory(vectors, 3 * sizeof(double)), p = plan.add_memory(pairs, 2 * sizeof(std::int32_t));
  plan.add_send(0, right_of(w), v, Layout::indices({1, 0})).add_send(0, right_of(w), p, Layout::contiguous(0, 1));
  plan.add_receive(0, left_of(w), v, Layout::contiguous(2, 2)).add_receive(0, left_of(w), p, Layout::contiguous(3, 1));
  plan.enable_reverse().commit();
  auto* vec = reinterpret_cast<double*>(vectors.data());
  auto* pair = reinterpret_cast<std::int32_t*>(pairs.data());
  for (int e = 0; e < 12; ++e) vec[e] = 100.0 * w.rank() + e;
  for (int e = 0; e < 8; ++e) pair[e] = 10 * w.rank() + e;
  const Combine how[] = {{ReduceOp::sum, ScalarType::float64}, {ReduceOp::max, ScalarType::int32}};
  plan.reverse_exchange(std::span<const Combine>(how));
  // My elements 1 and 0 (in that order) were the right neighbour's ghost elements 2 and 3.
  const int r = right_of(w);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(vec[3 * 1 + c], 100.0 * w.rank() + 3 * 1 + c + 100.0 * r + 3 * 2 + c);
    EXPECT_EQ(vec[3 * 0 + c], 100.0 * w.rank() + c + 100.0 * r + 3 * 3 + c);
    EXPECT_EQ(vec[3 * 3 + c], 100.0 * w.rank() + 9 + c) << "an element nobody sent back";
  }
  EXPECT_EQ(pair[0], std::max(10 * w.rank(), 10 * r + 6));
  EXPECT_EQ(pair[1], std::max(10 * w.rank() + 1, 10 * r + 7));
  w.barrier();
}

TEST(PlanReverse, MisuseIsReported) {
  World& w = gwtest::world();
  Row<double> row(w, false);
  EXPECT_THROW(row.plan.reverse_exchange(Combine{}), Error) << "no enable_reverse";
  row.plan.enable_reverse();  // collective
  EXPECT_THROW(row.plan.reverse_finish(Combine{}), Error) << "finish without start";
  row.plan.reverse_start();
  EXPECT_THROW(row.plan.reverse_start(), Error) << "started twice";
  try {
    row.plan.reverse_finish(Combine{ReduceOp::sum, ScalarType::int32});  // 8-byte elements: 2 int32 each, fine
  } catch (const Error& e) {
    ADD_FAILURE() << e.what();
  }
  Row<float> floats(w);
  floats.plan.reverse_start();
  try {
    floats.plan.reverse_finish(Combine{ReduceOp::sum, ScalarType::float64});
    ADD_FAILURE() << "4-byte elements as float64 were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("not a whole number of float64 values"), std::string::npos) << e.what();
  }
  floats.plan.reverse_finish(Combine{ReduceOp::sum, ScalarType::float32});  // the exchange is still there
  // enable_reverse on some ranks only: every rank hears of it at commit.
  if (w.size() > 1) {
    std::vector<int> neighbours{right_of(w)};
    if (left_of(w) != right_of(w)) neighbours.push_back(left_of(w));
    Plan p(w, neighbours, 1);
    if (w.rank() == 0) p.enable_reverse();
    try {
      p.commit();
      ADD_FAILURE() << "commit accepted enable_reverse on rank 0 only";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Errc::mismatch) << e.what();
    }
  }
  w.barrier();
}

TEST(PlanReverse, PartitionedMessagesGoBackWhole) {
  World& w = gwtest::world();
  // 12 values to the right in 3 partitions; the reverse brings the right neighbour's ghosts back.
  Segment out(w, 12 * sizeof(double)), in(w, 12 * sizeof(double));
  std::vector<int> neighbours{right_of(w)};
  if (left_of(w) != right_of(w)) neighbours.push_back(left_of(w));
  Plan plan(w, neighbours, 1);
  Region o = plan.add_memory(out, sizeof(double)), i = plan.add_memory(in, sizeof(double));
  plan.add_send(0, right_of(w), o, Layout::contiguous(0, 12)).add_receive(0, left_of(w), i, Layout::contiguous(0, 12));
  plan.partition_send(0, right_of(w), 3).partition_receive(0, left_of(w), 3);
  plan.enable_reverse().commit();
  auto* sent = reinterpret_cast<double*>(out.data());
  auto* ghosts = reinterpret_cast<double*>(in.data());
  for (int round = 0; round < 5; ++round) {
    for (int k = 0; k < 12; ++k) sent[k] = 100.0 * w.rank() + k + round;
    plan.exchange();
    for (int k = 0; k < 12; ++k) ASSERT_EQ(ghosts[k], 100.0 * left_of(w) + k + round);
    for (int k = 0; k < 12; ++k) ghosts[k] = 1000.0 * (w.rank() + 1) + k;
    plan.reverse_exchange(Combine{ReduceOp::sum, ScalarType::float64});
    for (int k = 0; k < 12; ++k)
      ASSERT_EQ(sent[k], 100.0 * w.rank() + k + round + 1000.0 * (right_of(w) + 1) + k) << "round " << round;
    w.barrier();
  }
}
