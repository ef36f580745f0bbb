! SPDX-License-Identifier: BSD-3-Clause
! Topology placement from Fortran: a reordered communicator for a process grid, a world and a grid
! over it whose ghosts hold their owners' global indices, rank order as the identity, misuse.
program topo_test
  use mpi_f08
  use ghostwire
  use gw_test_support
  implicit none
  type(MPI_Comm) :: reordered
  type(gw_world) :: world
  type(gw_grid) :: grid
  real(8), pointer :: u(:, :)
  type(MPI_Comm) :: unused
  integer :: rank, ranks, position, new_rank, n(2), offset(2), i, j, bad, ierr, plain

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks)

  ! A 2-D process grid (processes(1) x processes(2), Fortran order) of 6 x 5 blocks.
  call gw_topo_cart_comm(MPI_COMM_WORLD, processes_of(ranks), [6, 5], reordered, periodic=[.true., .false.], &
                         position=position)
  call MPI_Comm_rank(reordered, new_rank)
  call gw_world_init(world, reordered)
  call expect(position == new_rank, 'position is the rank in the reordered communicator')

  call gw_grid_create(grid, world, u, [13, 9], halo=[1], periodic=[.true., .true.], processes=processes_of(ranks), &
                      stencil=GW_FULL)
  call gw_grid_info(grid, local_extents=n, offset=offset)
  u = -7
  do j = 1, n(2)
    do i = 1, n(1)
      u(i, j) = modulo(offset(1) + i - 1, 13) + 1 + 100 * (modulo(offset(2) + j - 1, 9) + 1)
    end do
  end do
  call gw_update_halo(grid)
  bad = 0
  do j = 0, n(2) + 1
    do i = 0, n(1) + 1
      if (u(i, j) /= modulo(offset(1) + i - 1, 13) + 1 + 100 * (modulo(offset(2) + j - 1, 9) + 1)) bad = bad + 1
    end do
  end do
  call expect(bad == 0, 'a grid over the reordered world: ghosts')
  call gw_grid_free(grid)

  call gw_topo_cart_comm(MPI_COMM_WORLD%MPI_VAL, [ranks], [8], plain, method='rank_order', position=position)
  call expect(position == rank, 'rank order keeps every rank''s position')
  unused%MPI_VAL = plain   ! the integer handle as mpi_f08's
  call MPI_Comm_free(unused)
  call gw_topo_cart_comm(MPI_COMM_WORLD, [ranks + 1], [8], unused, ierr=ierr)
  call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'positions but the communicator has', 'a grid of the wrong size')
  call gw_topo_cart_comm(MPI_COMM_WORLD, [ranks], [8], unused, method='nearest', ierr=ierr)
  call expect(ierr /= GW_SUCCESS .and. index(gw_error_message(), 'hierarchical') > 0, &
              'an unknown method names the known ones: ' // gw_error_message())
  call gw_topo_cart_comm(MPI_COMM_WORLD, [ranks], [8, 8], unused, ierr=ierr)
  call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'local has 2 value(s); expected 1', 'local of the wrong size')

  call finish_test(world, 'topo_test')
  call gw_world_free(world)
  call MPI_Comm_free(reordered)
  call MPI_Finalize()
contains

  function processes_of(count) result(processes)
    integer, intent(in) :: count
    integer :: processes(2)
    processes = [count, 1]
    if (mod(count, 2) == 0) processes = [2, count / 2]
  end function

end program topo_test
