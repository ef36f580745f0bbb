// SPDX-License-Identifier: BSD-3-Clause
// gw-topo: prints the machine hierarchy ghostwire detects, and evaluates rank mappings of a
// Cartesian process grid on a machine (synthetic, a topology file, or the job's own); see
// docs/topology.md, "First steps". It runs on a World, so it reads the GHOSTWIRE_* variables as
// every ghostwire program does (Settings) and its collectives time out like ghostwire's waits.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ghostwire/collective.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"
#include "ghostwire/world.hpp"
#include "runtime/mpi_check.hpp"

namespace topo = ghostwire::topo;
using ghostwire::World;
using ghostwire::detail::check_mpi;

namespace {

std::string json_string(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) quoted += c;
  }
  return quoted + "\"";
}

const char* usage_text = R"(usage:
  gw-topo                  print the hierarchy detected for this job (hwloc inside a node; across
                           nodes GHOSTWIRE_TOPOLOGY=FILE or host names); run it under mpirun to see
                           every rank
  gw-topo map --grid GRID --machine MACHINE [options]
                           evaluate every mapping of the process grid onto the machine: a table,
                           then one JSON line per mapping

map options:
  --grid 3d:NX,NY,NZ | 2d:NX,NY | 3d:auto | 2d:auto   the process grid (auto: like MPI_Dims_create);
                           periodic unless ":open" is appended (3d:24,24,16:open)
  --machine cray-sparse:NODESxCORES[:SEED]   a Cray XC-like machine, NODES scattered in short runs
            fat-tree:NODESxCORES[:PER_SWITCH] a 2-level fat tree, every node allocated
            hosts:NODESxCORES                 nodes known by name only
            file:PATH:CORES                   every host of a topology file, CORES ranks each
            detect                            this job's ranks (run under mpirun)
  --local N[,N,N]          cells per rank and dimension (default 64 in 3-D, 512 in 2-D)
  --element BYTES          bytes per cell (default 8)
  --methods a,b,...        rank_order, dims_blocking, study, scotch, hierarchical (default: all)

With --machine detect and one rank per grid position, also what MPI makes of the grid on this
launch: mpi_cart (MPI_Cart_create with reorder=1; a no-op in Open MPI and MPICH) and
mpi_dist_graph (MPI_Dist_graph_create_adjacent with reorder=1 and the halo bytes as weights; Open
MPI maps it with treematch when that topo component is selected: OMPI_MCA_topo=treematch,basic).

examples:
  gw-topo map --grid 3d:24,24,16 --machine cray-sparse:384x24      # the DASH study's 3-D stencil, 9,216 ranks
  gw-topo map --grid 2d:auto --machine cray-sparse:384x24:7 --local 1024
  gw-topo map --grid 3d:auto:open --machine fat-tree:64x32
  GHOSTWIRE_TOPOLOGY=nodes.txt gw-topo map --grid 3d:auto --machine file:nodes.txt:24
  mpirun -n 8 gw-topo map --grid 3d:auto --machine detect
)";

// On a real launch (--machine detect, one rank per grid position): what MPI itself makes of the
// grid. MPI_Cart_create(reorder=1) and MPI_Dist_graph_create_adjacent(reorder=1) (Open MPI's
// treematch when its topo component is selected) each give this process a new rank; the process
// with new rank p computes position p (Cartesian ranks are row-major, and graph vertex p is the
// position this program declared for old rank p). Collective; every rank gets rank_of[position].
// The gather is an allreduce of one-hot vectors: it waits like every ghostwire wait.
topo::Assignment gather_positions(World& world, int new_rank) {
  const int size = world.size();
  std::vector<std::int64_t> positions(static_cast<std::size_t>(size), 0);
  positions[static_cast<std::size_t>(world.rank())] = new_rank;
  ghostwire::allreduce(world, std::span<std::int64_t>(positions), ghostwire::ReduceOp::sum);
  topo::Assignment rank_of(static_cast<std::size_t>(size), -1);
  for (int r = 0; r < size; ++r)
    if (positions[static_cast<std::size_t>(r)] >= 0 && positions[static_cast<std::size_t>(r)] < size)
      rank_of[static_cast<std::size_t>(positions[static_cast<std::size_t>(r)])] = r;
  return rank_of;
}

