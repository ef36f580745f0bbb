// SPDX-License-Identifier: BSD-3-Clause
// Collective algorithms over the owned cells of grids and arrays (ghost cells are never touched):
//
//   fill(u, 0.0);                                    // then a barrier: every rank sees the values
//   for_each_local(u, [](double& x) { x *= 2; });    // or [](const Point<2>& global, double& x)
//   transform(u, v, [](double x) { return x * x; }); // v = f(u), same pattern
//   transform(u, v, w, std::plus<>());               // w = f(u, v)
//   double total = reduce(u, ReduceOp::sum);         // the same value on every rank
//
// for_each_local and transform work on this rank's cells only and do not synchronise; reduce and
// fill are collective.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "ghostwire/collective.hpp"
#include "ghostwire/dist/array.hpp"
#include "ghostwire/dist/grid.hpp"

namespace ghostwire {

namespace detail {
// Every rank's `bytes` bytes, in rank order, on every rank.
void allgather_bytes(World& world, const void* mine, std::size_t bytes, void* all);
void require_same_pattern(const PatternCore& a, const PatternCore& b, const char* call, const char* first,
                          const char* second);

// Calls f(global point, T&) for every owned cell, rows innermost.
template <class T, int N, class F>
void for_each_owned(Grid<T, N>& grid, F&& f) {
  const Point<N> e = grid.local_extents(), o = grid.offset();
  if (grid.local_box().empty()) return;
  if constexpr (N == 1) {
    T* row = &grid(0);
    for (Index i = 0; i < e[0]; ++i) f(Point<1>{o[0] + i}, row[i]);
  } else if constexpr (N == 2) {
    for (Index i = 0; i < e[0]; ++i) {
      T* row = &grid(i, 0);
      for (Index j = 0; j < e[1]; ++j) f(Point<2>{o[0] + i, o[1] + j}, row[j]);
    }
  } else {
    for (Index i = 0; i < e[0]; ++i)
      for (Index j = 0; j < e[1]; ++j) {
        T* row = &grid(i, j, 0);
        for (Index k = 0; k < e[2]; ++k) f(Point<3>{o[0] + i, o[1] + j, o[2] + k}, row[k]);
      }
  }
}

// f(T&) or f(global, T&): whichever the callable takes.
template <class F, class G, class T>
decltype(auto) call_with_index(F& f, const G& global, T& value) {
  if constexpr (std::is_invocable_v<F&, const G&, T&>)
    return f(global, value);
  else
    return f(value);
}

template <class T>
T reduce_over_ranks(World& world, ReduceOp op, bool have, const T& mine) {
  struct Part {
    unsigned char have;
    unsigned char value[sizeof(T)];
  };
  Part part{};
  part.have = have ? 1 : 0;
  std::memcpy(part.value, &mine, sizeof(T));
  std::vector<Part> all(static_cast<std::size_t>(world.size()));
  allgather_bytes(world, &part, sizeof(Part), all.data());
  T result{};
  bool any = false;
  for (const Part& p : all) {  // in rank order: the same result everywhere, on every run
    if (!p.have) continue;
    T value;
    std::memcpy(&value, p.value, sizeof(T));
    result = any ? combine(op, result, value) : value;
    any = true;
  }
  return result;
}
}  // namespace detail

inline void barrier(World& world) { world.barrier(); }

template <class T, int N>
void fill(Grid<T, N>& grid, const T& value) {
  detail::for_each_owned(grid, [&](const Point<N>&, T& x) { x = value; });
  grid.barrier();
}
template <class T>
void fill(Array<T>& array, const T& value) {
  for (T& x : array.local()) x = value;
  array.barrier();
}

template <class T, int N, class F>
void for_each_local(Grid<T, N>& grid, F&& f) {
  detail::for_each_owned(grid, [&](const Point<N>& global, T& x) { detail::call_with_index(f, global, x); });
}
template <class T, class F>
void for_each_local(Array<T>& array, F&& f) {
  T* local = array.lbegin();
  for (Index i = 0; i < array.local_size(); ++i) detail::call_with_index(f, array.global_index(i), local[i]);
}

// out = op(in), cell by cell.
template <class A, class B, int N, class F>
void transform(const Grid<A, N>& in, Grid<B, N>& out, F&& op) {
  detail::require_same_pattern(in.pattern().core(), out.pattern().core(), "transform", "in", "out");
  detail::for_each_owned(out, [&](const Point<N>& global, B& x) { x = op(in[out.to_local(global)]); });
}
// out = op(a, b), cell by cell.
template <class A, class B, class C, int N, class F>
void transform(const Grid<A, N>& a, const Grid<B, N>& b, Grid<C, N>& out, F&& op) {
  detail::require_same_pattern(a.pattern().core(), b.pattern().core(), "transform", "a", "b");
  detail::require_same_pattern(a.pattern().core(), out.pattern().core(), "transform", "a", "out");
  detail::for_each_owned(out, [&](const Point<N>& global, C& x) {
    Point<N> local = out.to_local(global);
    x = op(a[local], b[local]);
  });
}
template <class A, class B, class F>
void transform(const Array<A>& in, Array<B>& out, F&& op) {
  detail::require_same_pattern(in.pattern().core(), out.pattern().core(), "transform", "in", "out");
  const A* source = in.local().data();
  B* target = out.lbegin();
  for (Index i = 0; i < out.local_size(); ++i) target[i] = op(source[i]);
}
template <class A, class B, class C, class F>
void transform(const Array<A>& a, const Array<B>& b, Array<C>& out, F&& op) {
  detail::require_same_pattern(a.pattern().core(), b.pattern().core(), "transform", "a", "b");
  detail::require_same_pattern(a.pattern().core(), out.pattern().core(), "transform", "a", "out");
  const A* x = a.local().data();
  const B* y = b.local().data();
  C* target = out.lbegin();
  for (Index i = 0; i < out.local_size(); ++i) target[i] = op(x[i], y[i]);
}

// Sum, minimum or maximum of all cells; collective, the same value on every rank (T{} for an
// empty container). Ranks combine in rank order, so the result does not depend on timing.
template <class T, int N>
T reduce(const Grid<T, N>& grid, ReduceOp op) {
  auto& g = const_cast<Grid<T, N>&>(grid);
  T local{};
  bool have = false;
  detail::for_each_owned(g, [&](const Point<N>&, T& x) {
    local = have ? detail::combine(op, local, x) : x;
    have = true;
  });
  return detail::reduce_over_ranks(g.world(), op, have, local);
}
template <class T>
T reduce(const Array<T>& array, ReduceOp op) {
  T local{};
  bool have = false;
  for (const T& x : array.local()) {
    local = have ? detail::combine(op, local, x) : x;
    have = true;
  }
  return detail::reduce_over_ranks(array.world(), op, have, local);
}

}  // namespace ghostwire
