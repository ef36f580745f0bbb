// SPDX-License-Identifier: BSD-3-Clause
// Waits for something nobody provides, with the default timeout action (abort the job): the tests
// check that the diagnostic names what was waited for, and that the job ends instead of hanging.
//   timeout_probe                      a notification nobody sends (segment 0, notification 6)
//   timeout_probe --missing-segment    rank 0 creates a second segment while the others are busy
//                                      elsewhere (not in an MPI call, which would be a mismatch)
#include <chrono>
#include <cstring>
#include <thread>

#include "ghostwire/segment.hpp"

int main(int argc, char** argv) {
  ghostwire::World world;
  ghostwire::Segment segment(world, 64, 8);
  if (argc > 1 && std::strcmp(argv[1], "--missing-segment") == 0) {
    if (world.rank() == 0) ghostwire::Segment second(world, 64, 8);
    std::this_thread::sleep_for(std::chrono::seconds(60));  // rank 0's timeout ends the job first
    return 0;                                                // not reached
  }
  ghostwire::notify_wait(segment, 6);
  return 0;  // not reached
}
