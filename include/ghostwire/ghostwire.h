// SPDX-License-Identifier: BSD-3-Clause
/* ghostwire C API: a thin layer over the C++ API. Every function returns GW_SUCCESS or an error
 * code; gw_last_error_message() gives the text of the last failure on this thread. */
#ifndef GHOSTWIRE_H
#define GHOSTWIRE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  GW_SUCCESS = 0,
  GW_ERR_INVALID_ARGUMENT = 1,
  GW_ERR_OUT_OF_RANGE = 2,
  GW_ERR_MISMATCH = 3,
  GW_ERR_TIMEOUT = 4,
  GW_ERR_MPI = 5,
  GW_ERR_STATE = 6,
  GW_ERR_UNSUPPORTED = 7,
  GW_ERR_INTERNAL = 8
};

typedef struct gw_world* gw_world_t;
typedef struct gw_segment* gw_segment_t;
typedef uint32_t gw_notification_id_t;
typedef uint32_t gw_notification_t;

/* Short name of an error code ("out of range"). */
const char* gw_error_name(int code);
/* Full message of the last failed call on this thread ("" if none). */
const char* gw_last_error_message(void);
/* For language bindings: makes `message` the last error message of this thread and returns code. */
int gw_report_error(int code, const char* message);

/* World: initialises MPI if needed (then finalised by gw_world_destroy). */
int gw_world_create(MPI_Comm comm, gw_world_t* world);
/* The same from a Fortran communicator handle (MPI must be initialised: the handle needs it). */
int gw_world_create_fortran(MPI_Fint comm, gw_world_t* world);
int gw_world_destroy(gw_world_t* world);
int gw_world_rank(gw_world_t world, int* rank);
int gw_world_size(gw_world_t world, int* size);
int gw_world_node(gw_world_t world, int* node);
int gw_world_node_count(gw_world_t world, int* count);
int gw_world_node_rank(gw_world_t world, int* node_rank);
int gw_world_node_size(gw_world_t world, int* node_size);
/* Writes gw_world_node_size() ranks. */
int gw_world_node_ranks(gw_world_t world, int* ranks);
int gw_world_node_of(gw_world_t world, int rank, int* node);
/* MPI's thread levels (World::thread_level; docs/runtime.md, "Threads"). */
enum { GW_THREAD_SINGLE = 0, GW_THREAD_FUNNELED = 1, GW_THREAD_SERIALIZED = 2, GW_THREAD_MULTIPLE = 3 };
/* gw_world_create asking MPI_Init_thread for `level` if the World initialises MPI (with MPI
 * initialised by the program, its level stands). */
int gw_world_create_threaded(MPI_Comm comm, int level, gw_world_t* world);
/* The level MPI provides: calls it does not allow are refused with GW_ERR_STATE naming it. */
int gw_world_thread_level(gw_world_t world, int* level);
int gw_world_comm(gw_world_t world, MPI_Comm* comm);
int gw_world_comm_fortran(gw_world_t world, MPI_Fint* comm);
int gw_world_barrier(gw_world_t world);
/* Element-wise reduction over all ranks, in place (see collective.hpp): the same bits on every rank.
 * GW_REPLACE (the last value wins) is for reverse exchanges only. */
enum { GW_SUM = 0, GW_MIN = 1, GW_MAX = 2, GW_REPLACE = 3 };
int gw_allreduce_double(gw_world_t world, double* values, size_t count, int op);
/* The same in two halves (allreduce_start in collective.hpp): publishes this rank's values and
 * returns; gw_reduction_wait leaves the result in `values` (untouched until then) and frees the
 * handle (*reduction = NULL). One reduction per world at a time. */
typedef struct gw_reduction* gw_reduction_t;
int gw_allreduce_double_start(gw_world_t world, double* values, size_t count, int op, gw_reduction_t* reduction);
int gw_reduction_wait(gw_reduction_t* reduction);
int gw_world_progress(gw_world_t world);

/* Segments: collective. */
int gw_segment_create(gw_world_t world, size_t bytes, size_t notification_count, gw_segment_t* segment);
int gw_segment_destroy(gw_segment_t* segment);
int gw_segment_id(gw_segment_t segment, int* id);
int gw_segment_data(gw_segment_t segment, void** data);
int gw_segment_size(gw_segment_t segment, size_t* bytes);
int gw_segment_size_of(gw_segment_t segment, int rank, size_t* bytes);
/* NULL for ranks on other nodes. */
int gw_segment_peer_data(gw_segment_t segment, int rank, void** data);
int gw_segment_put(gw_segment_t segment, int target, size_t offset, const void* source, size_t bytes);
int gw_segment_get(gw_segment_t segment, int target, size_t offset, void* destination, size_t bytes);

