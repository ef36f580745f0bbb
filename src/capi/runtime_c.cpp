// SPDX-License-Identifier: BSD-3-Clause
// C API of the runtime: World, Segment, notified writes.
#include <cstring>
#include <memory>

#include "c_api_support.hpp"
#include "runtime_handles.hpp"
#include "ghostwire/collective.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/ghostwire.h"
#include "ghostwire/segment.hpp"
#include "ghostwire/world.hpp"
#include "runtime/mpi_check.hpp"

using namespace ghostwire;
using ghostwire::capi::guarded;
using ghostwire::capi::require;


namespace ghostwire::capi {
namespace {
thread_local std::string last_error;
}
void set_last_error(const std::string& message) { last_error = message; }
}  // namespace ghostwire::capi

extern "C" {

const char* gw_error_name(int code) { return errc_name(static_cast<Errc>(code)); }
const char* gw_last_error_message(void) { return ghostwire::capi::last_error.c_str(); }

int gw_world_create(MPI_Comm comm, gw_world_t* world) {
  return guarded([&] {
    require(world, "world");
    *world = new gw_world(comm);
  });
}

int gw_world_create_threaded(MPI_Comm comm, int level, gw_world_t* world) {
  return guarded([&] {
    require(world, "world");
    if (level < GW_THREAD_SINGLE || level > GW_THREAD_MULTIPLE)
      raise(Errc::invalid_argument, "gw_world_create_threaded: level " + std::to_string(level) +
                                        " is not one of GW_THREAD_SINGLE (0) .. GW_THREAD_MULTIPLE (3)");
    ghostwire::Settings settings = ghostwire::Settings::from_environment();
    settings.thread_level = static_cast<ghostwire::ThreadLevel>(level);
    *world = new gw_world(comm, settings);
  });
}

int gw_world_thread_level(gw_world_t w, int* level) {
  return guarded([&] {
    require(w, "world");
    require(level, "level");
    *level = static_cast<int>(w->world.thread_level());
  });
}

int gw_world_create_fortran(MPI_Fint comm, gw_world_t* world) {
  return guarded([&] {
    require(world, "world");
    int initialised = 0;
    ghostwire::detail::check_mpi(MPI_Initialized(&initialised), "MPI_Initialized");
    if (!initialised) raise(Errc::state, "gw_world_create_fortran: MPI is not initialised; call MPI_Init first");
    *world = new gw_world(MPI_Comm_f2c(comm));
  });
}

int gw_world_destroy(gw_world_t* world) {
  return guarded([&] {
    require(world, "world");
    delete *world;
    *world = nullptr;
  });
}

#define GW_WORLD_GETTER(name, expression)      \
  int gw_world_##name(gw_world_t w, int* out) { \
    return guarded([&] {                        \
      require(w, "world");                      \
      require(out, #name);                      \
      *out = (expression);                      \
    });                                         \
  }
GW_WORLD_GETTER(rank, w->world.rank())
GW_WORLD_GETTER(size, w->world.size())
GW_WORLD_GETTER(node, w->world.node())
GW_WORLD_GETTER(node_count, w->world.node_count())
GW_WORLD_GETTER(node_rank, w->world.node_rank())
GW_WORLD_GETTER(node_size, w->world.node_size())
#undef GW_WORLD_GETTER

int gw_world_node_ranks(gw_world_t w, int* ranks) {
  return guarded([&] {
    require(w, "world");
    require(ranks, "ranks");
    const auto& mine = w->world.node_ranks();
    std::memcpy(ranks, mine.data(), mine.size() * sizeof(int));
  });
}

int gw_world_node_of(gw_world_t w, int rank, int* node) {
  return guarded([&] {
    require(w, "world");
    require(node, "node");
    *node = w->world.node_of(rank);
  });
}

int gw_world_comm(gw_world_t w, MPI_Comm* comm) {
  return guarded([&] {
    require(w, "world");
    require(comm, "comm");
    *comm = w->world.comm();
  });
}

int gw_world_comm_fortran(gw_world_t w, MPI_Fint* comm) {
  return guarded([&] {
    require(w, "world");
    require(comm, "comm");
    *comm = MPI_Comm_c2f(w->world.comm());
  });
}

int gw_report_error(int code, const char* message) {
  ghostwire::capi::set_last_error(message ? message : "");
  return code;
}

}  // extern "C"

struct gw_reduction {
  ghostwire::PendingReduction pending;
};

namespace {


}  // namespace

