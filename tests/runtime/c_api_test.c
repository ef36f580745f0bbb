// SPDX-License-Identifier: BSD-3-Clause
/* The C API end to end: world, segment, a notified ring write, error codes and messages. */
#include <stdio.h>
#include <string.h>

#include "ghostwire/ghostwire.h"

#define C_CHECK_NAME "c_api_test"
#include "c_check.h"


int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  gw_world_t world = NULL;
  CHECK(gw_world_create(MPI_COMM_WORLD, &world) == GW_SUCCESS, "create: %s", gw_last_error_message());
  int rank, size, nodes, node_size;
  gw_world_rank(world, &rank);
  gw_world_size(world, &size);
  gw_world_node_count(world, &nodes);
  gw_world_node_size(world, &node_size);
  CHECK(nodes >= 1 && node_size >= 1, "node layout");
  int node_ranks[256];
  CHECK(gw_world_node_ranks(world, node_ranks) == GW_SUCCESS, "node ranks");

  gw_segment_t segment = NULL;
  CHECK(gw_segment_create(world, 1024 * sizeof(double), 16, &segment) == GW_SUCCESS, "segment: %s",
        gw_last_error_message());
  double out[1024];
  for (int i = 0; i < 1024; ++i) out[i] = rank * 10000.0 + i;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  CHECK(gw_write_notify_from(out, right, segment, 0, sizeof out, 3, 77) == GW_SUCCESS, "write: %s",
        gw_last_error_message());
  gw_notification_t value = 0;
  CHECK(gw_notify_wait(segment, 3, &value) == GW_SUCCESS && value == 77, "wait gave %u", value);
  double* in = NULL;
  gw_segment_data(segment, (void**)&in);
  for (int i = 0; i < 1024; ++i) CHECK(in[i] == left * 10000.0 + i, "in[%d] = %g", i, in[i]);

  /* Errors: a code and a message naming the problem. */
  int code = gw_write_notify_from(out, size, segment, 0, 8, 0, 1);
  CHECK(code == GW_ERR_OUT_OF_RANGE, "unknown rank gave %d", code);
  CHECK(strstr(gw_last_error_message(), "is not in [0,") != NULL, "message: %s", gw_last_error_message());
  code = gw_notify_test(segment, 16, &value);
  CHECK(code == GW_ERR_OUT_OF_RANGE && strstr(gw_last_error_message(), "notification id 16"), "id: %d %s", code,
        gw_last_error_message());
  code = gw_write_notify_from(out, right, segment, 1020 * sizeof(double), 8 * sizeof(double), 0, 1);
  CHECK(code == GW_ERR_OUT_OF_RANGE, "range gave %d", code);
  CHECK(strcmp(gw_error_name(GW_ERR_OUT_OF_RANGE), "out of range") == 0, "name %s", gw_error_name(GW_ERR_OUT_OF_RANGE));
  code = gw_segment_data(NULL, (void**)&in);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "segment is NULL"), "null: %s",
        gw_last_error_message());

  double sums[2] = {rank + 0.5, -1.0 * rank};
  CHECK(gw_allreduce_double(world, sums, 2, GW_SUM) == GW_SUCCESS, "allreduce: %s", gw_last_error_message());
  CHECK(sums[0] == size * 0.5 + size * (size - 1) / 2.0 && sums[1] == -size * (size - 1) / 2.0, "allreduce %g %g",
        sums[0], sums[1]);
  code = gw_allreduce_double(world, sums, 2, 7);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "op is 7"), "bad op: %d %s", code,
        gw_last_error_message());

  /* Split phase: the result arrives at the wait, with a barrier (other traffic) in between. */
  double maxima[2] = {rank * 2.0, -rank * 1.0};
  gw_reduction_t reduction = NULL;
  CHECK(gw_allreduce_double_start(world, maxima, 2, GW_MAX, &reduction) == GW_SUCCESS && reduction != NULL,
        "allreduce start: %s", gw_last_error_message());
  gw_reduction_t second = NULL;
  code = gw_allreduce_double_start(world, sums, 2, GW_SUM, &second);
  CHECK(code == GW_ERR_STATE && second == NULL && strstr(gw_last_error_message(), "still under way"),
        "second start: %d %s", code, gw_last_error_message());
  gw_world_barrier(world);
  CHECK(gw_reduction_wait(&reduction) == GW_SUCCESS && reduction == NULL, "reduction wait: %s", gw_last_error_message());
  CHECK(maxima[0] == (size - 1) * 2.0 && maxima[1] == 0.0, "allreduce start %g %g", maxima[0], maxima[1]);
  code = gw_reduction_wait(&reduction);
  CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "*reduction is NULL"), "wait twice: %d %s",
        code, gw_last_error_message());

  gw_world_barrier(world);
  CHECK(gw_segment_destroy(&segment) == GW_SUCCESS && segment == NULL, "destroy");
  CHECK(gw_world_destroy(&world) == GW_SUCCESS, "world destroy");
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("c_api_test: %s\n", all ? "FAILED" : "passed");
  MPI_Finalize();
  return all ? 1 : 0;
}
