// SPDX-License-Identifier: BSD-3-Clause
/* MPI-shaped persistent neighbourhood exchange (docs/mpi-shaped.md): the calls of MPI-4's
 * MPI_Neighbor_alltoallv_init / MPI_Start / MPI_Wait with GW_ in front, same arguments, same
 * meaning, run by a ghostwire plan. Every call returns MPI_SUCCESS or an MPI error class
 * (MPI_ERR_ARG, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_BUFFER, MPI_ERR_COMM, MPI_ERR_TOPOLOGY,
 * MPI_ERR_REQUEST, MPI_ERR_OTHER); gw_last_error_message() says what was wrong. */
#ifndef GHOSTWIRE_NEIGHBOR_H
#define GHOSTWIRE_NEIGHBOR_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gw_neighbor_request* GW_Request;
#define GW_REQUEST_NULL ((GW_Request)0)

/* Collective over comm, a Cartesian, distributed-graph or graph communicator. sendtype and recvtype
 * must be contiguous (predefined, or MPI_Type_contiguous / MPI_Type_dup of contiguous types);
 * others are refused with MPI_ERR_TYPE. info is ignored. The request starts inactive. */
int GW_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, GW_Request* request);
int GW_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                              GW_Request* request);
/* Starts the exchange: every rank of comm starts its requests in the same order. Starting an active
 * request is MPI_ERR_REQUEST. */
int GW_Start(GW_Request* request);
/* Completes it (an inactive or null request returns at once); status may be MPI_STATUS_IGNORE. */
int GW_Wait(GW_Request* request, MPI_Status* status);
/* *flag = 1 once complete (then the request is inactive), 0 while neighbours' data is still to
 * come: it never waits (Plan::test_finish). An inactive or null request gives 1. */
int GW_Test(GW_Request* request, int* flag, MPI_Status* status);
/* Frees an inactive request, *request = GW_REQUEST_NULL. Collective over comm: every rank frees its
 * requests on comm in the same order (the plan's buffers are shared). Freeing the communicator frees
 * the requests still on it. */
int GW_Request_free(GW_Request* request);

/* The ghostwire World these calls keep for comm, a communicator with a topology (a gw_world_t;
 * collective the first time on comm).
 * Buffers placed in its Segments (gw_segment_create) are read in place by node peers instead of
 * being staged. comm owns it: never gw_world_destroy it, and destroy its Segments before freeing
 * comm. */
int GW_Comm_world(MPI_Comm comm, struct gw_world** world);

#ifdef __cplusplus
}
#endif
#endif
