// SPDX-License-Identifier: BSD-3-Clause
// Array copy and copy_async: a block-cyclic array filled by its owners, read whole by every rank
// (copy), read again in chunks while computing on the previous chunk (copy_async), and written
// back reversed (copy into the array). Prints a checksum and the times.
//
//   scripts/launch -n 4 -- build/examples/array_copy [size=1000000] [chunk=65536]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ghostwire/dist.hpp"

namespace gw = ghostwire;

int main(int argc, char** argv) {
  const gw::Index size = argc > 1 ? std::atol(argv[1]) : 1000000;
  const gw::Index chunk = argc > 2 ? std::atol(argv[2]) : 65536;
  gw::World world;
  {
    gw::Pattern<1> pattern({size}, {gw::BLOCKCYCLIC(4096)}, gw::TeamSpec<1>({world.size()}));
    gw::Array<double> a(world, pattern);
    gw::for_each_local(a, [](gw::Index i, double& x) { x = static_cast<double>(i % 1000) * 0.5; });
    gw::barrier(world);

    // The whole array into a local buffer, one-sided.
    std::vector<double> whole(static_cast<std::size_t>(size));
    double start = MPI_Wtime();
    gw::copy(a, 0, size, whole.data());
    const double copy_seconds = MPI_Wtime() - start;

    // Chunk by chunk: fetch the next chunk while summing the current one.
    std::vector<double> buffers[2] = {std::vector<double>(static_cast<std::size_t>(chunk)),
                                      std::vector<double>(static_cast<std::size_t>(chunk))};
    start = MPI_Wtime();
    double sum = 0;
    auto pending = gw::copy_async(a, 0, std::min(chunk, size), buffers[0].data());
    for (gw::Index first = 0, k = 0; first < size; first += chunk, ++k) {
      const gw::Index count = std::min(chunk, size - first);
      double* current = pending.get() - count;  // get() waits and returns the end of the chunk
      if (first + chunk < size)
        pending = gw::copy_async(a, first + chunk, std::min(first + 2 * chunk, size), buffers[(k + 1) % 2].data());
      for (gw::Index i = 0; i < count; ++i) sum += current[i] * static_cast<double>((first + i) % 7);
    }
    const double async_seconds = MPI_Wtime() - start;

    // Write the array back reversed: every rank writes one share, wherever its elements live.
    gw::barrier(world);
    const gw::Index share = (size + world.size() - 1) / world.size();
    const gw::Index first = std::min(size, world.rank() * share), last = std::min(size, first + share);
    std::vector<double> reversed(static_cast<std::size_t>(last - first));
    for (gw::Index i = first; i < last; ++i) reversed[static_cast<std::size_t>(i - first)] = whole[static_cast<std::size_t>(size - 1 - i)];
    start = MPI_Wtime();
    gw::copy(reversed.data(), reversed.data() + reversed.size(), a, first);
    const double put_seconds = MPI_Wtime() - start;
    gw::barrier(world);
    const double checksum = gw::reduce(a, gw::ReduceOp::sum) + sum;

    if (world.rank() == 0) {
      std::printf("array_copy: %ld doubles, BLOCKCYCLIC(4096) over %d ranks, chunks of %ld\n", static_cast<long>(size),
                  world.size(), static_cast<long>(chunk));
      std::printf("checksum %.17g\n", checksum);
      std::printf("copy %.6f s (%.1f MB/s), copy_async by chunks %.6f s, copy back %.6f s\n", copy_seconds,
                  static_cast<double>(size) * 8 / copy_seconds / 1e6, async_seconds, put_seconds);
      std::printf("{\"example\":\"array_copy\",\"size\":%ld,\"ranks\":%d,\"copy_s\":%.6g,\"copy_async_s\":%.6g,"
                  "\"copy_back_s\":%.6g,\"checksum\":%.17g}\n",
                  static_cast<long>(size), world.size(), copy_seconds, async_seconds, put_seconds, checksum);
    }
  }
  return 0;
}
