// SPDX-License-Identifier: BSD-3-Clause
/* Halo plans through the C API: a periodic 1-D halo exchange (boxes and ranges), an unstructured
 * plan, and errors as codes plus messages. */
#include <stdio.h>
#include <string.h>

#include "ghostwire/ghostwire.h"

#define C_CHECK_NAME "plan_c_test"
#include "c_check.h"


enum { N = 10 }; /* owned cells; cell 0 and N+1 are ghosts */

/* The ping-pong's reader for gw_plan_read_in_place: the value where the message is, or where it
 * was copied when it cannot be read in place. */
struct Reading {
  const double* copied;
  double got;
};
static void read_first(void* context, const void* message) {
  struct Reading* reading = (struct Reading*)context;
  reading->got = message ? *(const double*)message : *reading->copied;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  gw_world_t world;
  OK(gw_world_create(MPI_COMM_WORLD, &world));
  int rank, size;
  gw_world_rank(world, &rank);
  gw_world_size(world, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  gw_segment_t segment;
  OK(gw_segment_create(world, (N + 2) * sizeof(double), 16, &segment));
  double* u;
  gw_segment_data(segment, (void**)&u);
  int neighbours[2] = {right, left};
  gw_plan_t plan;
  OK(gw_plan_create(world, neighbours, right == left ? 1 : 2, 2, &plan));
  gw_region_t region;
  OK(gw_plan_add_segment_memory(plan, segment, sizeof(double), 0, (N + 2) * sizeof(double), &region));
  /* Channel 0 travels right: my last owned cell to the right neighbour's left ghost. */
  size_t one = 1, last = N, ghost_right = N + 1;
  ptrdiff_t unit = 1;
  OK(gw_plan_add_box(plan, GW_SEND, 0, right, region, N, 1, &one, &unit));
  OK(gw_plan_add_ranges(plan, GW_RECEIVE, 0, left, region, 1, (size_t[]){0}, &one));
  /* Channel 1 travels left: my first owned cell to the left neighbour's right ghost. */
  OK(gw_plan_add_indices(plan, GW_SEND, 1, left, region, 1, &one));
  OK(gw_plan_add_box(plan, GW_RECEIVE, 1, right, region, ghost_right, 1, &one, &unit));
  (void)last;
  int code = gw_plan_aggregate(plan, 7);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "GW_AGGREGATE_OFF"), "%d %s", code,
        gw_last_error_message());
  OK(gw_plan_aggregate(plan, GW_AGGREGATE_NODE));
  OK(gw_plan_commit(plan));
  char text[4096];
  OK(gw_plan_describe(plan, text, sizeof text));
  CHECK(strstr(text, "intra-node") || strstr(text, "inter-node"), "describe: %s", text);
  if (strstr(text, "inter-node"))
    CHECK(strstr(text, "aggregated") && strstr(text, "Plan::aggregate: node"), "describe: %s", text);

  for (int round = 0; round < 20; ++round) {
    for (int i = 1; i <= N; ++i) u[i] = 1000.0 * round + rank * N + i;
    u[0] = u[N + 1] = -1;
    if (round % 2) {
      OK(gw_plan_exchange(plan));
    } else {
      OK(gw_plan_send(plan, 0, right));
      OK(gw_plan_send(plan, 1, left));
      OK(gw_plan_wait_recv(plan, 0, left));
      OK(gw_plan_wait_recv(plan, 1, right));
      OK(gw_plan_wait_send(plan, 0, right));
      OK(gw_plan_wait_send(plan, 1, left));
    }
    CHECK(u[0] == 1000.0 * round + left * N + N, "round %d left ghost %g", round, u[0]);
    CHECK(u[N + 1] == 1000.0 * round + right * N + 1, "round %d right ghost %g", round, u[N + 1]);
    gw_world_barrier(world);
  }

  /* Errors. */
  code = gw_plan_send(plan, 2, right);
  CHECK(code == GW_ERR_OUT_OF_RANGE && strstr(gw_last_error_message(), "channel 2 is not in [0, 2)"), "%d %s", code,
        gw_last_error_message());
  code = gw_plan_add_box(plan, 7, 0, right, region, 0, 1, &one, &unit);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "GW_SEND or GW_RECEIVE"), "%d %s", code,
        gw_last_error_message());
  gw_world_barrier(world);
  OK(gw_plan_destroy(&plan));

  /* Unstructured: every rank wants owned cells 1 and 3 of its right neighbour. */
  double ghosts[2] = {-1, -1};
  int owners[2] = {right, right};
  size_t indices[2] = {1, 3};
  gw_plan_t unstructured;
  OK(gw_plan_create_unstructured(world, segment, 0, N + 2, ghosts, 2, owners, indices, sizeof(double), &unstructured));
  for (int i = 0; i < N + 2; ++i) u[i] = rank * 100.0 + i;
  gw_world_barrier(world);
  OK(gw_plan_exchange(unstructured));
  CHECK(ghosts[0] == right * 100.0 + 1 && ghosts[1] == right * 100.0 + 3, "unstructured %g %g", ghosts[0], ghosts[1]);
  /* The reverse: my ghosts go back to cells 1 and 3 of my right neighbour, so my cells 1 and 3 get
   * the left neighbour's ghosts added (enabled after commit: collective). */
  OK(gw_plan_enable_reverse(unstructured));
  gw_world_barrier(world);
  ghosts[0] = 1000.0 * (rank + 1);
  ghosts[1] = 10000.0 * (rank + 1);
  OK(gw_plan_reverse_exchange(unstructured, GW_SUM, GW_DOUBLE));
  CHECK(u[1] == rank * 100.0 + 1 + 1000.0 * (left + 1) && u[3] == rank * 100.0 + 3 + 10000.0 * (left + 1) &&
            u[2] == rank * 100.0 + 2,
        "reverse sum %g %g %g", u[1], u[2], u[3]);
  gw_world_barrier(world);
  OK(gw_plan_reverse_start(unstructured));
  OK(gw_plan_reverse_finish(unstructured, GW_REPLACE, GW_DOUBLE));
  CHECK(u[1] == 1000.0 * (left + 1) && u[3] == 10000.0 * (left + 1), "reverse replace %g %g", u[1], u[3]);
  code = gw_plan_reverse_exchange(unstructured, 9, GW_DOUBLE);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "GW_REPLACE"), "%d %s", code,
        gw_last_error_message());
  int ops[1] = {GW_MAX}, types[1] = {GW_INT64};
  OK(gw_plan_reverse_exchange_regions(unstructured, 1, ops, types));
  gw_world_barrier(world);
  OK(gw_plan_destroy(&unstructured));

  /* The same ghosts plus cell 2 of the left neighbour, combined per pair of nodes between nodes. */
  double ghosts3[3];
  int owners3[3] = {right, left, right};
  size_t indices3[3] = {3, 2, 1};
  code = gw_plan_create_unstructured_aggregate(world, segment, 0, N + 2, ghosts3, 3, owners3, indices3, sizeof(double),
                                               -1, &unstructured);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "gw_plan_create_unstructured_aggregate: mode is -1"),
        "%d %s", code, gw_last_error_message());
  OK(gw_plan_create_unstructured_aggregate(world, segment, 0, N + 2, ghosts3, 3, owners3, indices3, sizeof(double),
                                           GW_AGGREGATE_NODE, &unstructured));
  OK(gw_plan_describe(unstructured, text, sizeof text));
  if (strstr(text, "inter-node")) CHECK(strstr(text, "aggregated"), "describe: %s", text);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < N + 2; ++i) u[i] = round * 1e4 + rank * 100.0 + i;
    ghosts3[0] = ghosts3[1] = ghosts3[2] = -1;
    gw_world_barrier(world);
    OK(gw_plan_exchange(unstructured));
    CHECK(ghosts3[0] == round * 1e4 + right * 100.0 + 3 && ghosts3[1] == round * 1e4 + left * 100.0 + 2 &&
              ghosts3[2] == round * 1e4 + right * 100.0 + 1,
          "aggregated unstructured round %d: %g %g %g", round, ghosts3[0], ghosts3[1], ghosts3[2]);
    gw_world_barrier(world);
  }
  OK(gw_plan_destroy(&unstructured));

  /* Ping-pong between rank pairs, read in place and acknowledged by the reply: cell 1 goes to the
   * partner's cell 0. */
  int partner = (rank ^ 1) < size ? (rank ^ 1) : -1;
  gw_plan_t pingpong;
  OK(gw_plan_create(world, &partner, partner >= 0 ? 1 : 0, 1, &pingpong));
  OK(gw_plan_acknowledge_by_reply(pingpong));
  OK(gw_plan_intra_path(pingpong, "auto"));
  code = gw_plan_intra_path(pingpong, NULL);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "name"), "%d %s", code, gw_last_error_message());
  OK(gw_plan_add_segment_memory(pingpong, segment, sizeof(double), 0, (N + 2) * sizeof(double), &region));
  if (partner >= 0) {
    OK(gw_plan_add_ranges(pingpong, GW_SEND, 0, partner, region, 1, &one, &one));
    OK(gw_plan_add_ranges(pingpong, GW_RECEIVE, 0, partner, region, 1, (size_t[]){0}, &one));
  }
  OK(gw_plan_commit(pingpong));
  if (partner >= 0) {
    char path[64] = "";
    OK(gw_plan_send_path(pingpong, 0, partner, path, sizeof path));
    CHECK(path[0] != '\0', "no path named for the ping-pong's send");
    OK(gw_plan_receive_path(pingpong, 0, partner, path, sizeof path));
    CHECK(path[0] != '\0', "no path named for the ping-pong's receive");
  }
  for (int round = 0; partner >= 0 && round < 10; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      if ((rank % 2) == turn) {
        u[1] = 100.0 * round + rank;
        if (round % 2 == 0) {
          OK(gw_plan_send(pingpong, 0, partner));
        } else {  /* taken and answered by the reply: free again */
          int sent = 0;
          OK(gw_plan_try_send(pingpong, 0, partner, &sent));
          CHECK(sent == 1, "ping-pong round %d: try_send did not send", round);
        }
      } else if (round % 4 == 3) {
        struct Reading reading = {&u[0], -1.0};
        OK(gw_plan_read_in_place(pingpong, 0, partner, read_first, &reading));
        CHECK(reading.got == 100.0 * round + partner, "ping-pong round %d: read in place %g", round, reading.got);
      } else if (round % 2 == 1) {
        OK(gw_plan_prefetch_recv(pingpong, 0, partner, sizeof(double)));
        OK(gw_plan_wait_recv_in_place(pingpong, 0, partner));
        const void* view = NULL;
        OK(gw_plan_view(pingpong, 0, partner, &view));
        double got = view ? *(const double*)view : u[0];
        CHECK(got == 100.0 * round + partner, "ping-pong round %d: %g", round, got);
        OK(gw_plan_release(pingpong, 0, partner));
      } else {
        int done = 0;
        while (!done) OK(gw_plan_test_recv_in_place(pingpong, 0, partner, &done));
        const void* view = NULL;
        OK(gw_plan_view(pingpong, 0, partner, &view));
        double got = view ? *(const double*)view : u[0];
        CHECK(got == 100.0 * round + partner, "ping-pong round %d: %g", round, got);
        OK(gw_plan_release(pingpong, 0, partner));
      }
    }
  }
  if (partner >= 0) {
    OK(gw_plan_acknowledge(pingpong, 0, partner));
    OK(gw_plan_wait_send(pingpong, 0, partner));
  }
  gw_world_barrier(world);
  OK(gw_plan_destroy(&pingpong));

  /* Partitions: 5 cells to the right in partitions of 2 and 3, each readied and tested on its own,
   * in reverse order; then the whole message by exchange_share with a team of one. */
  double cells[5], received[5];
  gw_plan_t parts;
  OK(gw_plan_create(world, neighbours, right == left ? 1 : 2, 1, &parts));
  gw_region_t out, in;
  OK(gw_plan_add_private_memory(parts, cells, sizeof cells, sizeof(double), &out));
  OK(gw_plan_add_private_memory(parts, received, sizeof received, sizeof(double), &in));
  size_t five = 5, zero = 0, split[2] = {2, 3};
  OK(gw_plan_add_ranges(parts, GW_SEND, 0, right, out, 1, &zero, &five));
  OK(gw_plan_add_ranges(parts, GW_RECEIVE, 0, left, in, 1, &zero, &five));
  OK(gw_plan_partition(parts, GW_SEND, 0, right, 2, split));
  OK(gw_plan_partition(parts, GW_RECEIVE, 0, left, 2, split));
  code = gw_plan_partition(parts, 7, 0, right, 2, NULL);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "GW_SEND or GW_RECEIVE"), "%d %s", code,
        gw_last_error_message());
  OK(gw_plan_commit(parts));
  size_t count = 0;
  OK(gw_plan_partitions(parts, GW_RECEIVE, 0, left, &count));
  CHECK(count == 2, "partitions: %zu", count);
  int level = -1;
  OK(gw_world_thread_level(world, &level));
  CHECK(level >= GW_THREAD_SINGLE && level <= GW_THREAD_MULTIPLE, "thread level %d", level);
  /* Odd rounds receive into received, even ones into received_too (gw_plan_rebind). */
  double received_too[5];
  for (int round = 1; round <= 4; ++round) {
    double* into = round % 2 ? received : received_too;
    OK(gw_plan_rebind(parts, in, into));
    for (int i = 0; i < 5; ++i) {
      cells[i] = 100.0 * round + 10.0 * rank + i;
      into[i] = -1;
    }
    if (round % 2) {
      for (size_t k = 2; k-- > 0;) OK(gw_plan_pready(parts, 0, right, k));
      for (size_t k = 2; k-- > 0;) {
        int arrived = 0;
        while (!arrived) OK(gw_plan_parrived(parts, 0, left, k, &arrived));
        for (size_t i = k ? 2 : 0; i < (k ? 5 : 2); ++i)
          CHECK(received[i] == 100.0 * round + 10.0 * left + (double)i, "round %d partition %zu cell %zu: %g", round,
                k, i, received[i]);
      }
      for (size_t k = 0; k < 2; ++k) OK(gw_plan_wait_send_partition(parts, 0, right, k));
    } else {
      OK(gw_plan_exchange_share(parts, 0, 1)); /* a team of one: the whole exchange */
      for (int i = 0; i < 5; ++i) {
        CHECK(into[i] == 100.0 * round + 10.0 * left + i, "round %d cell %d: %g", round, i, into[i]);
        CHECK(received[i] == 100.0 * (round - 1) + 10.0 * left + i, "round %d: the old array's cell %d: %g", round, i,
              received[i]);
      }
    }
    gw_world_barrier(world);
  }
  OK(gw_plan_destroy(&parts));

  OK(gw_segment_destroy(&segment));
  OK(gw_world_destroy(&world));
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("plan_c_test: %s\n", all ? "FAILED" : "passed");
  MPI_Finalize();
  return all ? 1 : 0;
}
