// SPDX-License-Identifier: BSD-3-Clause
// MPI-shaped persistent neighbourhood exchange (docs/mpi-shaped.md): GW_Neighbor_alltoallv_init
// builds a Plan over the communicator's neighbours, GW_Start / GW_Wait run its start() / finish().
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "c_api_support.hpp"
#include "ghostwire/ghostwire.h"
#include "ghostwire/plan.hpp"
#include "neighbor_graph.hpp"
#include "runtime_handles.hpp"

using ghostwire::Errc;
using ghostwire::Layout;
using ghostwire::Plan;
using ghostwire::capi::check_mpi_call;
using ghostwire::capi::MpiError;
using ghostwire::capi::Neighbourhood;

namespace {
struct CommCache;
}

struct gw_neighbor_request {
  CommCache* cache = nullptr;  // null once the communicator was freed (the plan with it)
  std::unique_ptr<Plan> plan;
  bool active = false;
};

namespace {

// One World per communicator, kept in an attribute of it: freeing the communicator frees the World
// and every plan still built on it (MPI_Comm_free is collective, as destroying them is).
struct CommCache {
  std::unique_ptr<gw_world> world;  // a C handle, so GW_Comm_world can hand it out
  std::vector<gw_neighbor_request*> requests;  // not yet freed, in creation order
};

int delete_cache(MPI_Comm, int, void* value, void*) {
  auto* cache = static_cast<CommCache*>(value);
  for (gw_neighbor_request* request : cache->requests) {
    request->plan.reset();
    request->cache = nullptr;
    request->active = false;
  }
  delete cache;
  return MPI_SUCCESS;
}

int cache_keyval() {
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    check_mpi_call(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cache, &k, nullptr),
                   "MPI_Comm_create_keyval");
    return k;
  }();
  return keyval;
}