/* Notified writes and notifications (see segment.hpp for the semantics). */
int gw_write_notify(gw_segment_t source, size_t source_offset, int target, gw_segment_t destination,
                    size_t destination_offset, size_t bytes, gw_notification_id_t id, gw_notification_t value);
int gw_write_notify_from(const void* source, int target, gw_segment_t destination, size_t destination_offset,
                         size_t bytes, gw_notification_id_t id, gw_notification_t value);
int gw_notify(int target, gw_segment_t destination, gw_notification_id_t id, gw_notification_t value);
/* *value = 0 when the notification is not set. */
int gw_notify_test(gw_segment_t segment, gw_notification_id_t id, gw_notification_t* value);
int gw_notify_wait(gw_segment_t segment, gw_notification_id_t id, gw_notification_t* value);
int gw_notify_waitsome(gw_segment_t segment, gw_notification_id_t first, size_t count, gw_notification_id_t* id,
                       gw_notification_t* value);
int gw_notify_reset(gw_segment_t segment, gw_notification_id_t id, gw_notification_t* old_value);

/* Halo plans (see plan.hpp): build once, exchange many times. */
typedef struct gw_plan* gw_plan_t;
typedef int gw_region_t;
enum { GW_SEND = 0, GW_RECEIVE = 1 };

int gw_plan_create(gw_world_t world, const int* neighbours, int neighbour_count, size_t channels, gw_plan_t* plan);
/* Collective once committed. */
int gw_plan_destroy(gw_plan_t* plan);
int gw_plan_add_segment_memory(gw_plan_t plan, gw_segment_t segment, size_t element_size, size_t offset_bytes,
                               size_t bytes, gw_region_t* region);
int gw_plan_add_private_memory(gw_plan_t plan, void* base, size_t bytes, size_t element_size, gw_region_t* region);
/* The private region's memory is now at base (as many bytes as before), also after commit: between
 * exchanges, on this rank only (Plan::rebind; docs/plans.md, "Arrays that move"). */
int gw_plan_rebind(gw_plan_t plan, gw_region_t region, void* base);
/* Appends a piece to the send (GW_SEND) or receive (GW_RECEIVE) message of (channel, neighbour).
 * Boxes: extents and strides (in elements) from the fastest dimension out, 1 to 3 dimensions. */
int gw_plan_add_box(gw_plan_t plan, int direction, size_t channel, int neighbour, gw_region_t region, size_t start,
                    int dimensions, const size_t* extents, const ptrdiff_t* strides);
int gw_plan_add_indices(gw_plan_t plan, int direction, size_t channel, int neighbour, gw_region_t region,
                        size_t count, const size_t* indices);
int gw_plan_add_ranges(gw_plan_t plan, int direction, size_t channel, int neighbour, gw_region_t region,
                       size_t count, const size_t* starts, const size_t* counts);
int gw_plan_commit(gw_plan_t plan);
int gw_plan_send(gw_plan_t plan, size_t channel, int neighbour);
/* gw_plan_send if the last message of the slot was taken (*sent = 1), else *sent = 0 and nothing sent. */
int gw_plan_try_send(gw_plan_t plan, size_t channel, int neighbour, int* sent);
int gw_plan_test_recv(gw_plan_t plan, size_t channel, int neighbour, int* done);
int gw_plan_wait_recv(gw_plan_t plan, size_t channel, int neighbour);
int gw_plan_test_send(gw_plan_t plan, size_t channel, int neighbour, int* done);
int gw_plan_wait_send(gw_plan_t plan, size_t channel, int neighbour);
/* Acknowledgement by reply and zero-copy receives (see plan.hpp). acknowledge_by_reply before commit.
 * *view is NULL when the message of (channel, neighbour) cannot be read in place. */
