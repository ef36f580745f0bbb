// SPDX-License-Identifier: BSD-3-Clause
// Misuse catalogue: topology (files, names, mappings, reordering) in C++ and C.
#include <sstream>
#include <vector>

#include "ghostwire/topo.hpp"
#include "misuse_catalogue.hpp"

using namespace ghostwire;
using misuse::c_call;
using misuse::Case;

namespace {

TEST(MisuseCatalogue, Topo) {
  World& world = gwtest::world();
  const int size = world.size();
  gw_world_t c_world = nullptr;
  ASSERT_EQ(gw_world_create(MPI_COMM_WORLD, &c_world), GW_SUCCESS) << gw_last_error_message();
  const std::vector<int> not_a_permutation(static_cast<std::size_t>(size), size);
  std::vector<int> rank_of(static_cast<std::size_t>(size));
  const int dims_ok[2] = {size, 1};
  const int dims_wrong[2] = {size + 1, 1};
  const int periodic[2] = {0, 0};
  const auto parse = [](const char* text) {
    std::istringstream in(text);
    (void)topo::TopologyFile::parse(in, "machine.txt");
  };
  MPI_Comm reordered = MPI_COMM_NULL;
  misuse::check_table("MisuseCatalogue.Topo", {
      {"topo::parse_cray_name", "not a Cray name", Errc::invalid_argument, "'c11-2c0s15' is not a Cray name",
       [] { (void)topo::parse_cray_name("c11-2c0s15"); }},
      {"topo::TopologyFile::read", "missing file", Errc::invalid_argument, "/nonexistent/machine.txt",
       [] { (void)topo::TopologyFile::read("/nonexistent/machine.txt"); }},
      {"topo::TopologyFile::parse", "host without placement", Errc::invalid_argument, "machine.txt:1: expected 'HOST PLACEMENT'",
       [&] { parse("lonely\n"); }},
      {"topo::TopologyFile::parse", "host listed twice", Errc::invalid_argument, "host 'a' is listed twice",
       [&] { parse("a rack=1\na rack=2\n"); }},
      {"topo::TopologyFile::placement", "unlisted host", Errc::invalid_argument, "host 'b' is not listed",
       [] {
         std::istringstream in("a rack=1\n");
         (void)topo::TopologyFile::parse(in, "machine.txt").placement("b");
       }},
      {"topo::method_from_name", "unknown method", Errc::invalid_argument, "nope",
       [] { (void)topo::method_from_name("nope"); }},
      {"topo::make_machine", "unknown machine spec", Errc::invalid_argument, "bogus",
       [] { (void)topo::make_machine("bogus"); }},
      {"topo::reordered_comm", "assignment not a permutation", Errc::invalid_argument, "reordered_comm",
       [&] { (void)topo::reordered_comm(world.comm(), topo::Assignment(not_a_permutation)); }},
      {"topo::detect", "settings.ranks_per_node < 0", Errc::invalid_argument, "settings.ranks_per_node is -1",
       [] {
         Settings settings;
         settings.ranks_per_node = -1;
         (void)topo::detect(MPI_COMM_WORLD, settings);
       }},
      {"gw_topo_place_cartesian", "world = NULL", Errc::invalid_argument, "world is NULL",
       [&] { c_call(gw_topo_place_cartesian(nullptr, GW_PLACEMENT_RANK_ORDER, 2, dims_ok, periodic, nullptr, rank_of.data())); }},
      {"gw_topo_place_cartesian", "dims = NULL", Errc::invalid_argument, "dims is NULL",
       [&] { c_call(gw_topo_place_cartesian(c_world, GW_PLACEMENT_RANK_ORDER, 2, nullptr, periodic, nullptr, rank_of.data())); }},
      {"gw_topo_place_cartesian", "rank_of_position = NULL", Errc::invalid_argument, "rank_of_position is NULL",
       [&] { c_call(gw_topo_place_cartesian(c_world, GW_PLACEMENT_RANK_ORDER, 2, dims_ok, periodic, nullptr, nullptr)); }},
      {"gw_topo_place_cartesian", "placement = 7", Errc::invalid_argument, "placement",
       [&] { c_call(gw_topo_place_cartesian(c_world, 7, 2, dims_ok, periodic, nullptr, rank_of.data())); }},
      {"gw_topo_place_cartesian", "ndims = 0", Errc::invalid_argument, "ndims",
       [&] { c_call(gw_topo_place_cartesian(c_world, GW_PLACEMENT_RANK_ORDER, 0, dims_ok, periodic, nullptr, rank_of.data())); }},
      {"gw_topo_place_cartesian", "dims product != world size", Errc::invalid_argument, "positions but the world has",
       [&] { c_call(gw_topo_place_cartesian(c_world, GW_PLACEMENT_RANK_ORDER, 2, dims_wrong, periodic, nullptr, rank_of.data())); }},
      {"gw_topo_map_cartesian", "dims = NULL", Errc::invalid_argument, "dims is NULL",
       [&] { c_call(gw_topo_map_cartesian(c_world, 2, nullptr, periodic, rank_of.data())); }},
      {"gw_topo_reordered_comm", "rank_of_position = NULL", Errc::invalid_argument, "rank_of_position is NULL",
       [&] { c_call(gw_topo_reordered_comm(MPI_COMM_WORLD, nullptr, &reordered)); }},
      {"gw_topo_reordered_comm", "reordered = NULL", Errc::invalid_argument, "reordered is NULL",
       [&] { c_call(gw_topo_reordered_comm(MPI_COMM_WORLD, rank_of.data(), nullptr)); }},
  });
  EXPECT_EQ(gw_world_destroy(&c_world), GW_SUCCESS);
  world.barrier();
}

}  // namespace
