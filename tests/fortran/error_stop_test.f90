! SPDX-License-Identifier: BSD-3-Clause
! Misuse without `ierr`: the program stops (error stop) with the library's message naming the
! argument, on every rank, not with a crash. CTest expects the message in the output.
program error_stop_test
  use mpi_f08
  use ghostwire
  implicit none
  type(gw_world) :: world
  type(gw_plan) :: plan
  type(gw_region) :: region
  real(8), allocatable, target :: u(:, :)
  integer :: rank
  call MPI_Init()
  call gw_world_init(world, MPI_COMM_WORLD)
  call gw_world_rank(world, rank)
  allocate(u(0:5, 0:3))
  call gw_plan_create(plan, world, [rank], 1)
  call gw_plan_add_memory(plan, u, region, lower=lbound(u))
  call gw_plan_add_box(plan, GW_SEND, 0, rank, region, [1, 1], [6, 1])   ! 6 is beyond u's 0:5
  write(*, '(a)') 'error_stop_test: the bad box was accepted'
  call MPI_Finalize()
end program error_stop_test