int gw_plan_acknowledge_by_reply(gw_plan_t plan);
/* Before commit, the same on every rank: one message per pair of nodes between nodes (Plan::aggregate). */
enum { GW_AGGREGATE_AUTO = 0, GW_AGGREGATE_NODE = 1, GW_AGGREGATE_OFF = 2 };
int gw_plan_aggregate(gw_plan_t plan, int mode);
int gw_plan_view(gw_plan_t plan, size_t channel, int neighbour, const void** view);
int gw_plan_test_recv_in_place(gw_plan_t plan, size_t channel, int neighbour, int* done);
int gw_plan_wait_recv_in_place(gw_plan_t plan, size_t channel, int neighbour);
/* A hint: ask for the lines of the next message (up to `bytes`) where it will be read in place. */
int gw_plan_prefetch_recv(gw_plan_t plan, size_t channel, int neighbour, size_t bytes);
/* A hint: ask for the line of the acknowledgement the next send checks (and up to `bytes` of where
 * it packs). */
int gw_plan_prefetch_send(gw_plan_t plan, size_t channel, int neighbour, size_t bytes);
/* wait_recv_in_place, use(context, view) and release in one call (Plan::read_in_place): view is NULL
 * when the message was copied into the receive layout; `use` must not call the plan for the slot. */
int gw_plan_read_in_place(gw_plan_t plan, size_t channel, int neighbour, void (*use)(void* context, const void* message),
                          void* context);
/* Before commit: the path between node peers this plan takes where it can ("staged", "auto", ...),
 * as GHOSTWIRE_INTRA_PATH for this plan only. After commit: the name of the path a slot took. */
int gw_plan_intra_path(gw_plan_t plan, const char* name);
int gw_plan_send_path(gw_plan_t plan, size_t channel, int neighbour, char* name, size_t capacity);
int gw_plan_receive_path(gw_plan_t plan, size_t channel, int neighbour, char* name, size_t capacity);
int gw_plan_release(gw_plan_t plan, size_t channel, int neighbour);
int gw_plan_acknowledge(gw_plan_t plan, size_t channel, int neighbour);
/* Partitions (see plan.hpp), before commit and on both sides: the message of (channel, neighbour)
 * in `direction` cut into `count` partitions, of elements[i] elements each (in message order), or
 * as equal as can be when elements is NULL. */
int gw_plan_partition(gw_plan_t plan, int direction, size_t channel, int neighbour, size_t count,
                      const size_t* elements);
int gw_plan_partitions(gw_plan_t plan, int direction, size_t channel, int neighbour, size_t* count);
/* Partition `partition` is final: sent (any thread, one per partition); *arrived: it is in the
 * receive layout. */
int gw_plan_pready(gw_plan_t plan, size_t channel, int neighbour, size_t partition);
int gw_plan_parrived(gw_plan_t plan, size_t channel, int neighbour, size_t partition, int* arrived);
/* gw_plan_test_send / gw_plan_wait_send for one partition: its data may change again. */
int gw_plan_test_send_partition(gw_plan_t plan, size_t channel, int neighbour, size_t partition, int* done);
int gw_plan_wait_send_partition(gw_plan_t plan, size_t channel, int neighbour, size_t partition);
/* Thread `thread` of a team of `threads` does its share of one exchange (barriers are the team's). */
int gw_plan_exchange_share(gw_plan_t plan, size_t thread, size_t threads);
int gw_plan_exchange(gw_plan_t plan);
int gw_plan_start(gw_plan_t plan);
int gw_plan_finish(gw_plan_t plan);
int gw_plan_exchange_channel(gw_plan_t plan, size_t channel);
int gw_plan_start_channel(gw_plan_t plan, size_t channel);
int gw_plan_finish_channel(gw_plan_t plan, size_t channel);
/* The reverse exchange (see plan.hpp; docs/plans.md, "Reverse exchange"): every receive layout's
 * values go back to their sender and are combined (op: GW_SUM, GW_MIN, GW_MAX or GW_REPLACE) into
 * the send layout's elements they came from, as values of `type` (GW_DOUBLE, GW_FLOAT, GW_INT32 or
 * GW_INT64; an element may hold several), in a fixed order. gw_plan_enable_reverse on every rank,
 * before commit or (collectively) after. The _regions form takes one op and type per region. */
