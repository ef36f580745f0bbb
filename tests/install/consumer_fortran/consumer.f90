! SPDX-License-Identifier: BSD-3-Clause
! A Fortran program against the installed module: a periodic 2-D grid with its ghost cells at
! natural bounds, one halo update, and a check that the ghosts hold the neighbours' cells.
program consumer
  use mpi_f08
  use ghostwire
  implicit none
  type(gw_world) :: world
  type(gw_grid) :: grid
  real(8), pointer :: u(:, :)
  integer :: n(2), offset(2), i, j, ranks
  logical :: ok
  call MPI_Init()
  call gw_world_init(world, MPI_COMM_WORLD)
  call gw_world_size(world, ranks)
  call gw_grid_create(grid, world, u, [12, 8], halo=[1], periodic=[.true.])
  call gw_grid_info(grid, local_extents=n, offset=offset)
  do j = 1, n(2)
    do i = 1, n(1)
      u(i, j) = (offset(1) + i) + 100 * (offset(2) + j)
    end do
  end do
  call gw_update_halo(grid)
  ok = u(0, 1) == modulo(offset(1) - 1, 12) + 1 + 100 * (offset(2) + 1)
  ok = ok .and. u(1, n(2) + 1) == offset(1) + 1 + 100 * (modulo(offset(2) + n(2), 8) + 1)
  call gw_grid_free(grid)
  call gw_world_free(world)
  if (.not. ok) error stop 'consumer_fortran: wrong ghost cells'
  write(*, '(a, i0, a)') 'consumer_fortran: installed ghostwire Fortran module works (', ranks, ' ranks)'
  call MPI_Finalize()
end program consumer
