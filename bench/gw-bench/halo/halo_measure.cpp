// SPDX-License-Identifier: BSD-3-Clause
#include "halo_measure.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <stdexcept>

#include "../mpi_call.hpp"
#include "../run_context.hpp"
#include "exchanger.hpp"
#include "field_check.hpp"
#include "reverse_check.hpp"

namespace gwbench::halo {
namespace {

constexpr long max_iterations = 100'000'000;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// A step's parts around the exchange, by direction. Forward: owned cells rewritten, received
// ghosts used and checked (field_check.hpp). Reverse: owned cells and ghosts rewritten, the owned
// cells that receive sums used and checked (reverse_check.hpp).
struct ForwardSteps {
  static constexpr Direction direction = Direction::forward;
  FieldCheck check;
  ForwardSteps(const HaloCase& c, const RunContext&) : check(c) {}
  static void exchange(Exchanger& x) { x.exchange(); }
  void prepare(double* field, std::uint64_t) const { check.advance_owned(field); }
  void use(const double* field) { check.touch_received(field); }
  void check_step(const double* field, std::uint64_t e, const std::string& impl) const {
    check.check_received(field, e, impl);
  }
  void check_all(const double* field, std::uint64_t e, const std::string& impl, bool fills_every_ghost) const {
    check.check(field, e, impl, fills_every_ghost ? FieldCheck::Unfilled::may_change : FieldCheck::Unfilled::untouched);
  }
};

struct ReverseSteps {
  static constexpr Direction direction = Direction::reverse;
  ReverseCheck check;
  ReverseSteps(const HaloCase& c, const RunContext& context) : check(c, context.rank(), context.size()) {}
  static void exchange(Exchanger& x) { x.reverse_sum(); }
  void prepare(double* field, std::uint64_t e) const { check.advance(field, e); }
  void use(const double* field) { check.touch_reduced(field); }
  void check_step(const double* field, std::uint64_t e, const std::string& impl) const {
    check.check_reduced(field, e, impl);
  }
  // Every implementation with a reverse exchange leaves the ghosts no message fills alone.
  void check_all(const double* field, std::uint64_t e, const std::string& impl, bool) const {
    check.check(field, e, impl);
  }
};

template <class Steps>
class CaseBench {
 public:
  CaseBench(RunContext& context, const HaloOptions& options, const HaloCase& c, const std::vector<std::string>& names)
      : options_(options),
        steps_(c, context),
        field_(std::make_unique<ghostwire::Segment>(context.world(), std::max<std::size_t>(1, c.elements) * sizeof(double), 1)),
        names_(names) {
    ExchangerSetup setup{context, c, *field_, Steps::direction};
    for (const std::string& name : names) exchangers_.push_back(make_exchanger(name, setup));
  }
  ~CaseBench() {
    // A failed check or wait on one rank: the job is about to be aborted, and the other ranks would
    // never join the collective destructors, so leave everything as it is.
    if (std::uncaught_exceptions() > 0) {
      for (auto& exchanger : exchangers_) (void)exchanger.release();
      (void)field_.release();
      return;
    }
    // Destruction is collective (plans, windows, communicators): the same order on every rank.
    while (!exchangers_.empty()) exchangers_.pop_back();
  }

  // One exchange with every element written beforehand and checked afterwards.
  void verified_exchange(std::size_t k) {
    Exchanger& x = *exchangers_[k];
    std::uint64_t e = next_epochs(1);
    steps_.check.fill(x.field(), e);
    Steps::exchange(x);
    steps_.check_all(x.field(), e, names_[k], x.fills_every_ghost());
  }

