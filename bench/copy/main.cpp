// SPDX-License-Identifier: BSD-3-Clause
// gw-copy-bench: DASH's copy study (section 4 of the DASH paper) on ghostwire. Rank 0 copies a
// range of 8 B to 64 MiB of a gw::Array<double> whose source is its own block, a node peer's or
// another node's, with gw::copy and gw::copy_async, against memcpy (the ceiling) and MPI_Get (and
// dash::copy when built with DASH), the source out of cache. docs/copy-study.md.
//
//   scripts/launch -n 2 -- build/bench/gw-copy-bench                                    # local, peer
//   scripts/launch --path emulated --rpn 1 -n 2 -- build/bench/gw-copy-bench            # local, remote
#include <cstdio>
#include <exception>

#include "../gw-bench/usage_error.hpp"
#include "copy_report.hpp"

namespace {

using namespace copybench;

int run(const Options& o, gw::World& world, int* argc, char*** argv) {
  const gw::Index block = static_cast<gw::Index>(o.sizes.back() / sizeof(double)) + block_pad;
  gw::Array<double> array(world, block * world.size());  // BLOCKED: rank r owns [r * block, (r + 1) * block)
  gw::for_each_local(array, [](gw::Index i, double& x) { x = static_cast<double>(i); });
  GetWindow window(world.comm(), block);
#if GW_COPY_HAVE_DASH
  DashSource dash(argc, argv, block * world.size());
  set_dash_source(&dash);
#else
  (void)argc, (void)argv;
#endif
  gw::barrier(world);
  CopySources sources{array, block, window};
  StudyOutcome outcome = run_study(o, world, sources);
  if (world.rank() == 0) {
    std::printf("# gw-copy-bench: %d ranks on %d node(s), flush %zu bytes before every timed copy, %d repeats\n",
                world.size(), world.node_count(), o.flush_bytes, o.repeats);
    for (const auto& note : outcome.notes) std::printf("# %s\n", note.c_str());
    print_table(outcome.results, o.impls);
    print_json(outcome.results, world.size(), world.node_count());
    if (outcome.wrong_elements == 0)
      std::printf("# gw-copy-bench: %zu results, every copied byte verified\n", outcome.results.size());
    std::fflush(stdout);
  }
  gw::barrier(world);
  return outcome.wrong_elements ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const gwbench::UsageError& e) {
    std::fprintf(stderr, "gw-copy-bench: %s\n", e.what());
    return 2;
  }
  gw::World world;  // initialises MPI, and finalises it on destruction
  try {
    return run(options, world, &argc, &argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gw-copy-bench: rank %d: %s\n", world.rank(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return 3;
}
