// SPDX-License-Identifier: BSD-3-Clause
// topo::detect waits like every ghostwire wait (docs/topology.md, "On a real launch"): rank 0 never
// calls it, so the other ranks end the job with the timeout diagnostic naming what detect waited
// for, instead of hanging inside MPI. The tests check the diagnostic; the job is aborted.
//   detect_timeout_probe          detect(World&)
//   detect_timeout_probe --bare   detect(MPI_Comm, const Settings&): a communicator without a World
#include <chrono>
#include <cstring>
#include <thread>

#include "ghostwire/topo.hpp"
#include "ghostwire/world.hpp"

int main(int argc, char** argv) {
  ghostwire::World world;
  const bool bare = argc > 1 && std::strcmp(argv[1], "--bare") == 0;
  if (world.rank() == 0) {
    std::this_thread::sleep_for(std::chrono::seconds(60));  // the others' timeout ends the job first
    return 0;                                                // not reached
  }
  if (bare)
    (void)ghostwire::topo::detect(MPI_COMM_WORLD, world.settings());
  else
    (void)ghostwire::topo::detect(world);
  return 0;  // not reached
}
