// SPDX-License-Identifier: BSD-3-Clause
// World: node discovery, the wait policy, whether MPI has windows between nodes, the transport;
// teardown. Invariants: nodes are numbered by their lowest rank and every rank computes the same
// layout and the same answer on windows; a World whose wait timed out (broken) frees nothing
// collectively. docs/runtime.md, "World" and "Waiting and timeouts"; docs/running.md.
#include "ghostwire/world.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

#include "ghostwire/error.hpp"
#include "mpi_check.hpp"
#include "reduction_area.hpp"
#include "segment_state.hpp"
#include "threads.hpp"
#include "transport.hpp"
#include "wait.hpp"
#include "world_state.hpp"

namespace ghostwire {
namespace detail {

WorldState::WorldState() = default;
WorldState::~WorldState() = default;

void WorldState::progress() {
  if (!transport) return;
  const ProgressTurn turn(*this);
  if (!turn) return;
  std::unique_lock<std::mutex> own(transport_mutex, std::try_to_lock);
  if (own) transport->progress();  // else another thread is in the transport: it serves it
}

SegmentState& WorldState::segment(int id, int from_rank) {
  if (id < 0 || static_cast<std::size_t>(id) >= segments.size() || segments[id] == nullptr)
    raise(Errc::internal, "rank " + std::to_string(rank) + " received a notified write from rank " +
                              std::to_string(from_rank) + " for segment " + std::to_string(id) +
                              ", which does not exist here (destroyed before the write arrived?)");
  return *segments[id];
}

std::string WorldState::where() const {
  std::ostringstream text;
  text << "rank " << rank << " (node " << node << ", node rank " << node_rank << ")";
  return text.str();
}

namespace {

// Groups ranks into nodes: ranks that share memory, cut into groups of k consecutive ranks when
// nodes are emulated. Nodes are numbered by their lowest rank.
void discover_nodes(WorldState& w) {
  check_mpi(MPI_Comm_split_type(w.comm, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &w.physical_node_comm),
            "MPI_Comm_split_type");
  int color = w.settings.ranks_per_node > 0 ? w.rank / w.settings.ranks_per_node : 0;
  check_mpi(MPI_Comm_split(w.physical_node_comm, color, w.rank, &w.node_comm), "MPI_Comm_split");
  check_mpi(MPI_Comm_rank(w.node_comm, &w.node_rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(w.node_comm, &w.node_size), "MPI_Comm_size");

  w.node_ranks.resize(static_cast<std::size_t>(w.node_size));
  check_mpi(MPI_Allgather(&w.rank, 1, MPI_INT, w.node_ranks.data(), 1, MPI_INT, w.node_comm), "MPI_Allgather");
  int leader = w.node_ranks.front();  // split keys keep rank order, so the first is the lowest

  std::vector<int> leaders(static_cast<std::size_t>(w.size));
  check_mpi(MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, w.comm), "MPI_Allgather");
  std::vector<int> distinct = leaders;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  w.node_count = static_cast<int>(distinct.size());

  w.node_of_rank.resize(leaders.size());
  w.node_rank_of_rank.resize(leaders.size());
  std::vector<int> members(distinct.size(), 0);
  for (std::size_t r = 0; r < leaders.size(); ++r) {
    int node = static_cast<int>(std::lower_bound(distinct.begin(), distinct.end(), leaders[r]) - distinct.begin());
    w.node_of_rank[r] = node;
    w.node_rank_of_rank[r] = members[static_cast<std::size_t>(node)]++;
  }
  w.node = w.node_of_rank[static_cast<std::size_t>(w.rank)];
}

// The kernel's boot id names the machine a process runs on, also across containers and UTS
// namespaces, where MPI_COMM_TYPE_SHARED sees separate "nodes" on one set of cores.
int mpi_thread_level(ThreadLevel level) {
  switch (level) {
    case ThreadLevel::single: return MPI_THREAD_SINGLE;
    case ThreadLevel::funneled: return MPI_THREAD_FUNNELED;
    case ThreadLevel::serialized: return MPI_THREAD_SERIALIZED;
    case ThreadLevel::multiple: return MPI_THREAD_MULTIPLE;
  }
  return MPI_THREAD_FUNNELED;
}

std::uint64_t machine_id() {
  std::ifstream file("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!(file >> id)) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    id = host;
  }
  return std::hash<std::string>{}(id);
}

// This process's cores: its affinity mask, or every online core when the mask is unknown.
cpu_set_t usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return set;
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  for (long c = 0; c < std::max(online, 1L) && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &set);
  return set;
}

// How many ranks of the job compete for how many cores of this machine. The cores are the union of
// the ranks' affinity masks: a launcher that binds 2 ranks to one core each leaves each rank a
// mask of one core, yet the two do not compete (Open MPI binds to cores up to 2 ranks).
void count_machine_ranks_and_cores(WorldState& w) {
  struct Placement {
    std::uint64_t machine;
    std::uint64_t threads;
    cpu_set_t cores;
  };
  Placement mine{machine_id(), static_cast<std::uint64_t>(std::max(1, w.settings.threads_per_rank)), usable_cores()};
  std::vector<Placement> all(static_cast<std::size_t>(w.size));
  check_mpi(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, w.comm), "MPI_Allgather");
  cpu_set_t cores;
  CPU_ZERO(&cores);
  w.machine_ranks = w.machine_threads = 0;
  for (const Placement& other : all) {
    if (other.machine != mine.machine) continue;
    ++w.machine_ranks;
    w.machine_threads += static_cast<int>(other.threads);
    CPU_OR(&cores, &cores, &other.cores);
  }
  w.cores = CPU_COUNT(&cores);
  // Every machine's load, so that choices two ranks must agree on can depend on it.
  std::map<std::uint64_t, std::pair<std::uint64_t, cpu_set_t>> machines;
  for (const Placement& other : all) {
    auto [it, added] = machines.try_emplace(other.machine);
    if (added) CPU_ZERO(&it->second.second);
    it->second.first += other.threads;
    CPU_OR(&it->second.second, &it->second.second, &other.cores);
  }
  w.some_machine_oversubscribed = std::any_of(machines.begin(), machines.end(), [](const auto& machine) {
    return machine.second.first > static_cast<std::uint64_t>(CPU_COUNT(&machine.second.second));
  });
}

// Spinning only pays while every rank has a core of its own; otherwise a waiting rank must give
// its core to the rank it waits for almost at once. Ranks count per machine, not per shared-memory
// node: emulated hosts in namespaces (scripts/launch --path multihost) share the same cores.
void choose_wait_policy(WorldState& w) {
  count_machine_ranks_and_cores(w);
  if (w.settings.spin_polls >= 0) {
    w.spin_polls = w.peer_spin_polls = static_cast<std::uint64_t>(w.settings.spin_polls);
  } else {
    // Oversubscribed, a wait on MPI (another node's message) polls briefly: the message may be on
    // its way, and MPI needs its calls to move it. A wait on a node peer's store yields at once:
    // the peer may need this very core (figures: docs/BENCHMARKS.md, "What was tried").
    const bool oversubscribed = w.machine_threads > w.cores;
    w.spin_polls = oversubscribed ? 64 : (1u << 16);
    w.peer_spin_polls = oversubscribed ? 0 : w.spin_polls;
  }
}

#ifdef OPEN_MPI
// The value of one of MPI's string control variables (MPI_T), such as Open MPI's "osc"; empty when
// MPI has none of that name or cannot say. For messages only, so failures are not errors.
std::string mpi_string_setting(const char* wanted) {
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return {};
  std::string value;
  int count = 0;
  MPI_T_cvar_get_num(&count);
  for (int index = 0; index < count && value.empty(); ++index) {
    char name[256], description[256];
    int name_length = sizeof name, description_length = sizeof description, verbosity = 0, bind = 0, scope = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumtype = MPI_T_ENUM_NULL;
    if (MPI_T_cvar_get_info(index, name, &name_length, &verbosity, &type, &enumtype, description,
                            &description_length, &bind, &scope) != MPI_SUCCESS ||
        std::string(name) != wanted || type != MPI_CHAR)
      continue;
    MPI_T_cvar_handle handle;
    int elements = 0;
    if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &elements) != MPI_SUCCESS) break;
    // Open MPI copies the whole string, whatever `elements` says: room for any setting.
    std::vector<char> text(static_cast<std::size_t>(std::max(elements, 4096)) + 1, '\0');
    if (MPI_T_cvar_read(handle, text.data()) == MPI_SUCCESS) value = text.data();
    MPI_T_cvar_handle_free(&handle);
    break;
  }
  MPI_T_finalize();
  return value;
}
#endif