int gw_plan_enable_reverse(gw_plan_t plan);
int gw_plan_reverse_exchange(gw_plan_t plan, int op, int type);
int gw_plan_reverse_start(gw_plan_t plan);
int gw_plan_reverse_finish(gw_plan_t plan, int op, int type);
int gw_plan_reverse_exchange_regions(gw_plan_t plan, size_t count, const int* ops, const int* types);
/* Writes a description of the plan's slots (paths, bytes) into text (truncated to capacity). */
int gw_plan_describe(gw_plan_t plan, char* text, size_t capacity);
/* Unstructured: ghost entry i is element indices[i] of rank owners[i]'s owned memory. Commits. */
int gw_plan_create_unstructured(gw_world_t world, gw_segment_t owned, size_t owned_offset_bytes, size_t owned_count,
                                void* ghosts, size_t ghost_count, const int* owners, const size_t* indices,
                                size_t element_size, gw_plan_t* plan);
/* The same, committed with aggregation `mode` (GW_AGGREGATE_*, as gw_plan_aggregate; the same on
 * every rank) instead of GHOSTWIRE_AGGREGATE's. */
int gw_plan_create_unstructured_aggregate(gw_world_t world, gw_segment_t owned, size_t owned_offset_bytes,
                                          size_t owned_count, void* ghosts, size_t ghost_count, const int* owners,
                                          const size_t* indices, size_t element_size, int mode, gw_plan_t* plan);

/* Topology-aware placement (docs/topology.md). Which rank computes each position of a Cartesian
 * process grid of `ndims` (1 to 3) dimensions `dims` (row-major positions, the last coordinate
 * fastest, as MPI_Cart_create): rank_of_position[p] for p in 0 .. dims[0]*...*dims[ndims-1] - 1,
 * which must equal the world's size. `periodic[d]` (0/1) says whether the halo wraps around;
 * `block` (NULL: cubes) gives the cells of a block per dimension, weighing the faces. Collective
 * over the world; the same answer on every rank. */
enum { GW_PLACEMENT_AUTOMATIC = 0, GW_PLACEMENT_RANK_ORDER = 1, GW_PLACEMENT_HIERARCHICAL = 2 };
int gw_topo_place_cartesian(gw_world_t world, int placement, int ndims, const int* dims, const int* periodic,
                            const int64_t* block, int* rank_of_position);
/* The hierarchical placement (GW_PLACEMENT_HIERARCHICAL, cubic blocks). */
int gw_topo_map_cartesian(gw_world_t world, int ndims, const int* dims, const int* periodic, int* rank_of_position);
/* Collective over comm: a new communicator (free with MPI_Comm_free) whose rank p is the process
 * of rank rank_of_position[p] in comm, so that output and reductions in its rank order go by
 * position. */
int gw_topo_reordered_comm(MPI_Comm comm, const int* rank_of_position, MPI_Comm* reordered);

/* Distributed grids (see dist/grid.hpp): an N-d array (1 to 3 dimensions) of double, float, int32 or
 * int64 in blocks over the world's ranks, each block with ghost cells around it. Every array argument
 * is in C order: dimension 0 slowest, dimension dimensions-1 fastest (stride 1). Creating and
 * destroying a grid is collective; so is every halo update, in the same order on every rank. */
typedef struct gw_grid* gw_grid_t;
typedef struct gw_halo_update* gw_halo_update_t;
typedef struct gw_halo_handle* gw_halo_handle_t;
enum { GW_DOUBLE = 0, GW_FLOAT = 1, GW_INT32 = 2, GW_INT64 = 3 };
enum { GW_STENCIL_FACES = 0, GW_STENCIL_FULL = 1 };
enum { GW_PER_NEIGHBOUR = 0, GW_PER_VARIABLE = 1 };
/* extents: global cells per dimension. process_grid: ranks per dimension (product = world size),
 * NULL for the arrangement with the fewest ghost cells. halo_widths: ghost layers on each side
 * (NULL: none). periodic: nonzero for a periodic dimension (NULL: none). stencil: GW_STENCIL_FACES
 * (faces only) or GW_STENCIL_FULL (faces, edges and corners). */
int gw_grid_create(gw_world_t world, int type, int dimensions, const int64_t* extents, const int* process_grid,
                   const int64_t* halo_widths, const int* periodic, int stencil, gw_grid_t* grid);
int gw_grid_destroy(gw_grid_t* grid);
int gw_grid_type(gw_grid_t grid, int* type);
int gw_grid_dimensions(gw_grid_t grid, int* dimensions);
/* Local cell (0, ..., 0); local index d runs over [-halo_width[d], local_extent[d] + halo_width[d]).
 * Cell (i0, i1, i2) is data[i0*strides[0] + i1*strides[1] + i2*strides[2]]; the last stride is 1. */