// The rank this process has in `made`, a communicator just created (and now freed). Creating a
// communicator has no non-blocking form: the calls are checked, not timed.
int rank_in(MPI_Comm made) {
  int new_rank = -1;
  check_mpi(MPI_Comm_rank(made, &new_rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_free(&made), "MPI_Comm_free");
  return new_rank;
}

topo::Assignment mpi_cart_reorder(World& world, const topo::CartGrid& grid) {
  std::vector<int> dims(grid.extents.begin(), grid.extents.end()), periods;
  for (bool p : grid.periodic) periods.push_back(p ? 1 : 0);
  MPI_Comm cart = MPI_COMM_NULL;
  check_mpi(MPI_Cart_create(world.comm(), grid.dimensions(), dims.data(), periods.data(), 1, &cart), "MPI_Cart_create");
  return gather_positions(world, rank_in(cart));
}

topo::Assignment mpi_dist_graph_reorder(World& world, const topo::CartGrid& grid) {
  const int rank = world.rank();
  const topo::Graph graph = topo::Graph::of(grid);
  std::vector<int> neighbours, weights;
  // MPI weights are ints: halo bytes in KiB, at least 1.
  for (int e = graph.offsets[static_cast<std::size_t>(rank)]; e < graph.offsets[static_cast<std::size_t>(rank) + 1]; ++e) {
    neighbours.push_back(graph.targets[static_cast<std::size_t>(e)]);
    weights.push_back(static_cast<int>(std::clamp<std::int64_t>(graph.weights[static_cast<std::size_t>(e)] / 1024, 1, 1 << 30)));
  }
  const int degree = static_cast<int>(neighbours.size());
  MPI_Comm dist = MPI_COMM_NULL;
  check_mpi(MPI_Dist_graph_create_adjacent(world.comm(), degree, neighbours.data(), weights.data(), degree,
                                           neighbours.data(), weights.data(), MPI_INFO_NULL, 1, &dist),
            "MPI_Dist_graph_create_adjacent");
  return gather_positions(world, rank_in(dist));
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "gw-topo: %s\n%s", message.c_str(), usage_text);
  std::exit(2);
}

std::vector<int> parse_list(const std::string& text, const char* option) {
  std::vector<int> values;
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 1 || v > 1 << 24)
      usage_error(std::string(option) + " '" + text + "': expected positive integers separated by commas");
    values.push_back(static_cast<int>(v));
  }
  return values;
}

int print_detected(World& world) {
  const topo::Topology machine = topo::detect(world);
  if (world.rank() != 0) return 0;
  const std::string& file = world.settings().topology_file;
  std::printf("across nodes: %s\n", file.empty() ? "host names" : ("topology file " + file).c_str());
  std::printf("%s", machine.describe().c_str());
  for (int r = 0; r < machine.ranks(); ++r) {
    std::printf("rank %d on %s:", r, machine.host(r).c_str());
    for (int l = 0; l < machine.level_count(); ++l)
      std::printf(" %s=%d", machine.levels()[static_cast<std::size_t>(l)].c_str(), machine.path(r)[static_cast<std::size_t>(l)]);
    std::printf("\n");
  }
  return 0;
}

struct MapOptions {
  std::string grid_spec, machine_spec, methods_text;
  std::vector<int> local;
  int element = 8;
};

MapOptions parse_map_options(int argc, char** argv) {
  MapOptions options;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--grid") options.grid_spec = value();
    else if (arg == "--machine") options.machine_spec = value();
    else if (arg == "--local") options.local = parse_list(value(), "--local");
    else if (arg == "--element") options.element = parse_list(value(), "--element").at(0);
    else if (arg == "--methods") options.methods_text = value();
    else usage_error("unknown option '" + arg + "'");  // --help was answered before MPI_Init
  }
  if (options.grid_spec.empty() || options.machine_spec.empty()) usage_error("map needs --grid and --machine");
  if (options.local.empty()) options.local = {options.grid_spec.rfind("2d", 0) == 0 ? 512 : 64};
  return options;
}

// One mapping evaluated: a row of the table and one JSON line.
struct Row {
  std::string name;
  topo::Assignment rank_of;
  double seconds = 0;  // to compute the mapping
  topo::Evaluation e;
};

// On a real launch, MPI's own reorderings (every rank takes part).
std::vector<Row> mpi_reorderings(World& world, const topo::CartGrid& grid) {
  std::vector<Row> rows;
  for (const char* name : {"mpi_cart", "mpi_dist_graph"}) {
    world.barrier();
    const auto start = std::chrono::steady_clock::now();
    topo::Assignment a =
        std::string(name) == "mpi_cart" ? mpi_cart_reorder(world, grid) : mpi_dist_graph_reorder(world, grid);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rows.push_back({name, std::move(a), seconds, {}});
  }
  return rows;
}

std::vector<topo::Method> chosen_methods(const MapOptions& options) {
  if (options.methods_text.empty()) return topo::all_methods();
  std::vector<topo::Method> methods;
  std::istringstream items(options.methods_text);
  std::string item;
  while (std::getline(items, item, ',')) methods.push_back(topo::method_from_name(item));
  return methods;
}

std::vector<Row> map_with_methods(const std::vector<topo::Method>& methods, const topo::CartGrid& grid,
                                  const topo::Topology& machine) {
  std::vector<Row> rows;
  for (topo::Method m : methods) {
    const auto start = std::chrono::steady_clock::now();
    try {
      topo::Assignment a = topo::map(m, grid, machine);
      rows.push_back({topo::method_name(m), std::move(a),
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), {}});
    } catch (const ghostwire::Error& e) {
      std::printf("%-14s %s\n", topo::method_name(m), e.what());
    }
  }
  return rows;
}

