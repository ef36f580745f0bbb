// SPDX-License-Identifier: BSD-3-Clause
// gw-cfdproxy: CFD-Proxy (EXA2CT) on ghostwire, with the reference's MPI exchange and commfree in
// the same binary (--variant), so every comparison is a side-by-side run. See docs/cfdproxy.md.
//
// Exit status: 0 success, 1 bad input (a mesh that cannot be read, a partition that cannot be
// made), 2 usage error; both printed once.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <ghostwire/ghostwire.hpp>

#include "checksums.hpp"
#include "exchange.hpp"
#include "fields.hpp"
#include "ghost_check.hpp"
#include "local_domain.hpp"
#include "mesh.hpp"
#include "mesh_broadcast.hpp"
#include "options.hpp"
#include "partition.hpp"
#include "partition_report.hpp"
#include "report.hpp"
#include "solver.hpp"
#include "thread_team.hpp"
#include "usage_error.hpp"

namespace cfdproxy {
namespace {

struct Failure {
  int status;
  std::string message;
};

// Rank 0's failure (or none) becomes every rank's: all leave together.
void agree_on_failure(const Failure* failure, MPI_Comm comm, int rank) {
  int status = failure ? failure->status : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, comm);
  if (status == 0) return;
  if (rank == 0) std::fprintf(stderr, "gw-cfdproxy: %s\n", failure->message.c_str());
  throw Failure{status, ""};
}

// Any rank's failure: every rank learns the lowest failing rank's status; each prints its own.
void agree_on_local_failure(const Failure* failure, MPI_Comm comm, int rank) {
  int status = failure ? failure->status : 0;
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, comm);
  if (status == 0) return;
  if (failure) std::fprintf(stderr, "gw-cfdproxy: rank %d: %s\n", rank, failure->message.c_str());
  throw Failure{status, ""};
}

std::string default_mesh(bool& generated) {
  const std::filesystem::path data = GW_CFDPROXY_DEFAULT_MESH;
  generated = !std::filesystem::is_directory(data);
  return generated ? "generated:200000" : data.string();
}

std::vector<std::int32_t> make_partition(const Mesh& mesh, const Options& o, int ranks) {
  if (o.partition == PartitionKind::original) {
    if (mesh.domains % ranks != 0)
      throw UsageError("--partition original: " + std::to_string(ranks) + " ranks do not divide the mesh's " +
                       std::to_string(mesh.domains) + " domains (each rank takes whole domains); use a divisor of " +
                       std::to_string(mesh.domains) + " or --partition metis");
    return partition_original(mesh, ranks);
  }
  return partition_metis(mesh, ranks);
}

std::string describe_layout(const LocalDomain& d, const std::string& colour_source, MPI_Comm comm) {
  long long least = -1, most = 0, swept = 0;  // faces per thread; faces swept over all threads
  for (const Share& share : d.shares) {
    const auto faces = static_cast<long long>(share.faces.size());
    least = least < 0 ? faces : std::min(least, faces);
    most = std::max(most, faces);
    swept += faces;
  }
  long long mine[6] = {d.owned, d.all - d.owned, static_cast<long long>(d.partners.size()),
                       static_cast<long long>(d.faces.size()), least, most};
  long long low[6], high[6], sum[6], twice = swept - static_cast<long long>(d.faces.size()), twice_sum = 0;
  MPI_Reduce(mine, low, 6, MPI_LONG_LONG, MPI_MIN, 0, comm);
  MPI_Reduce(mine, high, 6, MPI_LONG_LONG, MPI_MAX, 0, comm);
  MPI_Reduce(mine, sum, 6, MPI_LONG_LONG, MPI_SUM, 0, comm);
  MPI_Reduce(&twice, &twice_sum, 1, MPI_LONG_LONG, MPI_SUM, 0, comm);
  std::ostringstream text;
  text << "owned points per rank " << low[0] << ".." << high[0] << ", halo points " << low[1] << ".." << high[1]
       << " (add/own " << (sum[0] ? static_cast<double>(sum[1]) / static_cast<double>(sum[0]) : 0.0)
       << "), partners " << low[2] << ".." << high[2] << ", faces per rank " << low[3] << ".." << high[3];
  if (d.threads() > 1)
    text << "\nfaces per thread " << low[4] << ".." << high[5] << " (threads take runs of " << colour_source
         << " point colours), faces swept by two threads " << twice_sum << " ("
         << (sum[3] ? 100.0 * static_cast<double>(twice_sum) / static_cast<double>(sum[3]) : 0.0) << "%)";
  return text.str();
}

