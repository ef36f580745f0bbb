! SPDX-License-Identifier: BSD-3-Clause
! docs/fortran.md's first program: a periodic 2-D heat step on a 200 x 120 grid whose blocks are
! Fortran arrays with their ghost cells at natural bounds. Prints a checksum that does not depend on
! the number of ranks.
program heat
  use mpi_f08
  use ghostwire
  implicit none
  type(gw_world) :: world
  type(gw_grid) :: grid
  real(8), pointer :: u(:, :)
  real(8), allocatable :: new(:, :)
  integer :: n(2), offset(2), i, j, step, rank
  real(8) :: checksum

  call MPI_Init()
  call gw_world_init(world, MPI_COMM_WORLD)          ! or an integer handle of `use mpi`
  call gw_grid_create(grid, world, u, [200, 120], halo=[1], periodic=[.true., .true.])
  call gw_grid_info(grid, local_extents=n, offset=offset)
  ! u is this rank's block: u(0:n(1)+1, 0:n(2)+1), owned cells 1..n(k), i fastest.
  ! The global index of local cell i is offset(1) + i.
  do j = 1, n(2)
    do i = 1, n(1)
      u(i, j) = offset(1) + i + 1000 * (offset(2) + j)
    end do
  end do
  allocate(new(n(1), n(2)))
  do step = 1, 100
    call gw_update_halo(grid)                        ! fills u(0, :), u(n(1)+1, :), u(:, 0), ...
    new = 0.25d0 * (u(0:n(1)-1, 1:n(2)) + u(2:n(1)+1, 1:n(2)) + u(1:n(1), 0:n(2)-1) + u(1:n(1), 2:n(2)+1))
    u(1:n(1), 1:n(2)) = new
  end do
  checksum = sum(new)
  call gw_allreduce(world, checksum, GW_SUM)
  call gw_world_rank(world, rank)
  if (rank == 0) write(*, '(a, f0.3)') 'heat: checksum ', checksum
  call gw_grid_free(grid)
  call gw_world_free(world)
  call MPI_Finalize()
end program
