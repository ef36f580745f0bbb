// SPDX-License-Identifier: BSD-3-Clause
// One rank dies in the middle of an exchange; the others must end with a diagnostic naming the
// rank and slot they waited for, not hang (tests/reliability/dead_rank.sh checks the rest).
//
//   dead_rank --fault kill|stop|throw --api plan|grid [--victim R] [--round K]
//
// --api plan: every rank neighbours every other (one channel, data in a Segment). --api grid: a
//   periodic 2-D Grid with a HaloUpdate. A survivor may wait on another survivor rather than on the
//   victim (that one is held in start() by the victim's missing acknowledgement, so its next
//   message never left): such a survivor lingers before exiting, so that the launcher, which ends
//   the job at the first exit, lets the survivors waiting on the victim print their diagnostic too.
// The victim calls start() of round K and then, before finish(), raises SIGKILL in itself
// (--fault kill: a dead rank), SIGSTOP (--fault stop: a hung rank, alive to the launcher) or throws
// an exception nobody catches (--fault throw: std::terminate, SIGABRT). Survivors run with
// GHOSTWIRE_ON_TIMEOUT=throw or abort: with throw each prints the TimeoutError's message and exits
// with status 124 without MPI_Finalize (the job cannot finalise with a dead member).
#include <mpi.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "ghostwire/dist.hpp"
#include "ghostwire/plan.hpp"
#include "grid_check.hpp"
#include "probe.hpp"

namespace gw = ghostwire;

namespace {

struct Options {
  std::string fault = "kill", api = "plan";
  int victim = -1;  // default: the last rank
  long round = 3;
};

[[noreturn]] void inject(const Options& o, int rank) {
  std::printf("dead_rank: rank %d injects '%s' between start() and finish() of round %ld\n", rank, o.fault.c_str(),
              o.round);
  std::fflush(stdout);
  if (o.fault == "kill") raise(SIGKILL);
  if (o.fault == "stop") {
    raise(SIGSTOP);
    std::_Exit(3);  // continued: the job is over for this rank
  }
  throw std::runtime_error("dead_rank: injected fault on rank " + std::to_string(rank));
}

void announce_shared_memory(int rank) {
  // The test removes nothing itself; it checks after the job that these names are gone.
  std::printf("dead_rank: rank %d pid %d maps shm:%s\n", rank, static_cast<int>(getpid()),
              gwreliab::join(gwreliab::mapped_shm_files()).c_str());
  std::fflush(stdout);
}

void run_plan(gw::World& world, const Options& o) {
  const int rank = world.rank(), size = world.size();
  std::vector<int> neighbours;
  for (int r = 0; r < size; ++r)
    if (r != rank) neighbours.push_back(r);
  const std::size_t count = 64;
  gw::Segment owned(world, count * sizeof(double));
  std::vector<double> ghosts(count * neighbours.size());
  gw::Plan plan(world, neighbours, 1);
  gw::Region out = plan.add_memory(owned, sizeof(double));
  gw::Region in = plan.add_memory(ghosts.data(), ghosts.size() * sizeof(double), sizeof(double));
  for (std::size_t n = 0; n < neighbours.size(); ++n) {
    plan.add_send(0, neighbours[n], out, gw::Layout::contiguous(0, count));
    plan.add_receive(0, neighbours[n], in, gw::Layout::contiguous(static_cast<std::ptrdiff_t>(n * count), count));
  }
  plan.commit();
  announce_shared_memory(rank);
  double* data = reinterpret_cast<double*>(owned.data());
  for (long round = 0;; ++round) {
    for (std::size_t i = 0; i < count; ++i) data[i] = rank * 1e6 + static_cast<double>(round);
    plan.start();
    if (rank == o.victim && round == o.round) inject(o, rank);
    plan.finish();
    for (std::size_t n = 0; n < neighbours.size(); ++n)
      if (ghosts[n * count] != neighbours[n] * 1e6 + static_cast<double>(round)) {
        std::fprintf(stderr, "dead_rank: rank %d: wrong ghost value from rank %d in round %ld\n", rank, neighbours[n],
                     round);
        std::exit(1);
      }
  }
}

void run_grid(gw::World& world, const Options& o) {
  const gw::Point<2> extents{24, 24};
  gw::Grid<double, 2> grid(world, extents, gw::Halo<2>(1, gw::Stencil::faces, gw::Boundary::periodic));
  gw::HaloUpdate update({&grid});
  announce_shared_memory(world.rank());
  for (long round = 0;; ++round) {
    gwreliab::fill_owned(grid, extents, round);
    gw::HaloHandle handle = update.start();
    if (world.rank() == o.victim && round == o.round) inject(o, world.rank());
    handle.wait();
    if (gwreliab::wrong_ghosts(grid, extents, round)) {
      std::fprintf(stderr, "dead_rank: rank %d: wrong ghost cells in round %ld\n", world.rank(), round);
      std::exit(1);
    }
  }
}

// Whether a timeout diagnostic names `rank` as the one waited for (dead_rank.sh's own pattern).
bool names_rank(const std::string& diagnostic, int rank) {
  const std::string r = std::to_string(rank);
  const std::regex waited_for(" with rank " + r + " of plan|packed by ranks? ([0-9]+, )*" + r + "\\b|(sent|received) by rank " + r + "\\b");
  return std::regex_search(diagnostic, waited_for);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string name = argv[i], value = argv[i + 1];
    if (name == "--fault") o.fault = value;
    else if (name == "--api") o.api = value;
    else if (name == "--victim") o.victim = std::stoi(value);
    else if (name == "--round") o.round = std::stol(value);
    else { std::fprintf(stderr, "dead_rank: unknown option %s\n", name.c_str()); return 2; }
  }
  if ((o.fault != "kill" && o.fault != "stop" && o.fault != "throw") || (o.api != "plan" && o.api != "grid")) {
    std::fprintf(stderr, "dead_rank: --fault kill|stop|throw, --api plan|grid\n");
    return 2;
  }
  gw::World* world = new gw::World;  // never destroyed: its destructor is collective, the job is broken
  if (o.victim < 0) o.victim = world->size() - 1;
  try {
    if (o.api == "plan") run_plan(*world, o);
    else run_grid(*world, o);
  } catch (const gw::TimeoutError& e) {
    std::printf("dead_rank: rank %d survivor ended by ghostwire's timeout: %s\n", world->rank(), e.what());
    std::fflush(stdout);
    if (!names_rank(e.what(), o.victim)) sleep(2);
    std::_Exit(124);
  }
}
