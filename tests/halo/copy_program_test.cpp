// SPDX-License-Identifier: BSD-3-Clause
// CopyProgram's choice of loop for the layouts halos have: a contiguous run is one copy, short
// runs at scattered addresses are gathered into whole lines, equal steps are one strided loop;
// every choice copies the right bytes.
#include "halo/copy_program.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "ghostwire/layout.hpp"

namespace {

using ghostwire::Layout;
using ghostwire::detail::CopyProgram;
using ghostwire::detail::Piece;

struct Copy {
  std::vector<double> source, destination;
  CopyProgram program;
  Copy(const Layout& from, std::size_t elements)
      : source(elements), destination(from.count(), -1.0), whole(Layout::contiguous(0, from.count())), layout(from) {
    std::iota(source.begin(), source.end(), 1.0);
    Piece in{reinterpret_cast<std::byte*>(source.data()), sizeof(double), &layout};
    Piece out{reinterpret_cast<std::byte*>(destination.data()), sizeof(double), &whole};
    program = CopyProgram::build({&in, 1}, {&out, 1});
    program.run();
  }
  void expect_copied() const {
    std::size_t k = 0;
    layout.for_each_run([&](std::size_t first, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i, ++k) ASSERT_EQ(destination[k], source[first + i]) << "element " << k;
    });
    EXPECT_EQ(k, destination.size());
  }
  Layout whole, layout;
};

TEST(CopyProgram, ContiguousRowIsOneCopy) {
  Copy c(Layout::contiguous(100, 2048), 4096);  // a grid's row between hosts
  c.expect_copied();
  EXPECT_EQ(c.program.shape().gathered_words, 0u) << "a 16 KiB row must be copied, not gathered word by word";
  EXPECT_EQ(c.program.shape().scattered_copies, 1u);
}

TEST(CopyProgram, IndexListIsGatheredIntoLines) {
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < 500; ++i) indices.push_back((i * 7919) % 4000);  // single elements
  Copy c(Layout::indices(indices), 4000);
  c.expect_copied();
  EXPECT_EQ(c.program.shape().gathered_words, 500u);
}

TEST(CopyProgram, LongRunsAmongShortOnesAreCopied) {
  // Blocks of 3 and of 64 elements alternating: the short ones gathered, the long ones copied.
  std::vector<std::size_t> indices;
  for (std::size_t block = 0; block < 20; ++block) {
    std::size_t start = block * 200, length = block % 2 ? 64 : 3;
    for (std::size_t i = 0; i < length; ++i) indices.push_back(start + i);
  }
  Copy c(Layout::indices(indices), 4000);
  c.expect_copied();
  EXPECT_EQ(c.program.shape().gathered_words, 0u) << "3-element runs between long runs are too few to gather";
}

TEST(CopyProgram, EqualStepsAreOneLoop) {
  Copy c(Layout::box(5, {300}, {64}), 64 * 300);  // a column of a row-major grid
  c.expect_copied();
  EXPECT_EQ(c.program.shape().strided_loops, 1u);
}

}  // namespace
