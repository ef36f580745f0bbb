! SPDX-License-Identifier: BSD-3-Clause
! An unstructured exchange from Fortran: G mesh nodes in blocks over the ranks, each node reading
! two others far away (g - 5 and g + 7 around the ring). Each rank lists the nodes it needs but does
! not own (its ghosts) with their owners and their place in the owner's block; one plan fetches them.
! The checksum is the same on any number of ranks (that divides G).
program unstructured
  use mpi_f08
  use ghostwire
  implicit none
  integer, parameter :: G = 240
  integer, parameter :: reach(2) = [-5, 7]
  type(gw_world) :: world
  type(gw_segment) :: segment
  type(gw_plan) :: plan
  real(8), pointer :: owned(:)
  real(8), allocatable :: ghosts(:)
  integer, allocatable :: owners(:), indices(:), needed(:)
  integer :: rank, ranks, per_rank, first, i, k, node, count
  real(8) :: total

  call MPI_Init()
  call gw_world_init(world, MPI_COMM_WORLD)
  call gw_world_rank(world, rank)
  call gw_world_size(world, ranks)
  per_rank = G / ranks
  first = rank * per_rank + 1                      ! my nodes: first .. first + per_rank - 1
  call gw_segment_allocate(segment, world, owned, [per_rank])
  do i = 1, per_rank
    owned(i) = real(first + i - 1, 8) ** 2
  end do

  ! The ghosts: every node my nodes read that another rank owns, each once.
  allocate(needed(0))
  do i = 1, per_rank
    do k = 1, 2
      node = modulo(first + i - 1 + reach(k) - 1, G) + 1
      if (.not. mine(node) .and. .not. any(needed == node)) needed = [needed, node]
    end do
  end do
  count = size(needed)
  allocate(ghosts(count), owners(count), indices(count))
  owners = (needed - 1) / per_rank                  ! the rank owning each
  indices = needed - owners * per_rank              ! its place (1-based) in that rank's block
  call gw_plan_unstructured(plan, world, segment, owned, ghosts, owners, indices)
  call gw_plan_exchange(plan)

  total = 0
  do i = 1, per_rank
    do k = 1, 2
      total = total + value_of(modulo(first + i - 1 + reach(k) - 1, G) + 1)
    end do
  end do
  call gw_allreduce(world, total, GW_SUM)
  if (rank == 0) write(*, '(a, f0.1, a, i0, a)') 'unstructured: checksum ', total, ' (', ranks, ' ranks)'

  call gw_plan_free(plan)
  call gw_segment_free(segment)
  call gw_world_free(world)
  call MPI_Finalize()

contains

  logical function mine(node)
    integer, intent(in) :: node
    mine = node >= first .and. node < first + per_rank
  end function

  real(8) function value_of(node)
    integer, intent(in) :: node
    integer :: at(1)
    if (mine(node)) then
      value_of = owned(node - first + 1)
    else
      at = findloc(needed, node)
      value_of = ghosts(at(1))
    end if
  end function

end program unstructured
