// SPDX-License-Identifier: BSD-3-Clause
// The apps' variant registry (apps/common/named_registry.hpp), which gw-heat's --variant and --help
// list in its order: entries with a position are listed by position, then by name; entries without
// one by name; never in registration order. A name registered twice is refused, and static
// Registration objects have registered before main. Prints the first failure and exits 1. No MPI.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "named_registry.hpp"

namespace {

struct Placed {
  std::string name;
  int position;
};

struct Named {
  std::string name;
  std::string description;
};

struct Registered {
  std::string name;
  int position;
};

// Registered while static objects are constructed, in the opposite of their listing order.
const ghostwire_programs::Registration<Registered> second{"second", 2};
const ghostwire_programs::Registration<Registered> first{"first", 1};

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "named_registry_test: FAILED: %s\n", what.c_str());
  ++failures;
}

void expect_names(const std::string& got, const std::string& expected, const std::string& what) {
  expect(got == expected, what + ": got '" + got + "', expected '" + expected + "'");
}

void test_listed_by_position_then_name() {
  ghostwire_programs::NamedRegistry<Placed> registry;
  registry.add({"seq", 1});
  registry.add({"commfree", 3});
  registry.add({"mpi-b", 2});
  registry.add({"mpi-a", 2});
  expect_names(registry.names(), "seq, mpi-a, mpi-b, commfree", "position, then name");
  expect_names(registry.names(","), "seq,mpi-a,mpi-b,commfree", "names with a separator");
  expect(registry.entries().size() == 4 && registry.entries().front().name == "seq", "entries in listing order");
}

void test_listed_by_name() {
  ghostwire_programs::NamedRegistry<Named> registry;
  registry.add({"mpi", "the baseline"});
  registry.add({"commfree", "no exchange"});
  registry.add({"gw", "ghostwire"});
  expect_names(registry.names(), "commfree, gw, mpi", "no position: by name");
  const Named* gw = registry.find("gw");
  expect(gw != nullptr && gw->description == "ghostwire", "find a registered name");
  expect(registry.find("g") == nullptr && registry.find("") == nullptr && registry.find("gw ") == nullptr,
         "find only the exact name");
}

void test_duplicate_refused() {
  ghostwire_programs::NamedRegistry<Named> registry;
  registry.add({"mpi", "first"});
  bool refused = false;
  try {
    registry.add({"mpi", "second"});
  } catch (const std::logic_error&) {
    refused = true;
  }
  expect(refused, "a name registered twice is refused");
  expect(registry.entries().size() == 1 && registry.find("mpi")->description == "first",
         "a refused registration changes nothing");
}

void test_static_registrations() {
  const auto& registry = ghostwire_programs::NamedRegistry<Registered>::instance();
  expect_names(registry.names(), "first, second", "static registrations, in listing order");
  expect(&registry == &ghostwire_programs::NamedRegistry<Registered>::instance(), "one registry per entry type");
}

}  // namespace

int main() {
  test_listed_by_position_then_name();
  test_listed_by_name();
  test_duplicate_refused();
  test_static_registrations();
  if (failures == 0) std::printf("named_registry_test: all passed\n");
  return failures == 0 ? 0 : 1;
}