// What makes this MPI create windows between nodes. Open MPI 4.1 chooses among its one-sided
// components when a window is created: osc/sm serves one host only, osc/rdma needs a network
// with RDMA (none over TCP), and Debian's build excludes osc/ucx and osc/pt2pt in
// /etc/openmpi/openmpi-mca-params.conf (docs/running.md, "Open MPI").
std::string how_to_get_windows_between_nodes() {
#ifdef OPEN_MPI
  const std::string osc = mpi_string_setting("osc");
  return std::string("Open MPI has no one-sided component that reaches every rank") +
         (osc.empty() ? std::string() : " with its osc setting '" + osc + "'") +
         "; export OMPI_MCA_osc=sm,ucx for the job (docs/running.md)";
#else
  return "enable your MPI's one-sided communication between nodes (docs/running.md)";
#endif
}

// Creates and frees a small window over the world, as every Segment does when the world spans
// nodes: MPI chooses its one-sided component here, and may have none for windows between hosts.
// Every rank learns how many ranks failed, so all agree. A window only some ranks created cannot
// be freed collectively (the free would wait for the others): it is left to the job's end.
void probe_windows_between_nodes(WorldState& w) {
  static std::uint64_t cell = 0;  // not on the stack: a window left to the job's end outlives this call
  MPI_Win window = MPI_WIN_NULL;
  const int created = MPI_Win_create(&cell, sizeof cell, 1, MPI_INFO_NULL, w.comm, &window);
  const int failed_here = created != MPI_SUCCESS ? 1 : 0;
  int failed = 0;
  check_mpi(MPI_Allreduce(&failed_here, &failed, 1, MPI_INT, MPI_SUM, w.comm), "MPI_Allreduce");
  if (failed == 0) {
    check_mpi(MPI_Win_free(&window), "MPI_Win_free");
    return;
  }
  std::string error;
  if (failed_here) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(created, text, &length) == MPI_SUCCESS)
      error = ": " + std::string(text, static_cast<std::size_t>(length));
  }
  const std::string where = failed == w.size ? "every rank" : std::to_string(failed) + " of them";
  w.no_windows_between_nodes = "this MPI cannot create one-sided windows between nodes (MPI_Win_create over the " +
                               std::to_string(w.size) + " ranks on " + std::to_string(w.node_count) +
                               " nodes failed on " + where + error + "). " + how_to_get_windows_between_nodes();
}

