# SPDX-License-Identifier: BSD-3-Clause
# The examples as a user runs them: plain mpirun (mpiexec with MPICH) on the MPI's defaults, none of
# scripts/launch's Open MPI settings (PLAIN: scripts/launch --plain-mpi; docs/running.md). Each
# checks the same checksum as the smoke tests above, or, where the defaults cannot serve the
# program, that it stops early with the message naming what to set (a short TIMEOUT: no hang).
# Included from examples/CMakeLists.txt after the example targets.
if(NOT (GHOSTWIRE_BUILD_TESTS AND COMMAND gw_add_mpi_test))
  return()
endif()

set(gw_plain_heat_checksum "checksum 120\\.62547432091[56]")
set(gw_plain_copy_checksum "checksum 99900002\\.5")

# One host: node peers share memory, no window spans nodes; 4 ranks on 2 cores oversubscribe.
gw_add_mpi_test(NAME examples.plain.heat_jacobi.intra.2 RANKS 2 PLAIN TIMEOUT 60 LABELS dist examples
                PASS_REGEX "${gw_plain_heat_checksum}" COMMAND $<TARGET_FILE:heat_jacobi> 64 50)
gw_add_mpi_test(NAME examples.plain.heat_jacobi.intra.4 RANKS 4 PLAIN TIMEOUT 60 MPICH_OVERSUBSCRIBE
                LABELS dist examples PASS_REGEX "${gw_plain_heat_checksum}" COMMAND $<TARGET_FILE:heat_jacobi> 64 50)
gw_add_mpi_test(NAME examples.plain.array_copy.intra.2 RANKS 2 PLAIN TIMEOUT 60 LABELS dist examples
                PASS_REGEX "${gw_plain_copy_checksum}" COMMAND $<TARGET_FILE:array_copy> 100000 7000)
# Emulated nodes on one host: the copies go through windows over the world, which the default
# one-sided component of one host serves (Open MPI: osc/rdma over shared memory).
gw_add_mpi_test(NAME examples.plain.array_copy.emulated.2 RANKS 2 PATH emulated RPN 1 PLAIN TIMEOUT 60
                LABELS dist examples PASS_REGEX "${gw_plain_copy_checksum}" COMMAND $<TARGET_FILE:array_copy> 100000 7000)

# Two hosts over TCP (Open MPI only): halo exchanges travel as two-sided messages and need no window.
gw_add_mpi_test(NAME examples.plain.heat_jacobi.multihost.2 RANKS 2 PATH multihost PLAIN TIMEOUT 60
                LABELS dist examples PASS_REGEX "${gw_plain_heat_checksum}" COMMAND $<TARGET_FILE:heat_jacobi> 64 50)
# A distributed array is read and written through windows between hosts, which Open MPI's defaults
# cannot create there: the array's construction stops the job with the fix, on every rank.
gw_add_mpi_test(NAME examples.plain.array_copy.multihost.2 RANKS 2 PATH multihost PLAIN TIMEOUT 30
                LABELS dist examples PASS_REGEX "Array: an array over 2 nodes reaches the other nodes' elements through one-sided windows, but this MPI cannot create one-sided windows between nodes[^\n]*export OMPI_MCA_osc=sm,ucx"
                COMMAND $<TARGET_FILE:array_copy> 100000 7000)
# The rma transport puts every notified write into such a window: the World is refused at start-up.
gw_add_mpi_test(NAME examples.plain.heat_jacobi.multihost.rma.2 RANKS 2 PATH multihost PLAIN TIMEOUT 30
                LABELS dist examples ENV GHOSTWIRE_TRANSPORT=rma
                PASS_REGEX "World: the rma transport \\(GHOSTWIRE_TRANSPORT=rma\\) puts notified writes into windows between nodes, but this MPI cannot create one-sided windows between nodes[^\n]*export OMPI_MCA_osc=sm,ucx"
                COMMAND $<TARGET_FILE:heat_jacobi> 64 50)