int gw_grid_data(gw_grid_t grid, void** data);
/* Each writes `dimensions` values. */
int gw_grid_extents(gw_grid_t grid, int64_t* extents);             /* global cells */
int gw_grid_local_extents(gw_grid_t grid, int64_t* extents);       /* owned cells of this rank */
int gw_grid_strides(gw_grid_t grid, int64_t* strides);             /* in elements */
int gw_grid_offset(gw_grid_t grid, int64_t* offset);               /* global coordinates of local 0 */
int gw_grid_halo_widths(gw_grid_t grid, int64_t* widths);
int gw_grid_process_grid(gw_grid_t grid, int* ranks);              /* ranks per dimension */
int gw_grid_update_halo(gw_grid_t grid);
/* The same by a team of threads, each calling it with its own thread in [0, threads): returns on
 * every thread once every ghost cell is filled (HaloUpdate::run_shared). */
int gw_grid_update_halo_shared(gw_grid_t grid, size_t thread, size_t threads);
/* The split form: start, compute on cells that need no ghost, gw_halo_wait (frees the handle,
 * *handle = NULL). Between the two this rank must not write the owned cells its neighbours read nor
 * read its ghost cells. */
int gw_grid_update_halo_start(gw_grid_t grid, gw_halo_handle_t* handle);
int gw_halo_wait(gw_halo_handle_t* handle);
/* The reverse update: every ghost cell the update fills is combined (op: GW_SUM, GW_MIN, GW_MAX or
 * GW_REPLACE) into the cell it mirrors, in a fixed order (HaloUpdate::reverse_run). Collective. */
int gw_grid_reverse_halo(gw_grid_t grid, int op);
int gw_grid_describe(gw_grid_t grid, char* text, size_t capacity);
/* One update of several grids of the same pattern (HaloUpdate). depth_low, depth_high: NULL (every
 * grid's whole halo) or count x 3 values, row g for grid g, its first `dimensions` values used; a row
 * whose first value is negative means that grid's whole halo. messages: GW_PER_NEIGHBOUR or
 * GW_PER_VARIABLE (then a grid can also be updated alone). */
int gw_halo_update_create(const gw_grid_t* grids, size_t count, const int64_t* depth_low, const int64_t* depth_high,
                          int messages, gw_halo_update_t* update);
int gw_halo_update_destroy(gw_halo_update_t* update);
int gw_halo_update_run(gw_halo_update_t update);
int gw_halo_update_run_grid(gw_halo_update_t update, size_t grid);
int gw_halo_update_run_shared(gw_halo_update_t update, size_t thread, size_t threads);
int gw_halo_update_start(gw_halo_update_t update, gw_halo_handle_t* handle);
int gw_halo_update_start_grid(gw_halo_update_t update, size_t grid, gw_halo_handle_t* handle);
/* The reverse update of every grid, each combined as its type; _start's handle is finished by gw_halo_wait. */
int gw_halo_update_reverse_run(gw_halo_update_t update, int op);
int gw_halo_update_reverse_start(gw_halo_update_t update, int op, gw_halo_handle_t* handle);
int gw_halo_update_describe(gw_halo_update_t update, char* text, size_t capacity);

/* Topology placement (docs/topology.md): for a Cartesian process grid of `extents` positions
 * (row-major, C order), blocks of `local` cells of `element_bytes` bytes with a 1-deep halo, and
 * this machine (detected over `comm`, collective, with the GHOSTWIRE_* settings of the environment
 * as a World would read them: docs/runtime.md), *reordered is a new communicator (free it with
 * MPI_Comm_free) in which rank p computes grid position p, placed by `method` ("hierarchical" when
 * NULL; "rank_order", "dims_blocking", "study", "scotch"). *position (may be NULL) is this rank's
 * position, its rank in *reordered. periodic: NULL or nonzero per periodic dimension. */
int gw_topo_cart_comm(MPI_Comm comm, int dimensions, const int* extents, const int* periodic, const int* local,
                      int element_bytes, const char* method, MPI_Comm* reordered, int* position);
/* The same with Fortran communicator handles. */
int gw_topo_cart_comm_fortran(MPI_Fint comm, int dimensions, const int* extents, const int* periodic, const int* local,
                              int element_bytes, const char* method, MPI_Fint* reordered, int* position);

#ifdef __cplusplus
}
#endif
#include "ghostwire/neighbor.h" /* MPI-shaped neighbourhood exchange (docs/mpi-shaped.md) */
#endif
