// SPDX-License-Identifier: BSD-3-Clause
// NamedRegistry: how every app registers its interchangeable variants (gw-heat's solvers and
// gw-minighost's variants, chosen with --variant; gw-cloverleaf's exchanges, --exchange;
// gw-cfdproxy's exchanges, --variant). Each variant's own file registers it under its name with a
// static Registration object, so adding a variant is adding its file (docs/heat.md, "Adding a
// variant"; docs/minighost.md, "Code: what is shared, what a variant supplies"; docs/cloverleaf.md,
// "Exchange variants"; docs/cfdproxy.md, "The variants").
//
// An app's Entry is an aggregate with a `name` and whatever its variants state besides (a factory,
// a --help line, flags). Listings (--help, 'all', the names an error message expects) follow the
// Entry's `position` where it has one (an app whose variants have a meaningful order, such as
// reference first, then baselines), else the names' order; never the order of registration, which
// is the order of static initialisation, i.e. of linking.
//
// Registrations run while other files' static objects are constructed, in an order nobody
// controls, so the registry is a function-local static: built on first use, whoever comes first.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ghostwire_programs {

template <class Entry>
class NamedRegistry {
 public:
  // The program's one registry of `Entry`s.
  static NamedRegistry& instance() {
    static NamedRegistry registry;
    return registry;
  }

  // A name registered twice is a mistake in the program: it stops before main runs.
  void add(Entry entry) {
    if (find(entry.name) != nullptr) {
      throw std::logic_error("'" + std::string(entry.name) + "' is registered twice");
    }
    entries_.insert(std::upper_bound(entries_.begin(), entries_.end(), entry, listed_before), std::move(entry));
  }

  // nullptr if `name` is not registered.
  const Entry* find(std::string_view name) const {
    for (const Entry& entry : entries_) {
      if (entry.name == name) return &entry;
    }
    return nullptr;
  }

  // In listing order. Complete once main runs (registrations happen before), and unchanged from
  // then on, so pointers into it stay valid.
  const std::vector<Entry>& entries() const { return entries_; }

  // The names in listing order, `separator` between them: "a, b, c" for an error message.
  std::string names(std::string_view separator = ", ") const {
    std::string text;
    for (const Entry& entry : entries_) {
      if (!text.empty()) text += separator;
      text += entry.name;
    }
    return text;
  }

 private:
  static bool listed_before(const Entry& a, const Entry& b) {
    if constexpr (requires(const Entry& e) { e.position; }) {
      if (a.position != b.position) return a.position < b.position;
    }
    return std::string_view(a.name) < std::string_view(b.name);
  }

  std::vector<Entry> entries_;
};

// A static object of this type registers an Entry built from its arguments (in the Entry's member
// order) when the program starts:
//   const Registration<RegisteredExchange> registration{"mpi", "the reference's exchange", make};
template <class Entry>
struct Registration {
  template <class... Fields>
  explicit Registration(Fields&&... fields) {
    NamedRegistry<Entry>::instance().add(Entry{std::forward<Fields>(fields)...});
  }
};

}  // namespace ghostwire_programs
