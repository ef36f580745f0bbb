// SPDX-License-Identifier: BSD-3-Clause
// main() for MPI test programs: every rank runs the tests; only rank 0 prints progress, every rank
// prints its failures (prefixed with its rank), and the exit code is non-zero on all ranks if any
// rank failed, so mpiexec reports the failure.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "mpi_test_main.hpp"

namespace gwtest {
namespace {

std::unique_ptr<ghostwire::World> the_world;
std::map<std::string, std::string> options;

class RankPrinter : public testing::EmptyTestEventListener {
 public:
  explicit RankPrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank_, result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.summary());
    std::fflush(stderr);
  }

 private:
  int rank_;
};

}  // namespace

ghostwire::World& world() { return *the_world; }

std::string option(const std::string& name, const std::string& fallback) {
  auto found = options.find(name);
  return found == options.end() ? fallback : found->second;
}

long option_integer(const std::string& name, long fallback) {
  std::string text = option(name);
  return text.empty() ? fallback : std::strtol(text.c_str(), nullptr, 10);
}

}  // namespace gwtest

// --thread-level=single|funneled|serialized|multiple: MPI_Init_thread at that level (tests of
// threads); without it plain MPI_Init.
static void initialise_mpi(int& argc, char**& argv) {
  const std::string prefix = "--thread-level=";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(prefix, 0) != 0) continue;
    const std::string name = arg.substr(prefix.size());
    const int level = name == "multiple"     ? MPI_THREAD_MULTIPLE
                      : name == "serialized" ? MPI_THREAD_SERIALIZED
                      : name == "funneled"   ? MPI_THREAD_FUNNELED
                                             : MPI_THREAD_SINGLE;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, level, &provided);
    return;
  }
  MPI_Init(&argc, &argv);
}

int main(int argc, char** argv) {
  initialise_mpi(argc, argv);
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) continue;
    auto equals = arg.find('=');
    gwtest::options[arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2)] =
        equals == std::string::npos ? "1" : arg.substr(equals + 1);
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  gwtest::the_world = std::make_unique<ghostwire::World>(MPI_COMM_WORLD);

  auto& listeners = testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new gwtest::RankPrinter(rank));

  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  gwtest::the_world.reset();
  MPI_Finalize();
  if (rank == 0 && any_failed) std::fprintf(stderr, "FAILED on at least one rank\n");
  return any_failed;
}