// Unchecked: called where the World is being given up (destructor, refused construction).
void free_communicators(WorldState& w) {
  for (MPI_Comm* c : {&w.node_comm, &w.physical_node_comm, &w.comm})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

// The transport between nodes. The rma transport puts every notified write into a window between
// nodes; without such windows the World is refused on every rank together (the probe's result is
// the same everywhere), before any segment is made.
void choose_transport(WorldState& w) {
  probe_windows_between_nodes(w);
  if (w.settings.transport == Transport::rma && !w.no_windows_between_nodes.empty()) {
    const std::string reason = w.no_windows_between_nodes;
    free_communicators(w);
    raise(Errc::unsupported, "World: the rma transport (GHOSTWIRE_TRANSPORT=rma) puts notified writes into "
                             "windows between nodes, but " + reason +
                             "; or use the default transport, p2p (two-sided messages)");
  }
  w.transport = w.settings.transport == Transport::rma ? make_rma_transport(w) : make_p2p_transport(w);
  w.needs_progress = w.transport->needs_progress();
}

}  // namespace
}  // namespace detail

World::World(MPI_Comm comm) : World(comm, Settings::from_environment()) {}

World::World(MPI_Comm comm, const Settings& settings) : state_(std::make_unique<detail::WorldState>()) {
  using namespace detail;
  WorldState& w = *state_;
  w.settings = settings;
  if (mpi_finalized()) require_mpi_running("World");
  int initialized = 0;
  check_mpi(MPI_Initialized(&initialized), "MPI_Initialized");
  if (!initialized) {
    int provided = 0;
    check_mpi(MPI_Init_thread(nullptr, nullptr, mpi_thread_level(w.settings.thread_level), &provided),
              "MPI_Init_thread");
    w.owns_mpi = true;
  }
  if (comm == MPI_COMM_NULL) raise(Errc::invalid_argument, "World: the communicator is MPI_COMM_NULL");
  check_mpi(MPI_Query_thread(&w.thread_level), "MPI_Query_thread");
  int is_main = 0;
  check_mpi(MPI_Is_thread_main(&is_main), "MPI_Is_thread_main");
  if (is_main) {
    w.main_thread = std::this_thread::get_id();
    w.main_thread_known = true;
  }
  check_mpi(MPI_Comm_dup(comm, &w.comm), "MPI_Comm_dup");
  check_mpi(MPI_Comm_set_errhandler(w.comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(w.comm, &w.rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(w.comm, &w.size), "MPI_Comm_size");
  if (w.settings.ranks_per_node < 0)
    raise(Errc::invalid_argument,
          "World: ranks_per_node must be >= 0, got " + std::to_string(w.settings.ranks_per_node));
  discover_nodes(w);
  choose_wait_policy(w);
  if (w.node_count > 1) choose_transport(w);
}

World::~World() {
  using namespace detail;
  WorldState& w = *state_;
  if (w.broken) {
    // A wait timed out (WorldState::broken): every call below may wait for a dead peer. Nothing is
    // freed, MPI is not finalised; the process ends without MPI_Finalize and the launcher reports it.
    // The reduction area would free its window: keep it, reachable so leak checkers stay quiet.
    static auto* abandoned = new std::vector<ReductionArea*>;
    abandoned->push_back(w.reduction.release());
    return;
  }
  // Segments must go first (they are collective); a leftover one would point at a dead world.
  if (mpi_finalized()) {
    // The user finalised MPI first: the transport's and the reduction area's destructors free
    // communicators and windows, which is now erroneous (Open MPI aborts). The process is ending;
    // let them go without their MPI calls.
    // Kept reachable from a static list, so leak checkers do not report what is left on purpose.
    static auto* abandoned = new std::vector<void*>;
    abandoned->push_back(w.transport.release());
    abandoned->push_back(w.reduction.release());
    return;
  }
  // Unchecked from here: a destructor must not throw.
  w.transport.reset();
  w.reduction.reset();  // collective over the node, like the World itself
  free_communicators(w);
  if (w.owns_mpi) MPI_Finalize();  // not finalised yet: checked above
}

int World::rank() const noexcept { return state_->rank; }
int World::size() const noexcept { return state_->size; }
int World::node() const noexcept { return state_->node; }
int World::node_count() const noexcept { return state_->node_count; }
int World::node_rank() const noexcept { return state_->node_rank; }
int World::node_size() const noexcept { return state_->node_size; }
int World::machine_ranks() const noexcept { return state_->machine_ranks; }
bool World::oversubscribed() const noexcept { return state_->machine_threads > state_->cores; }
ThreadLevel World::thread_level() const noexcept {
  switch (state_->thread_level) {
    case MPI_THREAD_SINGLE: return ThreadLevel::single;
    case MPI_THREAD_FUNNELED: return ThreadLevel::funneled;
    case MPI_THREAD_SERIALIZED: return ThreadLevel::serialized;
    default: return ThreadLevel::multiple;
  }
}
const std::vector<int>& World::node_ranks() const noexcept { return state_->node_ranks; }
MPI_Comm World::comm() const noexcept { return state_->comm; }
MPI_Comm World::node_comm() const noexcept { return state_->node_comm; }
const Settings& World::settings() const noexcept { return state_->settings; }
std::string World::where() const { return state_->where(); }
void World::progress() {
  detail::require_mpi_running("World::progress");
  state_->progress();
}

static void check_rank(const detail::WorldState& w, int rank, const char* call) {
  if (rank < 0 || rank >= w.size)
    raise(Errc::out_of_range, std::string(call) + ": rank " + std::to_string(rank) + " is not in [0, " +
                                  std::to_string(w.size) + ")");
}

int World::node_of(int rank) const {
  check_rank(*state_, rank, "World::node_of");
  return state_->node_of_rank[static_cast<std::size_t>(rank)];
}

int World::node_rank_of(int rank) const {
  check_rank(*state_, rank, "World::node_rank_of");
  return state_->node_rank_of_rank[static_cast<std::size_t>(rank)];
}

bool World::shares_memory_with(int rank) const { return node_of(rank) == state_->node; }

void World::barrier() {
  using namespace detail;
  WorldState& w = *state_;
  require_mpi_running("World::barrier");
  MPI_Request request;
  check_mpi(MPI_Ibarrier(w.comm, &request), "MPI_Ibarrier");
  wait_request(w, request, [] { return std::string("a barrier (some rank has not reached it)"); });
}

}  // namespace ghostwire
