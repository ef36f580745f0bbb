// SPDX-License-Identifier: BSD-3-Clause
// The machine hierarchy: hwloc on this machine, both topology-file forms and their errors, the
// synthetic machines. No MPI needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"

using namespace ghostwire;
namespace topo = ghostwire::topo;

namespace {

// Runs `body`, expects a ghostwire::Error whose message holds every fragment.
template <typename Body>
void expect_error(Body body, std::initializer_list<const char*> fragments) {
  try {
    body();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    for (const char* f : fragments)
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << "'" << e.what() << "' lacks '" << f << "'";
  }
}

topo::TopologyFile parse(const std::string& text) {
  std::istringstream in(text);
  return topo::TopologyFile::parse(in, "machine.txt");
}

}  // namespace

TEST(Hwloc, DetectsThisMachine) {
  const topo::NodeHierarchy node = topo::detect_node();
  ASSERT_GE(node.cores(), 1);
  ASSERT_FALSE(node.levels.empty());
  EXPECT_EQ(node.levels.back(), "core");
  // Every machine hwloc knows has a package above its cores.
  EXPECT_EQ(node.levels.front(), "package");
  std::set<std::vector<int>> distinct;
  for (const auto& path : node.core_paths) {
    EXPECT_EQ(path.size(), node.levels.size());
    distinct.insert(path);
  }
  EXPECT_EQ(static_cast<int>(distinct.size()), node.cores()) << "every core has its own path";
  const int bound = topo::bound_core();
  EXPECT_GE(bound, -1);
  EXPECT_LT(bound, node.cores());
}

TEST(TopologyFile, CrayNames) {
  EXPECT_EQ(topo::parse_cray_name("c11-2c0s15n3"), (std::vector<int>{2005, 1, 0, 15, 3}));
  EXPECT_EQ(topo::parse_cray_name("c0-0c2s0n0"), (std::vector<int>{0, 0, 2, 0, 0}));
  for (const char* bad : {"c11-2c0s15", "c11c0s15n3", "x11-2c0s15n3", "c11-2c0s15n3x", "c-2c0s15n3", ""})
    expect_error([&] { topo::parse_cray_name(bad); }, {"not a Cray name"});
  // A row so large that the Aries group id overflowed an int (fuzz/regressions/topology_file).
  expect_error([&] { topo::parse_cray_name("c0-41111111c0s3n1"); }, {"out of range", "41111111"});
  expect_error([&] { topo::parse_cray_name("c2000-0c0s0n0"); }, {"column 2000"});
}

TEST(TopologyFile, CrayForm) {
  const auto file = parse(
      "# Hazel Hen, from xtprocadmin\n"
      "nid00012  c0-0c0s3n0\n"
      "nid00013  c0-0c0s3n1   # same blade\n"
      "\n"
      "nid01100  c3-1c2s15n3\n");
  EXPECT_EQ(file.levels(), (std::vector<std::string>{"group", "cabinet", "chassis", "blade", "node"}));
  EXPECT_EQ(file.size(), 3u);
  EXPECT_EQ(file.placement("nid00013"), (std::vector<int>{0, 0, 0, 3, 1}));
  EXPECT_EQ(file.placement("nid01100"), (std::vector<int>{1001, 1, 2, 15, 3}));
  expect_error([&] { file.placement("nid99999"); }, {"machine.txt", "nid99999", "not listed"});
}

TEST(TopologyFile, GenericForm) {
  const auto file = parse(
      "n001 rack=1,switch=3\n"
      "n002 rack=1,switch=3\n"
      "n003 rack=2,switch=leafA\n");
  EXPECT_EQ(file.levels(), (std::vector<std::string>{"rack", "switch", "node"}));
  EXPECT_EQ(file.placement("n001")[0], 1);
  EXPECT_EQ(file.placement("n001")[1], file.placement("n002")[1]);
  EXPECT_NE(file.placement("n001")[2], file.placement("n002")[2]) << "each host its own node";
  EXPECT_NE(file.placement("n003")[1], 3);
  const auto with_node = parse("a switch=0,node=5\nb switch=0,node=6\n");
  EXPECT_EQ(with_node.levels(), (std::vector<std::string>{"switch", "node"}));
  EXPECT_EQ(with_node.placement("b"), (std::vector<int>{0, 6}));
}

