// SPDX-License-Identifier: BSD-3-Clause
// Proves the sanitizer leg can fail: each mode does one thing the sanitizers must report, inside an
// MPI job launched like every test, and then claims success. scripts/test --sanitize registers one
// test per mode that passes only if the job ends non-zero (WILL_FAIL) with the report in its output.
//
//   sanitizer_probe overflow|leak|undefined|race   (race: the thread-sanitized build)
#include <mpi.h>

#include <thread>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
volatile int sink;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string mode = argc > 1 ? argv[1] : "";
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (mode == "overflow") {
      // Through a volatile pointer, so the compiler cannot drop a store nobody reads.
      char* volatile block = static_cast<char*>(std::malloc(16));
      std::memset(block, 1, 17 + static_cast<std::size_t>(sink & 1));  // one past the end
      sink = block[0];
      std::free(block);
    } else if (mode == "leak") {
      void* lost = std::malloc(4096);
      std::memset(lost, 1, 4096);
      lost = nullptr;  // leaked: reported at exit
    } else if (mode == "undefined") {
      volatile int large = INT_MAX;
      sink = large + 1;  // signed overflow
    } else if (mode == "race") {
      int shared = 0;  // written by two threads, no synchronisation
      std::thread other([&] { shared = 1; });
      shared = 2;
      other.join();
      sink = shared;
    } else {
      std::fprintf(stderr, "sanitizer_probe: expected overflow, leak, undefined or race\n");
      return 2;
    }
  }
  MPI_Finalize();
  std::printf("sanitizer_probe: rank %d finished (%s not detected?)\n", rank, mode.c_str());
  return 0;
}