// Collective the first time for a communicator: World(comm) duplicates it, same ranks.
CommCache& cache_of(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  check_mpi_call(MPI_Comm_get_attr(comm, cache_keyval(), &value, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<CommCache*>(value);
  auto cache = std::make_unique<CommCache>();
  cache->world = std::make_unique<gw_world>(comm);
  check_mpi_call(MPI_Comm_set_attr(comm, cache_keyval(), cache.get()), "MPI_Comm_set_attr");
  return *cache.release();
}

int mpi_class(Errc code) {
  switch (code) {
    case Errc::invalid_argument: return MPI_ERR_ARG;
    case Errc::out_of_range: return MPI_ERR_ARG;
    case Errc::mismatch: return MPI_ERR_COUNT;
    case Errc::state: return MPI_ERR_REQUEST;
    case Errc::unsupported: return MPI_ERR_UNSUPPORTED_OPERATION;
    case Errc::internal: return MPI_ERR_INTERN;
    default: return MPI_ERR_OTHER;
  }
}

// Runs body; returns MPI_SUCCESS or an MPI error class, the message for gw_last_error_message().
template <class Body>
int mpi_guarded(const char* call, Body&& body) noexcept {
  int code = MPI_SUCCESS;
  std::string message;
  try {
    body();
  } catch (const MpiError& error) {
    code = error.code(), message = error.what();
  } catch (const ghostwire::Error& error) {
    code = mpi_class(error.code()), message = error.what();
  } catch (const std::exception& error) {
    code = MPI_ERR_INTERN, message = error.what();
  } catch (...) {
    code = MPI_ERR_INTERN, message = "unknown exception";
  }
  ghostwire::capi::set_last_error(code == MPI_SUCCESS ? "" : std::string(call) + ": " + message);
  return code;
}

// One direction of the exchange as the caller gave it.
struct Side {
  const char* name;  // "send" or "recv"
  const void* buffer;
  const int* counts;
  const int* displs;
  MPI_Datatype type;
  const std::vector<int>* ranks;  // destinations or sources
  std::size_t type_size = 0;
  std::int64_t first = 0, end = 0;  // element range of the blocks (in units of the type)
};

std::string entry(const Side& side, const char* array, std::size_t i) {
  return std::string(array) + "[" + std::to_string(i) + "] (" + side.name + " block " + std::to_string(i) +
         ", rank " + std::to_string((*side.ranks)[i]) + ")";
}

// Counts and displacements MPI would accept; the range of elements the blocks use.
void check_side(Side& side) {
  const std::size_t edges = side.ranks->size();
  const std::string counts = std::string(side.name) + "counts", displs = side.name[0] == 's' ? "sdispls" : "rdispls";
  if (edges > 0 && (side.counts == nullptr || side.displs == nullptr))
    throw MpiError(MPI_ERR_ARG, counts + " or " + displs + " is NULL with " + std::to_string(edges) + " neighbours");
  bool any = false;
  for (std::size_t i = 0; i < edges; ++i) {
    if (side.counts[i] < 0)
      throw MpiError(MPI_ERR_COUNT, entry(side, counts.c_str(), i) + " = " + std::to_string(side.counts[i]) +
                                        " is negative");
    if (side.counts[i] == 0 || (*side.ranks)[i] == MPI_PROC_NULL) continue;
    const std::int64_t from = side.displs[i], to = from + side.counts[i];
    side.first = any ? std::min(side.first, from) : from;
    side.end = any ? std::max(side.end, to) : to;
    any = true;
  }
  if (any && side.buffer == nullptr)
    throw MpiError(MPI_ERR_BUFFER, std::string(side.name) + "buf is NULL but " + counts + " are not all 0");
  if (side.buffer == MPI_IN_PLACE)
    throw MpiError(MPI_ERR_BUFFER, std::string(side.name) + "buf is MPI_IN_PLACE, which neighbourhood "
                                                            "collectives do not allow");
}

// MPI makes overlapping receive blocks erroneous; here they would make the result depend on order.
void check_receive_overlap(const Side& recv) {
  std::vector<std::pair<std::int64_t, std::size_t>> starts;
  for (std::size_t i = 0; i < recv.ranks->size(); ++i)
    if (recv.counts[i] > 0 && (*recv.ranks)[i] != MPI_PROC_NULL) starts.emplace_back(recv.displs[i], i);
  std::sort(starts.begin(), starts.end());
  for (std::size_t k = 1; k < starts.size(); ++k) {
    const std::size_t a = starts[k - 1].second, b = starts[k].second;
    if (recv.displs[a] + static_cast<std::int64_t>(recv.counts[a]) > recv.displs[b])
      throw MpiError(MPI_ERR_ARG, "receive blocks " + std::to_string(a) + " and " + std::to_string(b) +
                                      " overlap (rdispls " + std::to_string(recv.displs[a]) + " and " +
                                      std::to_string(recv.displs[b]) + ", recvcount " +
                                      std::to_string(recv.counts[a]) + ")");
  }
}

// Registers the side's buffer over its blocks and adds one piece per non-empty block.
void add_side(Plan& plan, const Side& side, const std::vector<std::size_t>& channel, std::size_t element) {
  if (side.end <= side.first) return;
  const std::size_t scale = side.type_size / element;
  // The plan never writes a send region; add_memory takes one pointer type for both directions.
  auto* base = static_cast<char*>(const_cast<void*>(side.buffer)) +
               side.first * static_cast<std::int64_t>(side.type_size);
  const auto bytes = static_cast<std::size_t>(side.end - side.first) * side.type_size;
  const ghostwire::Region region = plan.add_memory(base, bytes, element);
  for (std::size_t i = 0; i < side.ranks->size(); ++i) {
    const int rank = (*side.ranks)[i];
    if (side.counts[i] == 0 || rank == MPI_PROC_NULL) continue;
    const auto start = static_cast<std::size_t>(side.displs[i] - side.first) * scale;
    const Layout layout = Layout::contiguous(start, static_cast<std::size_t>(side.counts[i]) * scale);
    if (side.name[0] == 's')
      plan.add_send(channel[i], rank, region, layout);
    else
      plan.add_receive(channel[i], rank, region, layout);
  }
}

// All ranks learn whether any refused its arguments (so none goes on into commit alone).
void agree_or_throw(MPI_Comm comm, int code, const std::string& message) {
  int rank = 0;
  check_mpi_call(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  int mine[2] = {code == MPI_SUCCESS ? 0 : 1, rank}, worst[2] = {0, 0};
  check_mpi_call(MPI_Allreduce(mine, worst, 1, MPI_2INT, MPI_MAXLOC, comm), "MPI_Allreduce");
  if (code != MPI_SUCCESS) throw MpiError(code, message);
  if (worst[0] != 0)
    throw MpiError(MPI_ERR_OTHER, "rank " + std::to_string(worst[1]) + " of the communicator refused its "
                                      "arguments (its own gw_last_error_message() says why)");
}

// The plan's element: the largest power of two dividing every rank's type sizes, so that both ends
// of every message count it in the same unit (MPI lets their types differ, signatures agreeing).
std::size_t agreed_element(MPI_Comm comm, std::size_t send_size, std::size_t recv_size) {
  unsigned long mine = send_size | recv_size, all = 0;
  check_mpi_call(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG, MPI_BOR, comm), "MPI_Allreduce");
  return all == 0 ? 1 : static_cast<std::size_t>(all & (~all + 1));
}

// A rank's refusal (a NULL request too) is known to all before any of them commits.
std::unique_ptr<gw_neighbor_request> build(Side& send, Side& recv, MPI_Comm comm, const GW_Request* handle) {
  const Neighbourhood n = ghostwire::capi::neighbourhood_of(comm);
  CommCache& cache = cache_of(comm);
  send.ranks = &n.destinations;
  recv.ranks = &n.sources;
  int code = MPI_SUCCESS;
  std::string message;
  auto note = [&](auto&& step) {
    if (code != MPI_SUCCESS) return;
    try {
      step();
    } catch (const MpiError& error) {
      code = error.code(), message = error.what();
    } catch (const ghostwire::Error& error) {
      code = mpi_class(error.code()), message = error.what();
    }
  };
  note([&] {
    if (handle == nullptr) throw MpiError(MPI_ERR_ARG, "request is NULL");
    send.type_size = ghostwire::capi::contiguous_size(send.type, "sendtype");
    recv.type_size = ghostwire::capi::contiguous_size(recv.type, "recvtype");
  });
  const std::size_t element = agreed_element(comm, send.type_size, recv.type_size);
  auto request = std::make_unique<gw_neighbor_request>();
  note([&] {
    check_side(send);
    check_side(recv);
    check_receive_overlap(recv);
    request->plan = std::make_unique<Plan>(cache.world->world, n.ranks, n.channels);
    add_side(*request->plan, send, n.send_channel, element);
    add_side(*request->plan, recv, n.receive_channel, element);
  });
  agree_or_throw(comm, code, message);
  try {
    request->plan->commit();  // collective: checks that send and receive counts agree on every edge
  } catch (const ghostwire::Error& error) {
    throw MpiError(mpi_class(error.code()), "the plan refused the exchange (in " + std::to_string(element) +
                                                "-byte elements; " + ghostwire::capi::channel_legend(n) +
                                                "): " + error.what());
  }
  request->cache = &cache;
  cache.requests.push_back(request.get());
  return request;
}

void require_comm(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw MpiError(MPI_ERR_COMM, "comm is MPI_COMM_NULL");
  int inter = 0;
  check_mpi_call(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) throw MpiError(MPI_ERR_COMM, "comm is an intercommunicator; neighbourhood collectives need a topology");
}

gw_neighbor_request& startable(GW_Request* request) {
  if (request == nullptr) throw MpiError(MPI_ERR_ARG, "request is NULL");
  if (*request == GW_REQUEST_NULL) throw MpiError(MPI_ERR_REQUEST, "*request is GW_REQUEST_NULL");
  gw_neighbor_request& r = **request;
  if (!r.plan)
    throw MpiError(MPI_ERR_REQUEST, "the request's communicator has been freed (and the request's exchange with "
                                    "it); free the request");
  return r;
}

void set_empty(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
}

// Wait's body: an inactive or null request completes at once, with an empty status.
void complete(GW_Request* request, MPI_Status* status) {
  if (request == nullptr) throw MpiError(MPI_ERR_ARG, "request is NULL");
  if (*request != GW_REQUEST_NULL && (*request)->active) {
    (*request)->plan->finish();
    (*request)->active = false;
  }
  set_empty(status);
}

// Both inits; `call` names the one the user made in messages.
int alltoallv_init(const char* call, const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm, GW_Request* request) {
  return mpi_guarded(call, [&] {
    if (request != nullptr) *request = GW_REQUEST_NULL;
    require_comm(comm);
    Side send{"send", sendbuf, sendcounts, sdispls, sendtype, nullptr};
    Side recv{"recv", recvbuf, recvcounts, rdispls, recvtype, nullptr};
    *request = build(send, recv, comm, request).release();
  });
}

}  // namespace

extern "C" {

int GW_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info, GW_Request* request) {
  return alltoallv_init("GW_Neighbor_alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                        rdispls, recvtype, comm, request);
}

// Block i at i * count, as MPI_Neighbor_alltoall lays them out.
int GW_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                              GW_Request* request) {
  const char* call = "GW_Neighbor_alltoall_init";
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
  const int code = mpi_guarded(call, [&] {
    require_comm(comm);
    const Neighbourhood n = ghostwire::capi::neighbourhood_of(comm);
    for (std::size_t i = 0; i < n.destinations.size(); ++i) {
      sendcounts.push_back(sendcount);
      sdispls.push_back(static_cast<int>(i) * sendcount);
    }
    for (std::size_t i = 0; i < n.sources.size(); ++i) {
      recvcounts.push_back(recvcount);
      rdispls.push_back(static_cast<int>(i) * recvcount);
    }
  });
  if (code != MPI_SUCCESS) return code;
  return alltoallv_init(call, sendbuf, sendcounts.data(), sdispls.data(), sendtype, recvbuf, recvcounts.data(),
                        rdispls.data(), recvtype, comm, request);
}

int GW_Comm_world(MPI_Comm comm, gw_world_t* world) {
  return mpi_guarded("GW_Comm_world", [&] {
    if (world == nullptr) throw MpiError(MPI_ERR_ARG, "world is NULL");
    require_comm(comm);
    // Only communicators these calls exchange on (never MPI_COMM_WORLD, whose attributes MPI may
    // delete inside MPI_Finalize, too late to free a World).
    int topology = MPI_UNDEFINED;
    check_mpi_call(MPI_Topo_test(comm, &topology), "MPI_Topo_test");
    if (topology == MPI_UNDEFINED)
      throw MpiError(MPI_ERR_TOPOLOGY, "comm has no topology; pass the Cartesian or graph communicator the "
                                       "exchange will use");
    *world = cache_of(comm).world.get();
  });
}

int GW_Start(GW_Request* request) {
  return mpi_guarded("GW_Start", [&] {
    gw_neighbor_request& r = startable(request);
    if (r.active) throw MpiError(MPI_ERR_REQUEST, "the request is active already; GW_Wait for it first");
    r.plan->start();
    r.active = true;
  });
}

int GW_Wait(GW_Request* request, MPI_Status* status) {
  return mpi_guarded("GW_Wait", [&] { complete(request, status); });
}

int GW_Test(GW_Request* request, int* flag, MPI_Status* status) {
  return mpi_guarded("GW_Test", [&] {
    if (flag == nullptr) throw MpiError(MPI_ERR_ARG, "flag is NULL");
    if (request == nullptr) throw MpiError(MPI_ERR_ARG, "request is NULL");
    *flag = 1;
    if (*request != GW_REQUEST_NULL && (*request)->active) {
      *flag = (*request)->plan->test_finish() ? 1 : 0;
      if (*flag) (*request)->active = false;
    }
    if (*flag) set_empty(status);
  });
}

int GW_Request_free(GW_Request* request) {
  return mpi_guarded("GW_Request_free", [&] {
    if (request == nullptr) throw MpiError(MPI_ERR_ARG, "request is NULL");
    if (*request == GW_REQUEST_NULL) throw MpiError(MPI_ERR_REQUEST, "*request is GW_REQUEST_NULL");
    if ((*request)->active) throw MpiError(MPI_ERR_REQUEST, "the request is active; GW_Wait for it first");
    std::unique_ptr<gw_neighbor_request> r(*request);
    if (r->cache != nullptr) std::erase(r->cache->requests, r.get());
    *request = GW_REQUEST_NULL;  // the plan goes with r, collectively
  });
}

}  // extern "C"
