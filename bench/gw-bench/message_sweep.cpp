// SPDX-License-Identifier: BSD-3-Clause
#include "message_sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "mpi_call.hpp"
#include "result_report.hpp"
#include "size_list.hpp"
#include "usage_error.hpp"

namespace gwbench {
namespace {

constexpr long max_iterations = 100'000'000;

// Rank 0 decides, rank 1 follows: both must run the same number of iterations.
long agree(const RunContext& context, long value) {
  mpi_call(MPI_Bcast(&value, 1, MPI_LONG, 0, context.pair_comm()), "MPI_Bcast");
  return value;
}

// Warm-up, bounded in time: 4 MiB windows over TCP take a quarter second each, so ten of them
// would cost more than the measurement.
void warm_up(RunContext& context, const MessageOptions& o, const SweepSpec& spec, Messenger& m, std::size_t bytes) {
  if (o.warmup <= 0) return;
  double first = spec.kernel(m, bytes, 1);
  long more = 0;
  if (context.rank() == 0)
    more = std::min(o.warmup - 1, static_cast<long>(o.min_time / 4 / std::max(first, 1e-9)));
  more = agree(context, more);
  if (more > 0) spec.kernel(m, bytes, more);
}

// The iteration count that makes one repetition last about --min-time: grow a probe until it
// takes an eighth of that, then scale.
long calibrate(RunContext& context, const MessageOptions& o, const SweepSpec& spec, Messenger& m, std::size_t bytes) {
  if (o.iterations > 0) return o.iterations;
  const double probe_target = o.min_time / 8;
  long n = 1;
  for (;;) {
    context.pair_barrier();
    double seconds = spec.kernel(m, bytes, n);
    long next = 0;  // > 0: probe again with this count; < 0: the answer, negated
    if (context.rank() == 0) {
      seconds = std::max(seconds, 1e-9);
      if (seconds >= probe_target || n >= max_iterations) {
        double wanted = std::ceil(static_cast<double>(n) * o.min_time / seconds);
        next = -std::clamp(static_cast<long>(std::min(wanted, 1e18)), 1L, max_iterations);
      } else {
        double grow = std::clamp(1.5 * probe_target / seconds, 2.0, 16.0);
        next = std::min(max_iterations, static_cast<long>(std::ceil(static_cast<double>(n) * grow)));
      }
    }
    next = agree(context, next);
    if (next < 0) return -next;
    n = next;
  }
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::vector<std::string> choose_implementations(const RunContext& context, const MessageOptions& o) {
  if (o.implementations.empty()) return default_implementations(context);
  std::vector<std::string> chosen;
  for (const std::string& name : implementation_names()) {  // report order, whatever the order asked
    if (std::find(o.implementations.begin(), o.implementations.end(), name) == o.implementations.end()) continue;
    if (std::string why = unavailable_reason(name, context); !why.empty())
      throw UsageError("--impl " + name + " cannot run on the " + context.path() + " path: " + why);
    chosen.push_back(name);
  }
  return chosen;
}

void print_heading(const RunContext& context, const MessageOptions& o, const SweepSpec& spec,
                   const std::vector<std::unique_ptr<Messenger>>& messengers) {
  std::printf("# gw-bench %s: ranks 0 and 1 of %d, path %s (%d host%s, %d ghostwire node%s), %s\n", spec.bench.c_str(),
              context.size(), context.path().c_str(), context.hosts(), context.hosts() == 1 ? "" : "s",
              context.ghostwire_nodes(), context.ghostwire_nodes() == 1 ? "" : "s", context.mpi_library().c_str());
  std::printf("# %s; median of %d repetition%s", spec.what.c_str(), o.repeats, o.repeats == 1 ? "" : "s");
  if (o.iterations > 0)
    std::printf(" of %ld iterations\n", o.iterations);
  else
    std::printf(" of ~%.3g s each\n", o.min_time);
  std::printf("# implementations:");
  for (const auto& m : messengers)
    std::printf(" %s%s%s%s", m->name().c_str(), m->transport().empty() ? "" : " (", m->transport().c_str(),
                m->transport().empty() ? "" : ")");
  std::printf("\n");
  for (const std::string& name : implementation_names()) {
    std::string why = unavailable_reason(name, context);
    if (!why.empty() && name != "gw-p2p" && name != "gw-rma") std::printf("# not here: %s (%s)\n", name.c_str(), why.c_str());
  }
  std::fflush(stdout);
}

}  // namespace

int run_message_sweep(RunContext& context, const MessageOptions& o, const SweepSpec& spec) {
  const std::vector<std::string> names = choose_implementations(context, o);
  std::vector<std::unique_ptr<Messenger>> messengers;
  for (const std::string& name : names) messengers.push_back(make_messenger(name, context, spec.layout, o.verify));

  const bool printing = context.rank() == 0;
  const bool table = o.format != OutputFormat::json, json = o.format != OutputFormat::table;
  RunDescription run{context.path(), context.size(), context.ghostwire_nodes(), context.hosts(), context.mpi_library(),
                     verify_name(o.verify)};
  ResultTable result_table(names, spec.bandwidth);
  if (printing && table) {
    print_heading(context, o, spec, messengers);
    result_table.print_heading(stdout);
  }

  std::vector<Result> results;
  Deadline deadline = o.deadline;
  using clock = Deadline::clock;
  if (context.in_pair()) {
    for (std::size_t point = 0; point < o.sizes.size(); ++point) {
      const std::size_t bytes = o.sizes[point];
      // Rank 0's clock decides for both (agree): they must run the same repetitions.
      if (deadline.set() &&
          !agree(context, deadline.begin_point(static_cast<int>(o.sizes.size() - point), clock::now()) ? 1 : 0)) {
        deadline.note_skipped(format_size(bytes));
        continue;
      }
      std::vector<long> iterations;
      for (auto& m : messengers) {
        warm_up(context, o, spec, *m, bytes);
        iterations.push_back(calibrate(context, o, spec, *m, bytes));
      }
      std::vector<std::vector<double>> seconds(messengers.size());
      const auto first = clock::now();
      for (int repeat = 0; repeat < o.repeats; ++repeat) {
        for (std::size_t k = 0; k < messengers.size(); ++k) {
          context.pair_barrier();
          seconds[k].push_back(spec.kernel(*messengers[k], bytes, iterations[k]));
        }
        if (deadline.set() && repeat + 1 < o.repeats) {
          const auto now = clock::now();
          const double mean = std::chrono::duration<double>(now - first).count() / (repeat + 1);
          if (!agree(context, deadline.another_fits(mean, now, repeat + 1, o.repeats) ? 1 : 0)) break;
        }
      }
      const int done = static_cast<int>(seconds[0].size());
      if (done < o.repeats) deadline.note_cut(format_size(bytes), done, o.repeats);
      if (!printing) continue;
      std::vector<Result> row;
      for (std::size_t k = 0; k < messengers.size(); ++k) {
        double messages = static_cast<double>(iterations[k]) * spec.messages_per_iteration;
        auto usec = [&](double s) { return s / messages * 1e6; };
        Result r;
        r.bench = spec.bench;
        r.impl = messengers[k]->name();
        r.transport = messengers[k]->transport();
        r.bytes = bytes;
        r.usec = usec(median(seconds[k]));
        r.usec_min = usec(*std::min_element(seconds[k].begin(), seconds[k].end()));
        r.usec_max = usec(*std::max_element(seconds[k].begin(), seconds[k].end()));
        r.mbps = static_cast<double>(bytes) / r.usec;
        r.iterations = iterations[k];
        r.repeats = done;
        r.repeats_asked = o.repeats;
        r.window = spec.window;
        for (double s : seconds[k]) r.usec_per_repeat.push_back(usec(s));
        row.push_back(r);
      }
      if (table) result_table.print_row(stdout, bytes, row);
      if (json && !table)
        for (const Result& r : row) std::printf("%s\n", json_line(r, run).c_str());
      std::fflush(stdout);
      results.insert(results.end(), row.begin(), row.end());
    }
  }
  if (printing) {
    if (json && table)
      for (const Result& r : results) std::printf("%s\n", json_line(r, run).c_str());
    std::printf("# gw-bench %s: %zu results (%zu sizes x %zu implementations), every received message verified (%s)\n",
                spec.bench.c_str(), results.size(), results.size() / std::max<std::size_t>(1, messengers.size()),
                messengers.size(), o.verify == Verify::full ? "every byte" : "stamps in the first and last bytes");
    deadline.print_cuts(stdout, ("gw-bench " + spec.bench).c_str());
    std::fflush(stdout);
  }
  context.barrier_sleeping_outside_pair();
  // Destruction is collective (windows, segments): the same order on every rank.
  while (!messengers.empty()) messengers.pop_back();
  return 0;
}

}  // namespace gwbench
