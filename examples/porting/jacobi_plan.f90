! SPDX-License-Identifier: BSD-3-Clause
! The Jacobi program of examples/porting/mpi_jacobi.cpp in Fortran, on the program's own arrays
! u(0:nx+1, 0:ny+1) (x fastest, ghost cells at 0 and n+1) with a ghostwire plan per array: each
! message is a section of the array, in its own bounds (gw_plan_add_section). Odd steps sweep u
! into unew, even steps unew into u, each exchanging the halo of the array it reads. Prints the MPI
! program's checksum (docs/porting.md, docs/fortran.md).
!
!   scripts/launch -n 2 -- build/examples/porting_jacobi_f
program jacobi_plan
  use mpi_f08
  use ghostwire
  implicit none
  integer, parameter :: nx_global = 48, ny_global = 32, steps = 20
  integer, parameter :: to_north = 0, to_south = 1, to_east = 2, to_west = 3   ! channels: directions of travel
  type(MPI_Comm) :: cart
  type(gw_world) :: world
  type(gw_plan) :: halo_u, halo_unew
  real(8), allocatable, target :: u(:, :), unew(:, :)   ! target: the plans keep their addresses
  integer :: x0, y0, nx, ny, south, north, west, east, rank, ranks, step
  real(8) :: total

  call MPI_Init()
  call decompose()
  allocate(u(0:nx + 1, 0:ny + 1), unew(0:nx + 1, 0:ny + 1))
  u = 0                                                 ! ghost cells at the walls stay 0
  unew = 0
  call initialise(u)
  call gw_world_init(world, cart)                       ! the same ranks as cart
  call halo_plan(halo_u, u)
  call halo_plan(halo_unew, unew)
  do step = 1, steps
    if (mod(step, 2) == 1) then
      call gw_plan_exchange(halo_u)                     ! u's ghost cells hold the neighbours' edge cells
      call sweep(u, unew)
    else
      call gw_plan_exchange(halo_unew)
      call sweep(unew, u)
    end if
  end do
  if (mod(steps, 2) == 1) u(1:nx, 1:ny) = unew(1:nx, 1:ny)
  total = checksum(u)
  if (rank == 0) then
    write(*, '(a, i0, a, i0, a, i0, a, i0, a)') 'jacobi_plan.f90: ', nx_global, ' x ', ny_global, ', ', steps, &
                                                ' steps, ', ranks, ' ranks'
    write(*, '(a, f0.6)') 'checksum ', total
  end if
  call gw_plan_free(halo_unew)                          ! collective, in the same order on every rank
  call gw_plan_free(halo_u)
  call gw_world_free(world)
  call MPI_Comm_free(cart)
  call MPI_Finalize()

contains

  ! A Cartesian communicator (dimension 1: y, walls; dimension 2: x, periodic) and this rank's block:
  ! cells x0+1 .. x0+nx, y0+1 .. y0+ny of the global grid (0-based x0, y0), remainders spread.
  subroutine decompose()
    integer :: dims(2), coords(2)
    call MPI_Comm_size(MPI_COMM_WORLD, ranks)
    dims = 0
    call MPI_Dims_create(ranks, 2, dims)
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, [.false., .true.], .false., cart)
    call MPI_Comm_rank(cart, rank)
    call MPI_Cart_coords(cart, rank, 2, coords)
    y0 = coords(1) * ny_global / dims(1)
    ny = (coords(1) + 1) * ny_global / dims(1) - y0
    x0 = coords(2) * nx_global / dims(2)
    nx = (coords(2) + 1) * nx_global / dims(2) - x0
    call MPI_Cart_shift(cart, 0, 1, south, north)
    call MPI_Cart_shift(cart, 1, 1, west, east)
  end subroutine

  subroutine initialise(a)
    real(8), intent(inout) :: a(0:, 0:)
    integer :: x, y
    do y = 1, ny
      do x = 1, nx
        a(x, y) = modulo(7 * (x0 + x - 1) + 13 * (y0 + y - 1), 17) / 16d0
      end do
    end do
  end subroutine

  ! The ranks this block exchanges with, each once (a periodic dimension of 1 or 2 ranks repeats them).
  function neighbours() result(list)
    integer, allocatable :: list(:)
    integer :: r, k, candidates(4)
    allocate(list(0))
    candidates = [south, north, west, east]
    do k = 1, 4
      r = candidates(k)
      if (r /= MPI_PROC_NULL .and. .not. any(list == r)) list = [list, r]
    end do
  end function

  ! The halo of one array, described once by sections of the array itself.
  subroutine halo_plan(plan, a)
    type(gw_plan), intent(out) :: plan
    real(8), intent(inout), target :: a(0:, 0:)
    type(gw_region) :: field
    call gw_plan_create(plan, world, neighbours(), 4)
    call gw_plan_add_memory(plan, a, field)
    if (north /= MPI_PROC_NULL) then
      call gw_plan_add_section(plan, GW_SEND, to_north, north, field, a(1:nx, ny))
      call gw_plan_add_section(plan, GW_RECEIVE, to_south, north, field, a(1:nx, ny + 1))
    end if
    if (south /= MPI_PROC_NULL) then
      call gw_plan_add_section(plan, GW_SEND, to_south, south, field, a(1:nx, 1))
      call gw_plan_add_section(plan, GW_RECEIVE, to_north, south, field, a(1:nx, 0))
    end if
    if (east /= MPI_PROC_NULL) then
      call gw_plan_add_section(plan, GW_SEND, to_east, east, field, a(nx, 1:ny))
      call gw_plan_add_section(plan, GW_RECEIVE, to_west, east, field, a(nx + 1, 1:ny))
    end if
    if (west /= MPI_PROC_NULL) then
      call gw_plan_add_section(plan, GW_SEND, to_west, west, field, a(1, 1:ny))
      call gw_plan_add_section(plan, GW_RECEIVE, to_east, west, field, a(0, 1:ny))
    end if
    call gw_plan_commit(plan)                           ! collective: both sides of every message agree
  end subroutine

  ! b = (west + east + south + north) / 4 on the owned cells.
  subroutine sweep(a, b)
    real(8), intent(in) :: a(0:, 0:)
    real(8), intent(inout) :: b(0:, 0:)
    b(1:nx, 1:ny) = 0.25d0 * (a(0:nx - 1, 1:ny) + a(2:nx + 1, 1:ny) + a(1:nx, 0:ny - 1) + a(1:nx, 2:ny + 1))
  end subroutine

  ! Sum over all cells of (1 + x + nx_global * y) * a (0-based global x, y), on rank 0.
  real(8) function checksum(a)
    real(8), intent(in) :: a(0:, 0:)
    real(8) :: local
    integer :: x, y
    local = 0
    do y = 1, ny
      do x = 1, nx
        local = local + (1d0 + (x0 + x - 1) + nx_global * (y0 + y - 1)) * a(x, y)
      end do
    end do
    checksum = 0
    call MPI_Reduce(local, checksum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, cart)
  end function
end program