  // `count` steps, each as an application's (field_check.hpp): rewrite every owned element, wait
  // for every rank (MPI_Barrier), then time the exchange and a load from every line of received
  // ghosts; then check every received ghost. The untimed parts cost in proportion to the whole
  // array (a 128^3 block's rewrite takes milliseconds, its exchange microseconds), and the barrier
  // keeps a rank's imbalance in them out of its neighbours' exchange times. A repetition's time is
  // the slowest rank's sum of timed parts; calibration aims the whole loop's wall time at
  // --min-time.
  struct Timing {
    double exchange_seconds;  // slowest rank
    double wall_seconds;      // slowest rank
  };
  Timing timed(std::size_t k, long count) {
    using clock = std::chrono::steady_clock;
    Exchanger& x = *exchangers_[k];
    double* field = x.field();
    const std::string& name = names_[k];
    std::uint64_t e = next_epochs(static_cast<std::uint64_t>(count));
    const bool every = options_.verify == HaloVerify::every;
    if (!every) steps_.check.fill(field, e - 1);  // the step before the first
    clock::duration exchanging{};
    mpi_call(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    const auto start = clock::now();
    for (long i = 0; i < count; ++i, ++e) {
      if (every) steps_.check.fill(field, e);
      else steps_.prepare(field, e);
      mpi_call(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
      const auto before = clock::now();
      if (k != 0 || i + 1 != options_.skip_exchange) Steps::exchange(x);
      steps_.use(field);
      exchanging += clock::now() - before;
      if (every) steps_.check_all(field, e, name, x.fills_every_ghost());
      else steps_.check_step(field, e, name);
    }
    double seconds[2] = {std::chrono::duration<double>(exchanging).count(),
                         std::chrono::duration<double>(clock::now() - start).count()};
    mpi_call(MPI_Allreduce(MPI_IN_PLACE, seconds, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    return {seconds[0], seconds[1]};
  }

  void warm_up(std::size_t k) {
    if (options_.warmup <= 0) return;
    double first = timed(k, 1).wall_seconds;
    long more = std::min(options_.warmup - 1, static_cast<long>(options_.min_time / 4 / std::max(first, 1e-9)));
    if (more > 0) timed(k, more);
  }

  // The count that makes one repetition (steps between exchanges included) last about
  // --min-time: grow a probe until it takes an eighth of that, then scale. Every rank sees the
  // same (reduced) times, so all decide alike.
  long calibrate(std::size_t k) {
    if (options_.iterations > 0) return options_.iterations;
    const double probe_target = options_.min_time / 8;
    long n = 1;
    for (;;) {
      double seconds = std::max(timed(k, n).wall_seconds, 1e-9);
      if (seconds >= probe_target || n >= max_iterations) {
        double wanted = std::ceil(static_cast<double>(n) * options_.min_time / seconds);
        return std::clamp(static_cast<long>(std::min(wanted, 1e18)), 1L, max_iterations);
      }
      double grow = std::clamp(1.5 * probe_target / seconds, 2.0, 16.0);
      n = std::min(max_iterations, static_cast<long>(std::ceil(static_cast<double>(n) * grow)));
    }
  }

  std::size_t size() const { return exchangers_.size(); }
  std::string transport(std::size_t k) const { return exchangers_[k]->transport(); }
  long internode_messages(std::size_t k) const { return exchangers_[k]->internode_messages(); }

 private:
  // Reserves `count` fresh epochs; values stay exact doubles, or the run stops with a clear error.
  std::uint64_t next_epochs(std::uint64_t count) {
    std::uint64_t first = epoch_ + 1;
    epoch_ += count;
    if (epoch_ > steps_.check.epoch_limit())
      throw std::runtime_error("halo: more than " + std::to_string(steps_.check.epoch_limit()) +
                               " exchanges of one case; the verification values would lose precision "
                               "(use a smaller --min-time or --iterations)");
    return first;
  }

  const HaloOptions& options_;
  Steps steps_;
  std::unique_ptr<ghostwire::Segment> field_;  // the array gw and the MPI implementations exchange on
  std::vector<std::string> names_;
  std::vector<std::unique_ptr<Exchanger>> exchangers_;
  std::uint64_t epoch_ = 0;
};

}  // namespace

CaseStats case_stats(const HaloCase& c) {
  unsigned long long sums[2] = {c.receive_elements() * sizeof(double), c.receives.size()};
  int neighbours = static_cast<int>(c.neighbours().size());
  mpi_call(MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  mpi_call(MPI_Allreduce(MPI_IN_PLACE, &neighbours, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return {sums[0], static_cast<long>(sums[1]), neighbours};
}

namespace {

// Every rank's `count` (collective); empty where the implementation does not say (-1 everywhere).
std::vector<long> by_rank(long count) {
  int ranks = 0;
  mpi_call(MPI_Comm_size(MPI_COMM_WORLD, &ranks), "MPI_Comm_size");
  std::vector<long> all(static_cast<std::size_t>(ranks));
  mpi_call(MPI_Allgather(&count, 1, MPI_LONG, all.data(), 1, MPI_LONG, MPI_COMM_WORLD), "MPI_Allgather");
  if (count < 0) all.clear();
  return all;
}

template <class Steps>
std::vector<HaloResult> measure_with(RunContext& context, const HaloOptions& o, const HaloCase& c,
                                     const CaseStats& stats, const std::vector<std::string>& names, Deadline& deadline) {
  CaseBench<Steps> bench(context, o, c, names);
  const std::size_t count = bench.size();
  for (std::size_t k = 0; k < count; ++k) bench.verified_exchange(k);
  std::vector<long> iterations;
  for (std::size_t k = 0; k < count; ++k) {
    bench.warm_up(k);
    iterations.push_back(bench.calibrate(k));
  }
  std::vector<std::vector<double>> seconds(count);
  using clock = Deadline::clock;
  const auto first = clock::now();
  int done = 0;
  for (int repeat = 0; repeat < o.repeats; ++repeat) {
    for (std::size_t k = 0; k < count; ++k) {
      seconds[k].push_back(bench.timed(k, iterations[k]).exchange_seconds);
      bench.verified_exchange(k);
    }
    done = repeat + 1;
    if (deadline.set() && done < o.repeats) {
      const auto now = clock::now();
      const double mean = std::chrono::duration<double>(now - first).count() / done;
      if (!rank0_decides(deadline.another_fits(mean, now, done, o.repeats))) break;
    }
  }
  if (done < o.repeats) deadline.note_cut(c.name, done, o.repeats);

  std::vector<HaloResult> results;
  for (std::size_t k = 0; k < count; ++k) {
    auto usec = [&](double s) { return s / static_cast<double>(iterations[k]) * 1e6; };
    HaloResult r;
    r.case_name = c.name;
    r.impl = names[k];
    r.transport = bench.transport(k);
    if (!o.reverse) r.internode_messages = by_rank(bench.internode_messages(k));  // the forward plan's
    r.usec = usec(median(seconds[k]));
    r.usec_min = usec(*std::min_element(seconds[k].begin(), seconds[k].end()));
    r.usec_max = usec(*std::max_element(seconds[k].begin(), seconds[k].end()));
    r.iterations = iterations[k];
    r.repeats = done;
    r.repeats_asked = o.repeats;
    r.bytes_per_exchange = stats.bytes_per_exchange;
    r.messages = stats.messages;
    r.neighbours = stats.neighbours;
    for (double s : seconds[k]) r.usec_per_repeat.push_back(usec(s));
    results.push_back(r);
  }
  return results;
}

}  // namespace

std::vector<HaloResult> measure_case(RunContext& context, const HaloOptions& o, const HaloCase& c,
                                     const CaseStats& stats, const std::vector<std::string>& names, Deadline& deadline) {
  if (o.reverse) return measure_with<ReverseSteps>(context, o, c, stats, names, deadline);
  return measure_with<ForwardSteps>(context, o, c, stats, names, deadline);
}

bool rank0_decides(bool answer) {
  int value = answer ? 1 : 0;
  mpi_call(MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return value != 0;
}

}  // namespace gwbench::halo