void print_table(const std::vector<Row>& rows, const topo::Topology& machine) {
  const topo::Evaluation* base = nullptr;
  for (const auto& r : rows)
    if (r.name == topo::method_name(topo::Method::rank_order)) base = &r.e;
  for (const auto& r : rows) {
    const double bytes_ratio = base && base->internode_bytes ? static_cast<double>(r.e.internode_bytes) / static_cast<double>(base->internode_bytes) : 0;
    const double speedup = base && r.e.model_time_s > 0 ? base->model_time_s / r.e.model_time_s : 0;
    std::printf("%-14s %7d %6d %10lld %14lld %8.3f %12lld %10.2f %9.2f %10.4f\n", r.name.c_str(), r.e.ranks,
                r.e.nodes, static_cast<long long>(r.e.internode_edges), static_cast<long long>(r.e.internode_bytes), bytes_ratio,
                static_cast<long long>(r.e.max_node_bytes), r.e.model_time_s * 1e6, speedup, r.seconds);
  }
  std::printf("\nbytes crossing each level:\n%-14s", "mapping");
  for (const auto& l : machine.levels()) std::printf(" %14s", l.c_str());
  std::printf("\n");
  for (const auto& r : rows) {
    std::printf("%-14s", r.name.c_str());
    for (const auto& c : r.e.crossing) std::printf(" %14lld", static_cast<long long>(c.bytes));
    std::printf("\n");
  }
  std::printf("\n");
}

void print_json(const std::vector<Row>& rows, const MapOptions& options) {
  for (const auto& r : rows) {
    std::printf("{\"tool\":\"gw-topo\",\"mapping\":%s,\"machine\":%s,\"grid\":%s,\"ranks\":%d,\"nodes\":%d,\"edges\":%lld,"
                "\"bytes\":%lld,\"internode_edges\":%lld,\"internode_bytes\":%lld,\"max_node_bytes\":%lld,",
                json_string(r.name).c_str(), json_string(options.machine_spec).c_str(),
                json_string(options.grid_spec).c_str(), r.e.ranks, r.e.nodes, static_cast<long long>(r.e.edges),
                static_cast<long long>(r.e.bytes), static_cast<long long>(r.e.internode_edges),
                static_cast<long long>(r.e.internode_bytes), static_cast<long long>(r.e.max_node_bytes));
    std::printf("\"crossing_bytes\":{");
    for (std::size_t l = 0; l < r.e.crossing.size(); ++l)
      std::printf("%s%s:%lld", l ? "," : "", json_string(r.e.crossing[l].level).c_str(), static_cast<long long>(r.e.crossing[l].bytes));
    std::printf("},\"model_time_s\":%.9g,\"seconds_to_map\":%.6g}\n", r.e.model_time_s, r.seconds);
  }
}

int evaluate_mappings(World& world, int argc, char** argv) {
  const MapOptions options = parse_map_options(argc, argv);
  const bool detected = options.machine_spec == "detect";
  const topo::Topology machine = detected ? topo::detect(world) : topo::make_machine(options.machine_spec);
  const topo::CartGrid grid = topo::CartGrid::parse(options.grid_spec, machine.ranks(), options.local, options.element);
  std::vector<Row> from_mpi;
  if (detected && grid.size() == machine.ranks()) from_mpi = mpi_reorderings(world, grid);
  if (world.rank() != 0) return 0;
  const std::vector<topo::Method> methods = chosen_methods(options);

  std::printf("machine %s: %s", options.machine_spec.c_str(), machine.describe().c_str());
  std::printf("grid %s: %s\n\n", options.grid_spec.c_str(), grid.describe().c_str());
  std::printf("%-14s %7s %6s %10s %14s %8s %12s %10s %9s %10s\n", "mapping", "ranks", "nodes", "inter-edges",
              "inter-bytes", "x rank", "max node B", "model us", "speedup", "map s");
  std::vector<Row> rows = map_with_methods(methods, grid, machine);
  for (Row& r : from_mpi) {
    if (topo::is_permutation(r.rank_of, grid.size()))
      rows.push_back(std::move(r));
    else
      std::printf("%-14s MPI returned ranks that are not a permutation\n", r.name.c_str());
  }
  const auto costs = topo::default_costs(machine);
  for (Row& r : rows) r.e = topo::evaluate(grid, machine, r.rank_of, costs);
  print_table(rows, machine);
  print_json(rows, options);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "-h" || command == "--help") {
    std::printf("%s", usage_text);
    return 0;
  }
  if (!command.empty() && command != "map") usage_error("unknown command '" + command + "'");
  if (command == "map")
    for (int i = 2; i < argc; ++i)
      if (std::string(argv[i]) == "-h" || std::string(argv[i]) == "--help") {
        std::printf("%s", usage_text);
        return 0;
      }
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    std::fprintf(stderr, "gw-topo: MPI_Init failed\n");
    return 1;
  }
  int status = 0;
  try {
    World world(MPI_COMM_WORLD);  // the GHOSTWIRE_* settings, read once
    status = command.empty() ? print_detected(world) : evaluate_mappings(world, argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gw-topo: %s\n", e.what());
    status = 1;
  }
  if (MPI_Finalize() != MPI_SUCCESS && status == 0) {
    std::fprintf(stderr, "gw-topo: MPI_Finalize failed\n");
    status = 1;
  }
  return status;
}