// Rank 0 loads the mesh and partitions it, or prints the partition report; every rank learns
// whether that failed (and leaves with rank 0's status if it did).
void load_on_rank_zero(const Options& o, bool generated_default, MPI_Comm comm, Mesh& mesh,
                       std::vector<std::int32_t>& part) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::unique_ptr<Failure> failure;
  if (rank == 0) {
    try {
      if (generated_default)
        std::printf("gw-cfdproxy: no DLR-F6 data at %s; using --mesh %s\n", GW_CFDPROXY_DEFAULT_MESH, o.mesh.c_str());
      mesh = load_mesh(o.mesh);
      if (!o.report_parts.empty()) {
        print_partition_report(mesh, o.report_parts, std::cout, &std::cout);
      } else {
        part = make_partition(mesh, o, ranks);
      }
    } catch (const UsageError& e) {
      failure = std::make_unique<Failure>(Failure{ghostwire_programs::usage_error_status, e.what()});
    } catch (const std::exception& e) {
      failure = std::make_unique<Failure>(Failure{1, e.what()});
    }
  }
  agree_on_failure(failure.get(), comm, rank);
}

// This rank's part of the broadcast mesh; a rank that cannot build it stops every rank.
LocalDomain local_domain_of(const Mesh& mesh, const std::vector<std::int32_t>& part, int threads, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  LocalDomain domain;
  std::unique_ptr<Failure> failure;
  try {
    domain = build_local_domain(mesh, part, rank, threads);
  } catch (const std::exception& e) {
    failure = std::make_unique<Failure>(Failure{1, e.what()});
  }
  agree_on_local_failure(failure.get(), comm, rank);
  return domain;
}

void print_run_header(const RunDescription& run, const Options& o, const std::string& layout) {
  std::printf("gw-cfdproxy: %s, %lld points, %lld faces; %d ranks x %d thread%s, partition %s, init %s; variants",
              run.mesh.c_str(), run.points, run.faces, run.ranks, run.threads, run.threads == 1 ? "" : "s",
              run.partition.c_str(), run.init.c_str());
  for (const std::string& v : o.variants) std::printf(" %s", v.c_str());
  std::printf("; %d iterations x %d round%s\n%s\n", o.iterations, o.rounds, o.rounds == 1 ? "" : "s", layout.c_str());
  std::fflush(stdout);
}

// Everything a timed round needs: this rank's domain and fields, and each variant's exchange.
struct Contest {
  const Options& o;
  const LocalDomain& domain;
  Fields& fields;
  std::vector<std::unique_ptr<Exchange>>& exchanges;
  ThreadTeam& team;
  MPI_Comm comm;
  int rank;
};

// After a variant's last round: its checksums, and with --check-ghosts its ghosts against their
// owners' values. Returns the ghosts that differ.
std::int64_t check_last_round(const Contest& c, VariantResult& result) {
  result.checksums = compute_checksums(c.domain, c.fields, c.comm);
  if (!c.o.check_ghosts || result.variant == "commfree") return 0;
  const GhostCheck check = check_ghosts(c.domain, c.fields, c.comm);
  if (c.rank == 0)
    std::printf("ghost check %s: %lld ghost points, %lld differ from their owner's values\n", result.variant.c_str(),
                static_cast<long long>(check.ghosts), static_cast<long long>(check.mismatches));
  return check.mismatches;
}

