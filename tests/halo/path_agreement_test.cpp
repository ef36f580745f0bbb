// SPDX-License-Identifier: BSD-3-Clause
// The path registry and the agreement both ends of a slot reach from their candidate lists, without
// MPI: the built-in paths in their order of preference, names refused twice, a consent path skipped
// when the receiver does not offer it, a path the receiver prepares for taken only where the
// receiver expected it, and no path at all reported with both lists.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "halo/commit/slot_choice.hpp"
#include "halo/path_registry.hpp"

namespace {

using namespace ghostwire;
using namespace ghostwire::detail;

std::uint8_t index_of(const char* name) {
  const PathType* type = find_path(name);
  EXPECT_NE(type, nullptr) << name;
  return static_cast<std::uint8_t>(path_index(*type));
}

std::string agreed(std::vector<std::uint8_t> sender, std::vector<std::uint8_t> receiver, std::string* problem = nullptr) {
  std::string why;
  const PathType* type = agree_on_path(sender, receiver, why);
  if (problem) *problem = why;
  return type ? type->name() : "none";
}

TEST(PathRegistry, BuiltInPathsInTheirOrderOfPreference) {
  const std::vector<std::string> expected{"pushed",     "in-place",  "cross-memory",  "staged",
                                          "aggregated", "two-sided", "notified-write"};
  ASSERT_GE(registered_paths().size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_EQ(registered_paths()[k]->name(), expected[k]);
  EXPECT_EQ(find_path("sideways"), nullptr);
  EXPECT_NE(path_names().find("auto, pushed, in-place"), std::string::npos) << path_names();
  for (std::size_t k = 0; k < expected.size(); ++k)
    EXPECT_EQ(registered_paths()[k]->between_nodes(), k >= 4) << expected[k];
}

TEST(PathRegistry, ANameIsRegisteredOnce) {
  try {
    register_path(*find_path("staged"));
    ADD_FAILURE() << "registered a second path named staged";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), Errc::invalid_argument);
    EXPECT_NE(std::string(error.what()).find("'staged' is registered already"), std::string::npos) << error.what();
  }
}

TEST(PathAgreement, ConsentPathsNeedTheReceiver) {
  const std::uint8_t pushed = index_of("pushed"), staged = index_of("staged"), in_place = index_of("in-place");
  EXPECT_EQ(agreed({pushed, staged}, {in_place}), "staged");
  EXPECT_EQ(agreed({pushed, staged}, {pushed, in_place}), "pushed");
  EXPECT_EQ(agreed({in_place}, {pushed, in_place}), "in-place");  // the receiver's consent offers nothing more
  EXPECT_EQ(agreed({staged}, {}), "staged");                         // nothing needed of the receiver
}

TEST(PathAgreement, PreparedPathsMustBeTheReceiversExpectation) {
  const std::uint8_t two_sided = index_of("two-sided"), notified = index_of("notified-write");
  EXPECT_EQ(agreed({two_sided}, {two_sided}), "two-sided");
  std::string problem;
  EXPECT_EQ(agreed({two_sided}, {notified}, &problem), "none");
  EXPECT_NE(problem.find("the sender takes the two-sided path but the receiver prepared for notified-write"),
            std::string::npos)
      << problem;
  EXPECT_NE(problem.find("GHOSTWIRE_TRANSPORT"), std::string::npos) << problem;
}

TEST(PathAgreement, NoPathIsReportedWithBothLists) {
  const std::uint8_t pushed = index_of("pushed"), in_place = index_of("in-place");
  std::string problem;
  EXPECT_EQ(agreed({pushed}, {in_place}, &problem), "none");
  EXPECT_NE(problem.find("no path serves both sides (the sender offers pushed, the receiver accepts in-place)"),
            std::string::npos)
      << problem;
  EXPECT_EQ(agreed({63}, {in_place}, &problem), "none");  // an index this build does not have
}

}  // namespace