TEST(TopologyFile, MalformedLinesNameFileAndLine) {
  expect_error([] { parse("a c0-0c0s0n0\nb c0-0c0s0\n"); }, {"machine.txt:2:", "not a Cray name", "c0-0c0s0"});
  expect_error([] { parse("# header\n\nnodeonly\n"); }, {"machine.txt:3:", "HOST PLACEMENT"});
  expect_error([] { parse("a c0-0c0s0n0 extra\n"); }, {"machine.txt:1:", "unexpected 'extra'"});
  expect_error([] { parse("a c0-0c0s0n0\na c0-0c0s0n1\n"); }, {"machine.txt:2:", "listed twice"});
  expect_error([] { parse("a rack=1,switch=2\nb rack=1\n"); }, {"machine.txt:2:", "levels differ", "rack,switch"});
  expect_error([] { parse("a rack=1\nb rack=\n"); }, {"machine.txt:2:", "'rack=' is not level=value"});
  expect_error([] { parse("a rack=1\nb c0-0c0s0n0\n"); }, {"machine.txt:2:", "Cray placement"});
  expect_error([] { parse("a rack=1,rack=2\n"); }, {"machine.txt:1:", "appears twice"});
  expect_error([] { parse("# nothing\n"); }, {"machine.txt", "no host"});
  expect_error([] { topo::TopologyFile::read("/nonexistent/topology.txt"); }, {"/nonexistent/topology.txt", "cannot open"});
}

TEST(Synthetic, CraySparseAllocation) {
  const topo::Topology machine = topo::cray_sparse(384, 24, 7);
  EXPECT_EQ(machine.ranks(), 384 * 24);
  EXPECT_EQ(machine.node_count(), 384);
  EXPECT_EQ(machine.ranks_per_node(), 24);
  EXPECT_TRUE(machine.uniform_nodes());
  EXPECT_EQ(machine.levels()[static_cast<std::size_t>(machine.node_level())], "node");
  // Deterministic from the seed, different for another seed.
  EXPECT_EQ(topo::cray_sparse(384, 24, 7).path(5000), machine.path(5000));
  bool differs = false;
  const topo::Topology other = topo::cray_sparse(384, 24, 8);
  for (int r = 0; r < machine.ranks() && !differs; r += 24) differs = other.path(r) != machine.path(r);
  EXPECT_TRUE(differs);
  // Sparse: the nodes are spread over several groups, and many blades are partly ours.
  std::set<int> groups;
  std::set<std::vector<int>> blades;
  for (int r = 0; r < machine.ranks(); r += 24) {
    groups.insert(machine.path(r)[0]);
    blades.insert(std::vector<int>(machine.path(r).begin(), machine.path(r).begin() + 4));
  }
  EXPECT_GE(groups.size(), 8u);
  EXPECT_GT(blades.size(), 384u / 4);
  // Ranks in node-id order, a node's ranks consecutive.
  for (int r = 1; r < machine.ranks(); ++r) EXPECT_LE(machine.path(r - 1), machine.path(r));
}

TEST(Synthetic, FatTreeAndSpecs) {
  const topo::Topology tree = topo::fat_tree(64, 32);
  EXPECT_EQ(tree.ranks(), 2048);
  EXPECT_EQ(tree.node_count(), 64);
  EXPECT_EQ(tree.arities(), (std::vector<int>{8, 8, 2, 16}));
  EXPECT_EQ(tree.first_difference(0, 15), 3);  // same package, other core
  EXPECT_EQ(tree.first_difference(0, 31), 2);  // other package
  EXPECT_EQ(tree.first_difference(0, 32), 1);  // same switch, other node
  EXPECT_EQ(tree.first_difference(0, 8 * 32), 0);
  EXPECT_EQ(topo::make_machine("cray-sparse:16x4:3").ranks(), 64);
  EXPECT_EQ(topo::make_machine("fat-tree:16x2:4").arities()[0], 4);
  EXPECT_EQ(topo::make_machine("hosts:3x5").node_count(), 3);
  expect_error([] { topo::make_machine("torus:4x4"); }, {"torus:4x4", "cray-sparse"});
  expect_error([] { topo::make_machine("fat-tree:64"); }, {"NODESxCORES"});
  const std::string describe = tree.describe();
  EXPECT_NE(describe.find("switch: 8"), std::string::npos) << describe;
  EXPECT_NE(describe.find("node: 64 (the node level)"), std::string::npos) << describe;
}