// The warmup, then every variant once per round in a rotated order. Returns the ghosts that
// differ from their owners' values (with --check-ghosts).
std::int64_t run_rounds(const Contest& c, std::vector<VariantResult>& results) {
  const Options& o = c.o;
  if (o.warmup > 0)
    for (auto& exchange : c.exchanges) {
      initialise(c.domain, o.init, c.fields);
      run_iterations(c.domain, c.fields, *exchange, o.warmup, c.comm, c.team);
    }
  std::int64_t ghost_mismatches = 0;
  for (int round = 0; round < o.rounds; ++round) {
    // Rotating the order cancels what running first or last does to a variant (caches, the VM).
    for (std::size_t k = 0; k < o.variants.size(); ++k) {
      const std::size_t v = (k + static_cast<std::size_t>(round)) % o.variants.size();
      initialise(c.domain, o.init, c.fields);
      results[v].rounds.push_back(run_iterations(c.domain, c.fields, *c.exchanges[v], o.iterations, c.comm, c.team));
      if (round == o.rounds - 1) ghost_mismatches += check_last_round(c, results[v]);
    }
    if (c.rank == 0 && o.rounds > 1) {
      std::printf("round %d/%d:", round + 1, o.rounds);
      for (const VariantResult& r : results) std::printf("  %s %.4f ms", r.variant.c_str(), r.rounds.back().total * 1e3);
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  return ghost_mismatches;
}

// Rank 0: the phase table, the checksum lines and the JSON lines (also to --output).
void print_results(const RunDescription& run, const std::vector<VariantResult>& results, const Options& o) {
  std::string lines;
  for (const VariantResult& r : results)
    lines += checksum_lines(r.checksums, results.size() > 1 ? " (" + r.variant + ")" : "");
  for (const VariantResult& r : results) lines += json_line(run, r) + "\n";
  std::printf("%s%s", phase_table(results).c_str(), lines.c_str());
  std::fflush(stdout);
  if (!o.output.empty()) {
    std::ofstream file(o.output);
    file << lines;
    if (!file) std::fprintf(stderr, "gw-cfdproxy: cannot write --output %s\n", o.output.c_str());
  }
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

// With several threads every variant but commfree calls MPI (or a plan) from all of them.
std::string thread_level_problem(const Options& o) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  if (o.threads == 1 || provided >= MPI_THREAD_MULTIPLE) return "";
  for (const std::string& v : o.variants)
    if (ExchangeRegistry::instance().find(v)->sends_from_threads)
      return "--threads " + std::to_string(o.threads) + ": variant " + v + " sends from every thread, which needs " +
             "MPI_THREAD_MULTIPLE, but this MPI provides " + thread_level_name(provided) +
             " (use --threads 1, or an MPI built with thread support)";
  return "";
}

int run(int argc, char** argv) {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  Options o;
  try {
    o = parse_options(argc, argv);
  } catch (const UsageError& e) {
    return ghostwire_programs::report_usage_error(e, "gw-cfdproxy: ", rank);
  }
  if (o.help) {
    if (rank == 0) std::cout << usage_text(argv[0]);
    return 0;
  }
  if (const std::string problem = thread_level_problem(o); !problem.empty()) {
    if (rank == 0) std::fprintf(stderr, "gw-cfdproxy: %s\n", problem.c_str());
    return 1;
  }
  bool generated_default = false;
  if (!o.mesh_given) o.mesh = default_mesh(generated_default);

  Mesh mesh;
  std::vector<std::int32_t> part;
  load_on_rank_zero(o, generated_default, comm, mesh, part);
  if (!o.report_parts.empty()) return 0;
  broadcast_mesh(mesh, 0, comm);
  broadcast_partition(part, 0, comm);
  const LocalDomain domain = local_domain_of(mesh, part, o.threads, comm);
  const RunDescription run{mesh.description, static_cast<long long>(mesh.points),
                           static_cast<long long>(mesh.faces.size()), ranks, o.threads, partition_name(o.partition),
                           init_name(o.init), o.iterations, o.rounds};
  const std::string colour_source = mesh.colour_source;
  mesh = Mesh{};  // the local domain has what this rank needs
  part.clear();
  part.shrink_to_fit();

  ghostwire::World world(comm);
  ThreadTeam team(o.threads, world.oversubscribed() || threads_oversubscribe(world.machine_ranks(), o.threads));
  Fields fields(world, domain);
  std::vector<std::unique_ptr<Exchange>> exchanges;
  for (const std::string& v : o.variants)
    exchanges.push_back(make_exchange(v, ExchangeContext{world, domain, fields, team}));
  const std::string layout = describe_layout(domain, colour_source, comm);
  if (rank == 0) print_run_header(run, o, layout);

  std::vector<VariantResult> results(o.variants.size());
  for (std::size_t v = 0; v < o.variants.size(); ++v) results[v].variant = o.variants[v];
  const std::int64_t ghost_mismatches = run_rounds(Contest{o, domain, fields, exchanges, team, comm, rank}, results);
  if (rank == 0) print_results(run, results, o);
  return ghost_mismatches ? 1 : 0;
}

}  // namespace
}  // namespace cfdproxy

int main(int argc, char** argv) {
  // Threads that call MPI need MPI_THREAD_MULTIPLE; one thread keeps the level MPI is fastest at.
  const int required = cfdproxy::threads_before_parsing(argc, argv) > 1 ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, required, &provided);
  int status = 0;
  try {
    status = cfdproxy::run(argc, argv);
  } catch (const cfdproxy::Failure& f) {
    status = f.status;
  } catch (const std::exception& e) {
    // Unexpected and possibly on one rank alone: the others may be waiting for it.
    std::fprintf(stderr, "gw-cfdproxy: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
