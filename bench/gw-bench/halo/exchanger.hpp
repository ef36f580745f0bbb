// SPDX-License-Identifier: BSD-3-Clause
// An Exchanger is one implementation of a case's halo exchange: the thing `gw-bench halo` measures.
// Each (gw, mpi-isend, mpi-persistent, mpi-alltoallw, mpi-put, the peers petsc-basic,
// petsc-neighbor, petsc-window and ga, raw) is one small class behind this interface, built once per
// case, collectively, in the same order on every rank.
//
// The benchmark writes owned values into field(), calls exchange() on every rank, and checks the
// ghost values in field() afterwards. exchange() returns when this rank's ghost cells hold the
// neighbours' current values and this rank may overwrite its owned cells (every neighbour has
// finished reading them).
//
// With --reverse the benchmark writes ghost values instead and calls reverse_sum() (only on
// implementations built for it: ExchangerSetup::direction, reverse_unsupported_reason).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ghostwire/segment.hpp"
#include "ghostwire/settings.hpp"
#include "halo_case.hpp"

namespace gwbench {
class RunContext;
}

namespace gwbench::halo {

class Exchanger {
 public:
  virtual ~Exchanger() = default;
  Exchanger() = default;
  Exchanger(const Exchanger&) = delete;
  Exchanger& operator=(const Exchanger&) = delete;

  virtual double* field() = 0;  // the array (case.elements doubles) this implementation exchanges
  virtual void exchange() = 0;
  // The reverse exchange with sum: every ghost value a forward receive fills goes back to its owner,
  // which adds it to the element it mirrors; the owned value first, then by neighbour rank, then in
  // message (tag) order, then position in the message, as ghostwire's Plan::reverse_exchange does,
  // so sums are the same on every run. Returns when this rank's owned elements hold their sums and
  // it may overwrite its ghost cells (every neighbour has finished reading them).
  virtual void reverse_sum();
  // How ghostwire moves the bytes ("shm", "shm+p2p", "p2p", ...); empty for the others.
  virtual std::string transport() const { return ""; }
  // Messages exchange() sends from this rank to other nodes (ghostwire's Plan::traffic()); -1 for
  // the others, which do not say.
  virtual long internode_messages() const { return -1; }
  // Whether exchange() also writes the ghost cells no message of the case fills (the domain's
  // boundary, a faces-only case's corners): ga, whose GA_Update_ghosts is periodic.
  virtual bool fills_every_ghost() const { return false; }
};

enum class Direction { forward, reverse };

// What every implementation is built from. `shared_field` is the case's array in a ghostwire
// Segment (so ghostwire's node peers can read it in place); gw and the MPI implementations all
// exchange on it. raw puts its own copy in its own shared window.
struct ExchangerSetup {
  RunContext& context;
  const HaloCase& halo_case;
  ghostwire::Segment& shared_field;
  Direction direction = Direction::forward;  // reverse: build what reverse_sum() needs
};

// The implementations, in the order of the report's columns.
const std::vector<std::string>& exchanger_names();
std::string_view exchanger_summary(std::string_view name);
bool is_mpi_exchanger(std::string_view name);  // the baselines gw is compared against
// Variants of gw run only when --impl names them (not in the default list of every implementation).
bool only_when_named(std::string_view name);
// Why `name` has no reverse exchange in this benchmark, or "" when it has one.
std::string_view reverse_unsupported_reason(std::string_view name);
bool is_peer_exchanger(std::string_view name);  // another library's halo exchange (petsc-*, ga)
// Why `name` cannot run in this job, or "" when it can.
std::string unavailable_reason(std::string_view name, const RunContext& context);
// Why `name` does not run on case `c` (ga: not on the unstructured case), or "" when it does.
std::string_view case_unsupported_reason(std::string_view name, const HaloCase& c);
// Collective over MPI_COMM_WORLD.
std::unique_ptr<Exchanger> make_exchanger(std::string_view name, const ExchangerSetup& setup);

// `aggregation`: Plan::aggregate's mode (gw-node, gw-off), else the World's settings (gw);
// `in_private`: the array in private memory (gw-private).
std::unique_ptr<Exchanger> make_gw_exchanger(const ExchangerSetup& setup, std::optional<ghostwire::Aggregation> aggregation,
                                             bool in_private = false);
std::unique_ptr<Exchanger> make_mpi_isend_exchanger(const ExchangerSetup& setup);
std::unique_ptr<Exchanger> make_mpi_persistent_exchanger(const ExchangerSetup& setup);
std::unique_ptr<Exchanger> make_mpi_alltoallw_exchanger(const ExchangerSetup& setup);
std::unique_ptr<Exchanger> make_mpi_put_exchanger(const ExchangerSetup& setup);
std::unique_ptr<Exchanger> make_raw_exchanger(const ExchangerSetup& setup);
// Built with PETSc (GW_BENCH_HAVE_PETSC): `type` basic, neighbor or window.
std::unique_ptr<Exchanger> make_petsc_exchanger(const ExchangerSetup& setup, std::string_view type);
// Built with Global Arrays (GW_BENCH_HAVE_GA).
std::unique_ptr<Exchanger> make_ga_exchanger(const ExchangerSetup& setup);
// Before MPI_Finalize, after every exchanger is gone: PetscFinalize and GA_Terminate where a
// peer implementation started them.
void end_peer_sessions();
void end_petsc_session();
void end_ga_session();

}  // namespace gwbench::halo