extern "C" {

int gw_allreduce_double(gw_world_t w, double* values, size_t count, int op) {
  return guarded([&] {
    require(w, "world");
    if (count > 0) require(values, "values");
    ghostwire::allreduce(w->world, std::span<double>(values, count), capi::reduce_op(op, "gw_allreduce_double", false));
  });
}

int gw_allreduce_double_start(gw_world_t w, double* values, size_t count, int op, gw_reduction_t* reduction) {
  return guarded([&] {
    require(w, "world");
    require(reduction, "reduction");
    if (count > 0) require(values, "values");
    const ghostwire::ReduceOp reduce = capi::reduce_op(op, "gw_allreduce_double_start", false);
    auto handle = std::make_unique<gw_reduction>();
    handle->pending = ghostwire::allreduce_start(w->world, std::span<double>(values, count), reduce);
    *reduction = handle.release();
  });
}

int gw_reduction_wait(gw_reduction_t* reduction) {
  return guarded([&] {
    require(reduction, "reduction");
    require(*reduction, "*reduction");
    std::unique_ptr<gw_reduction> handle(*reduction);
    *reduction = nullptr;
    handle->pending.wait();
  });
}
int gw_world_barrier(gw_world_t w) {
  return guarded([&] {
    require(w, "world");
    w->world.barrier();
  });
}

int gw_world_progress(gw_world_t w) {
  return guarded([&] {
    require(w, "world");
    w->world.progress();
  });
}

int gw_segment_create(gw_world_t w, size_t bytes, size_t notification_count, gw_segment_t* segment) {
  return guarded([&] {
    require(w, "world");
    require(segment, "segment");
    *segment = new gw_segment(w->world, bytes, notification_count);
  });
}

int gw_segment_destroy(gw_segment_t* segment) {
  return guarded([&] {
    require(segment, "segment");
    delete *segment;
    *segment = nullptr;
  });
}

int gw_segment_id(gw_segment_t s, int* id) {
  return guarded([&] {
    require(s, "segment");
    require(id, "id");
    *id = s->segment.id();
  });
}

int gw_segment_data(gw_segment_t s, void** data) {
  return guarded([&] {
    require(s, "segment");
    require(data, "data");
    *data = s->segment.data();
  });
}

int gw_segment_size(gw_segment_t s, size_t* bytes) {
  return guarded([&] {
    require(s, "segment");
    require(bytes, "bytes");
    *bytes = s->segment.size();
  });
}

int gw_segment_size_of(gw_segment_t s, int rank, size_t* bytes) {
  return guarded([&] {
    require(s, "segment");
    require(bytes, "bytes");
    *bytes = s->segment.size_of(rank);
  });
}

int gw_segment_peer_data(gw_segment_t s, int rank, void** data) {
  return guarded([&] {
    require(s, "segment");
    require(data, "data");
    *data = s->segment.peer_data(rank);
  });
}

int gw_segment_put(gw_segment_t s, int target, size_t offset, const void* source, size_t bytes) {
  return guarded([&] {
    require(s, "segment");
    s->segment.put(target, offset, source, bytes);
  });
}

int gw_segment_get(gw_segment_t s, int target, size_t offset, void* destination, size_t bytes) {
  return guarded([&] {
    require(s, "segment");
    s->segment.get(target, offset, destination, bytes);
  });
}

int gw_write_notify(gw_segment_t source, size_t source_offset, int target, gw_segment_t destination,
                    size_t destination_offset, size_t bytes, gw_notification_id_t id, gw_notification_t value) {
  return guarded([&] {
    require(source, "source");
    require(destination, "destination");
    write_notify(source->segment, source_offset, target, destination->segment, destination_offset, bytes, id, value);
  });
}

int gw_write_notify_from(const void* source, int target, gw_segment_t destination, size_t destination_offset,
                         size_t bytes, gw_notification_id_t id, gw_notification_t value) {
  return guarded([&] {
    require(destination, "destination");
    write_notify(source, target, destination->segment, destination_offset, bytes, id, value);
  });
}

int gw_notify(int target, gw_segment_t destination, gw_notification_id_t id, gw_notification_t value) {
  return guarded([&] {
    require(destination, "destination");
    notify(target, destination->segment, id, value);
  });
}

int gw_notify_test(gw_segment_t s, gw_notification_id_t id, gw_notification_t* value) {
  return guarded([&] {
    require(s, "segment");
    require(value, "value");
    *value = notify_test(s->segment, id);
  });
}

int gw_notify_wait(gw_segment_t s, gw_notification_id_t id, gw_notification_t* value) {
  return guarded([&] {
    require(s, "segment");
    require(value, "value");
    *value = notify_wait(s->segment, id);
  });
}

int gw_notify_waitsome(gw_segment_t s, gw_notification_id_t first, size_t count, gw_notification_id_t* id,
                       gw_notification_t* value) {
  return guarded([&] {
    require(s, "segment");
    require(id, "id");
    require(value, "value");
    Notification found = notify_waitsome(s->segment, first, count);
    *id = found.id;
    *value = found.value;
  });
}

int gw_notify_reset(gw_segment_t s, gw_notification_id_t id, gw_notification_t* old_value) {
  return guarded([&] {
    require(s, "segment");
    require(old_value, "old_value");
    *old_value = notify_reset(s->segment, id);
  });
}

}  // extern "C"
