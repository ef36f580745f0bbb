// SPDX-License-Identifier: BSD-3-Clause
#include "copy_report.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "../gw-bench/size_list.hpp"

namespace copybench {
namespace {

const CopyResult* find(const std::vector<CopyResult>& results, const std::string& source, std::size_t bytes,
                       const std::string& impl) {
  for (const auto& r : results)
    if (r.source == source && r.bytes == bytes && r.impl == impl) return &r;
  return nullptr;
}

double gb_per_s(std::size_t bytes, double usec) { return usec > 0 ? static_cast<double>(bytes) / usec * 1e-3 : 0; }

}  // namespace

// As Python's statistics.median (the drivers re-derive these numbers): the mean of the middle two.
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

void print_table(const std::vector<CopyResult>& results, const std::vector<std::string>& impls) {
  std::vector<std::string> sources;
  for (const auto& r : results)
    if (std::find(sources.begin(), sources.end(), r.source) == sources.end()) sources.push_back(r.source);
  for (const auto& source : sources) {
    std::printf("\nsource %s: median usec (GB/s); ceiling = memcpy / impl bandwidth fraction\n%10s", source.c_str(),
                "size");
    for (const auto& impl : impls) std::printf(" %22s", impl.c_str());
    std::printf(" %9s %9s\n", "gw/ceil", "gw/get");
    std::vector<std::size_t> sizes;
    for (const auto& r : results)
      if (r.source == source && std::find(sizes.begin(), sizes.end(), r.bytes) == sizes.end()) sizes.push_back(r.bytes);
    for (std::size_t bytes : sizes) {
      std::printf("%10s", gwbench::format_size(bytes).c_str());
      for (const auto& impl : impls) {
        const CopyResult* r = find(results, source, bytes, impl);
        if (!r) {
          std::printf(" %22s", "-");
          continue;
        }
        const double t = median(r->usec);
        std::printf(" %10.2f (%8.3f)", t, gb_per_s(bytes, t));
      }
      const CopyResult *gw = find(results, source, bytes, "gw-copy"), *ceiling = find(results, source, bytes, "memcpy"),
                       *get = find(results, source, bytes, "mpi-get");
      if (gw && ceiling) std::printf(" %9.3f", median(ceiling->usec) / median(gw->usec));
      else std::printf(" %9s", "-");
      if (gw && get) std::printf(" %9.3f", median(gw->usec) / median(get->usec));
      std::printf("\n");
    }
  }
}

void print_json(const std::vector<CopyResult>& results, int ranks, int nodes) {
  for (const auto& r : results) {
    const double t = median(r.usec);
    const CopyResult* ceiling = find(results, r.source, r.bytes, "memcpy");
    std::string repeats;
    for (double u : r.usec) {
      if (!repeats.empty()) repeats += ',';
      repeats += std::to_string(u);
    }
    // ratio_to_memcpy: the fraction of the memcpy ceiling's bandwidth (memcpy time / this time).
    std::printf("{\"bench\":\"copy\",\"source\":\"%s\",\"bytes\":%zu,\"impl\":\"%s\",\"ranks\":%d,\"nodes\":%d,"
                "\"usec\":%.4f,\"usec_per_repeat\":[%s],\"gb_per_s\":%.4f,\"ratio_to_memcpy\":%.4f}\n",
                r.source.c_str(), r.bytes, r.impl.c_str(), ranks, nodes, t, repeats.c_str(), gb_per_s(r.bytes, t),
                ceiling ? median(ceiling->usec) / t : 0.0);
  }
}

}  // namespace copybench
