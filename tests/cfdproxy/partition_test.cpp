// SPDX-License-Identifier: BSD-3-Clause
// Partitions (original domains, METIS), the owned and halo counts of a partition against a brute
// force, and the partition report's table and JSON lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include "mesh.hpp"
#include "partition.hpp"
#include "partition_report.hpp"

namespace cfdproxy {
namespace {

const Mesh& mesh_20k() {
  static const Mesh mesh = generate_mesh(20000, 48);  // 27^3 = 19683 points
  return mesh;
}

std::vector<std::int64_t> part_sizes(const std::vector<std::int32_t>& part, int parts) {
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(parts), 0);
  for (std::int32_t p : part) {
    EXPECT_GE(p, 0);
    EXPECT_LT(p, parts);
    if (p >= 0 && p < parts) ++sizes[static_cast<std::size_t>(p)];
  }
  return sizes;
}

std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const MeshError& error) {
    return error.what();
  }
  return "(no MeshError)";
}

TEST(PartitionOriginal, WholeDomains) {
  const Mesh& mesh = mesh_20k();
  for (const int parts : {1, 2, 3, 4, 6, 8, 12, 16, 24, 48}) {
    const auto part = partition_original(mesh, parts);
    ASSERT_EQ(part.size(), static_cast<std::size_t>(mesh.points));
    for (std::size_t p = 0; p < part.size(); ++p) {
      ASSERT_EQ(part[p], mesh.domain[p] / (48 / parts)) << "point " << p << ", " << parts << " parts";
    }
    const auto sizes = part_sizes(part, parts);
    EXPECT_EQ(std::count(sizes.begin(), sizes.end(), 0), 0);
  }
}

TEST(PartitionOriginal, PartsMustDivideTheDomains) {
  const std::string message = message_of([] { partition_original(mesh_20k(), 5); });
  EXPECT_NE(message.find("48 domains cannot be split into 5 parts"), std::string::npos) << message;
  EXPECT_NE(message.find("divides 48"), std::string::npos) << message;
  EXPECT_NE(message_of([] { partition_original(mesh_20k(), 0); }).find("parts 0"), std::string::npos);
  EXPECT_NE(message_of([] { partition_original(mesh_20k(), 96); }).find("48 domains cannot be split into 96"),
            std::string::npos);
}

TEST(PartitionMetis, BalancedNonEmptyAndDeterministic) {
  const Mesh& mesh = mesh_20k();
  for (const int parts : {2, 3, 4, 5, 8}) {
    const auto part = partition_metis(mesh, parts);
    ASSERT_EQ(part.size(), static_cast<std::size_t>(mesh.points));
    const auto sizes = part_sizes(part, parts);
    const double average = static_cast<double>(mesh.points) / parts;
    for (int k = 0; k < parts; ++k) {
      const auto size = static_cast<double>(sizes[static_cast<std::size_t>(k)]);
      EXPECT_GT(size, 0.9 * average) << "part " << k << " of " << parts;
      EXPECT_LT(size, 1.1 * average) << "part " << k << " of " << parts;
    }
    EXPECT_EQ(partition_metis(mesh, parts), part) << parts << " parts: a second call differs";
  }
}

TEST(PartitionMetis, ManyPartsAreNonEmpty) {
  const auto part = partition_metis(mesh_20k(), 48);
  const auto sizes = part_sizes(part, 48);
  EXPECT_EQ(std::count(sizes.begin(), sizes.end(), 0), 0);
}

TEST(PartitionMetis, OnePartWithoutMetis) {
  const auto part = partition_metis(mesh_20k(), 1);
  EXPECT_EQ(part, std::vector<std::int32_t>(static_cast<std::size_t>(mesh_20k().points), 0));
}

TEST(PartitionMetis, BadPartCounts) {
  const Mesh mesh = generate_mesh(8, 1);
  EXPECT_NE(message_of([&] { partition_metis(mesh, 0); }).find("parts 0"), std::string::npos);
  EXPECT_NE(message_of([&] { partition_metis(mesh, 9); }).find("9 parts for 8 points"), std::string::npos);
}

// The halo of each part by definition: the distinct points of other parts on a face with one of its
// points, found part by part with sets.
std::vector<PartCounts> brute_force_counts(const Mesh& mesh, const std::vector<std::int32_t>& part, int parts) {
  std::vector<PartCounts> counts(static_cast<std::size_t>(parts));
  for (int k = 0; k < parts; ++k) {
    std::set<std::int64_t> halo;
    for (const auto& face : mesh.faces) {
      for (int side = 0; side < 2; ++side) {
        const std::int64_t mine = face[side], other = face[1 - side];
        if (part[static_cast<std::size_t>(mine)] == k && part[static_cast<std::size_t>(other)] != k) halo.insert(other);
      }
    }
    counts[static_cast<std::size_t>(k)].owned = std::count(part.begin(), part.end(), k);
    counts[static_cast<std::size_t>(k)].halo = static_cast<std::int64_t>(halo.size());
  }
  return counts;
}

