// NamedRegistry: the factories of an app's interchangeable variants (gw-minighost's --variant,
// gw-cloverleaf's --exchange), each registered under a name with a one-line description by a static
// object in its own file. The app keeps one registry in a function-local static, because
// registrations run during the static initialisation of other files, in an order nobody controls.
#pragma once

#include <map>
#include <string>
#include <vector>

template <class Factory>
class NamedRegistry {
 public:
  struct Info {
    std::string name;
    std::string description;
  };

  void add(const char* name, const char* description, Factory factory) {
    entries_[name] = Entry{description, factory};
  }
  // nullptr if `name` is not registered.
  const Factory* find(const std::string& name) const {
    auto entry = entries_.find(name);
    return entry == entries_.end() ? nullptr : &entry->second.factory;
  }
  std::vector<Info> list() const {  // sorted by name
    std::vector<Info> infos;
    for (const auto& [name, entry] : entries_) infos.push_back({name, entry.description});
    return infos;
  }
  std::string names() const {  // "a, b, c", for the message naming what was expected
    std::string text;
    for (const auto& entry : entries_) text += (text.empty() ? "" : ", ") + entry.first;
    return text;
  }

 private:
  struct Entry {
    std::string description;
    Factory factory;
  };
  std::map<std::string, Entry> entries_;
};
