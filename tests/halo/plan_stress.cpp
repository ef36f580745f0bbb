// SPDX-License-Identifier: BSD-3-Clause
// Randomised stress of halo plans: many exchanges of a periodic 2-D or 3-D decomposition with
// faces, edges and corners, random delays on both sides, and a random mix of exchange(),
// start()/finish() around "computation", explicit per-slot send/wait in random order and one
// channel at a time. After every exchange every cell is checked: a value from the wrong round
// (stale) or the wrong cell (misplaced) fails the run. Owned data is rewritten the moment an
// exchange returns, so a neighbour still reading it would be caught.
//
//   plan_stress [--rounds N] [--dimensions 2|3] [--max-delay-us D] [--seed S] [--all-shared 0|1]
//
// --all-shared 1 puts the second variable in a Segment too, so that node peers may push into it
// (GHOSTWIRE_INTRA_PATH=pushed pushes every slot whose receive memory is in Segments).
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "cartesian.hpp"
#include "ghostwire/plan.hpp"

using namespace ghostwire;
using gwtest::Decomposition;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long rounds = 1000, dimensions = 2, max_delay_us = 30, all_shared = 0;
  unsigned seed = 2024;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string name = argv[i];
    long value = std::strtol(argv[i + 1], nullptr, 10);
    if (name == "--rounds") rounds = value;
    else if (name == "--dimensions") dimensions = value;
    else if (name == "--max-delay-us") max_delay_us = value;
    else if (name == "--seed") seed = static_cast<unsigned>(value);
    else if (name == "--all-shared") all_shared = value;
    else { std::fprintf(stderr, "plan_stress: unknown option %s\n", name.c_str()); return 2; }
  }
  int failures = 0;
  {
    World world;
    Decomposition d;
    d.dimensions = static_cast<int>(dimensions);
    d.global = dimensions == 2 ? std::array<int, 3>{14, 11, 1} : std::array<int, 3>{8, 7, 6};
    d.halo = 1;
    d.decompose(world.rank(), world.size());
    const std::size_t cells = d.cells();
    // Two variables: one in a segment (read in place by node peers), one private (staged), or with
    // --all-shared 1 in a second segment.
    Segment shared(world, cells * sizeof(double)), second(world, all_shared ? cells * sizeof(double) : 1);
    std::vector<double> private_values(all_shared ? 0 : cells);
    double* arrays[2] = {reinterpret_cast<double*>(shared.data()),
                         all_shared ? reinterpret_cast<double*>(second.data()) : private_values.data()};

    Plan plan(world, d.neighbour_ranks(), Decomposition::channel_count);
    Region regions[2] = {plan.add_memory(shared, sizeof(double)),
                         all_shared ? plan.add_memory(second, sizeof(double))
                                    : plan.add_memory(private_values.data(), cells * sizeof(double), sizeof(double))};
    std::vector<std::pair<std::size_t, int>> send_slots, receive_slots;
    for (const auto& dir : d.directions()) {
      int r = d.neighbour(dir);
      std::array<int, 3> travel{-dir[0], -dir[1], -dir[2]};
      for (int v = 0; v < 2; ++v) {
        plan.add_send(Decomposition::channel_of(dir), r, regions[v], d.layout(d.send_box(dir), Decomposition::Kind::box));
        plan.add_receive(Decomposition::channel_of(travel), r, regions[v], d.layout(d.ghost_box(dir), Decomposition::Kind::box));
      }
      send_slots.emplace_back(Decomposition::channel_of(dir), r);
      receive_slots.emplace_back(Decomposition::channel_of(travel), r);
    }
    plan.commit();

    std::mt19937 shared_choice(seed);                                   // same on every rank
    std::mt19937 local(seed * 7919u + static_cast<unsigned>(world.rank()));  // delays and orders
    auto delay = [&] {
      if (max_delay_us > 0 && local() % 3 == 0)
        std::this_thread::sleep_for(std::chrono::microseconds(local() % static_cast<unsigned>(max_delay_us)));
    };
    const double sentinel = -3.25;
    auto fill = [&](int round) {
      for (int v = 0; v < 2; ++v)
        for (int z = -d.ghost(2); z < d.extent[2] + d.ghost(2); ++z)
          for (int y = -d.ghost(1); y < d.extent[1] + d.ghost(1); ++y)
            for (int x = -d.ghost(0); x < d.extent[0] + d.ghost(0); ++x) {
              bool owned = d.side(x, y, z) == std::array<int, 3>{0, 0, 0};
              double value = d.value({d.offset[0] + x, d.offset[1] + y, d.offset[2] + z}, round);
              arrays[v][d.index(x, y, z)] = owned ? value * (v + 1) : sentinel;
            }
    };
    const char* modes[] = {"exchange", "start/finish", "explicit slots", "channel by channel"};
    long checked = 0;
    for (int round = 0; round < rounds && failures == 0; ++round) {
      fill(round);
      delay();
      int mode = static_cast<int>(shared_choice() % 4);
      switch (mode) {
        case 0:
          plan.exchange();
          break;
        case 1:
          plan.start();
          delay();  // "computation" overlapping the exchange
          plan.finish();
          break;
        case 2: {
          std::shuffle(send_slots.begin(), send_slots.end(), local);
          std::shuffle(receive_slots.begin(), receive_slots.end(), local);
          for (auto [c, r] : send_slots) plan.send(c, r);
          delay();
          for (auto [c, r] : receive_slots) {
            if (local() % 2) {
              while (!plan.test_recv(c, r)) std::this_thread::yield();
            } else {
              plan.wait_recv(c, r);
            }
          }
          for (auto [c, r] : send_slots) plan.wait_send(c, r);
          break;
        }
        case 3: {
          std::vector<std::size_t> channels;
          for (const auto& dir : d.directions()) channels.push_back(Decomposition::channel_of(dir));
          std::shuffle(channels.begin(), channels.end(), shared_choice);
          for (std::size_t c : channels) plan.exchange(c);
          break;
        }
      }
      for (int v = 0; v < 2 && failures < 5; ++v)
        for (int z = -d.ghost(2); z < d.extent[2] + d.ghost(2); ++z)
          for (int y = -d.ghost(1); y < d.extent[1] + d.ghost(1); ++y)
            for (int x = -d.ghost(0); x < d.extent[0] + d.ghost(0); ++x) {
              double want = d.expected(x, y, z, round, sentinel);
              want = want == sentinel ? sentinel : want * (v + 1);
              double got = arrays[v][d.index(x, y, z)];
              ++checked;
              if (got != want && failures++ < 5)
                std::fprintf(stderr, "[rank %d] round %d (%s) variable %d cell (%d, %d, %d): %.17g, expected %.17g\n",
                             world.rank(), round, modes[mode], v, x, y, z, got, want);
            }
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    long total = 0;
    MPI_Allreduce(&checked, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (world.rank() == 0)
      std::printf("plan_stress: %ld exchanges of a %ld-D grid on %d ranks (%d node(s), transport %s), %ld cells checked, "
                  "%s: %s\n",
                  rounds, dimensions, world.size(), world.node_count(), transport_name(world.settings().transport),
                  total, plan.describe().find("pushed") != std::string::npos ? "some slots pushed" : "no slot pushed",
                  all ? "FAILED" : "no stale or misplaced value");
    failures = all;
  }
  MPI_Finalize();
  return failures ? 1 : 0;
}