TEST(CountPoints, MatchesBruteForce) {
  const Mesh mesh = generate_mesh(216, 6);
  std::vector<std::pair<std::vector<std::int32_t>, int>> partitions = {
      {partition_metis(mesh, 4), 4}, {partition_original(mesh, 3), 3}, {partition_metis(mesh, 7), 7}};
  // And an arbitrary one: points dealt round robin, so nearly every face is cut.
  std::vector<std::int32_t> dealt(static_cast<std::size_t>(mesh.points));
  for (std::size_t p = 0; p < dealt.size(); ++p) dealt[p] = static_cast<std::int32_t>(p % 5);
  partitions.emplace_back(dealt, 5);
  for (const auto& [part, parts] : partitions) {
    const auto counts = count_points(mesh, part, parts);
    const auto expected = brute_force_counts(mesh, part, parts);
    ASSERT_EQ(counts.size(), expected.size());
    for (std::size_t k = 0; k < counts.size(); ++k) {
      EXPECT_EQ(counts[k].owned, expected[k].owned) << "part " << k << " of " << parts;
      EXPECT_EQ(counts[k].halo, expected[k].halo) << "part " << k << " of " << parts;
      EXPECT_GT(counts[k].halo, 0);
    }
  }
  const auto whole = count_points(mesh, std::vector<std::int32_t>(static_cast<std::size_t>(mesh.points), 0), 1);
  EXPECT_EQ(whole[0].owned, mesh.points);
  EXPECT_EQ(whole[0].halo, 0);
}

TEST(CountPoints, RejectsBadPartitions) {
  const Mesh mesh = generate_mesh(27, 1);
  std::vector<std::int32_t> part(27, 0);
  EXPECT_NE(message_of([&] { count_points(mesh, std::vector<std::int32_t>(26, 0), 1); }).find("26 part entries for 27"),
            std::string::npos);
  part[5] = 3;
  EXPECT_NE(message_of([&] { count_points(mesh, part, 3); }).find("point 5 is in part 3, outside [0, 3)"),
            std::string::npos);
}

TEST(PartitionReport, TableAndJsonAgreeWithTheCounts) {
  const Mesh mesh = generate_mesh(1000, 8);
  std::ostringstream table, json;
  print_partition_report(mesh, {1, 2, 4}, table, &json);
  EXPECT_NE(table.str().find(mesh.description), std::string::npos) << table.str();

  std::istringstream lines(json.str());
  std::string line;
  std::vector<int> reported;
  while (std::getline(lines, line)) {
    std::smatch match;
    ASSERT_TRUE(std::regex_search(line, match, std::regex("\"parts\":([0-9]+)"))) << line;
    const int parts = std::stoi(match[1]);
    reported.push_back(parts);
    EXPECT_EQ(line.rfind("{\"app\":\"gw-cfdproxy\",\"report\":\"partition\",", 0), 0u) << line;
    const auto counts = count_points(mesh, partition_metis(mesh, parts), parts);
    std::string per_part = "\"per_part\":[";
    std::vector<double> owned, halo;
    for (std::size_t k = 0; k < counts.size(); ++k) {
      per_part += (k ? ",[" : "[") + std::to_string(counts[k].owned) + "," + std::to_string(counts[k].halo) + "]";
      owned.push_back(static_cast<double>(counts[k].owned));
      halo.push_back(static_cast<double>(counts[k].halo));
    }
    EXPECT_NE(line.find(per_part + "]}"), std::string::npos) << line;
    std::sort(owned.begin(), owned.end());
    std::sort(halo.begin(), halo.end());
    // median of an even count: the mean of the middle two
    const auto median = [](const std::vector<double>& v) {
      return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    std::ostringstream expected_halo;
    expected_halo << "\"halo\":{\"min\":" << halo.front() << ",\"median\":" << median(halo)
                  << ",\"max\":" << halo.back() << "}";
    EXPECT_NE(line.find(expected_halo.str()), std::string::npos) << line << "\n  lacks " << expected_halo.str();
    std::ostringstream expected_owned;
    expected_owned << "\"owned\":{\"min\":" << owned.front() << ",\"median\":" << median(owned)
                   << ",\"max\":" << owned.back() << "}";
    EXPECT_NE(line.find(expected_owned.str()), std::string::npos) << line << "\n  lacks " << expected_owned.str();
    if (parts == 1) {
      EXPECT_NE(line.find("\"add_per_own\":{\"min\":0.000000e+00,"), std::string::npos) << line;
    }
    // One table row per part count, starting with it.
    EXPECT_TRUE(std::regex_search(table.str(), std::regex("\\n +" + std::to_string(parts) + " \\|"))) << table.str();
  }
  EXPECT_EQ(reported, (std::vector<int>{1, 2, 4}));

  std::ostringstream table_only;
  print_partition_report(mesh, {2}, table_only, nullptr);
  EXPECT_NE(table_only.str().find(" 2 |"), std::string::npos);
  EXPECT_THROW(print_partition_report(mesh, {0}, table_only, nullptr), MeshError);
}

}  // namespace
}  // namespace cfdproxy
