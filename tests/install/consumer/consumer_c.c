// SPDX-License-Identifier: BSD-3-Clause
/* Built with pkg-config's flags only. */
#include <stdio.h>

#include <ghostwire/ghostwire.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  gw_world_t world;
  if (gw_world_create(MPI_COMM_WORLD, &world) != GW_SUCCESS) return 1;
  int size = 0;
  gw_world_size(world, &size);
  gw_world_destroy(&world);
  printf("consumer_c: pkg-config build works (%d rank%s)\n", size, size == 1 ? "" : "s");
  MPI_Finalize();
  return 0;
}
