! SPDX-License-Identifier: BSD-3-Clause
! Grids from Fortran: real(8), real(4), integer and integer(8) arrays in 1 to 3 dimensions with their
! ghost cells at natural bounds, on rectangular extents (a transposed order, a wrong stride or a wrong
! bound puts another cell's value in a ghost). Every ghost must hold its owner's global index.
program grid_test
  use mpi_f08
  use ghostwire
  use gw_test_support
  implicit none
  type(gw_world) :: world
  integer :: rank, ranks, ierr

  call MPI_Init()
  call gw_world_init(world, MPI_COMM_WORLD)
  call gw_world_rank(world, rank)
  call gw_world_size(world, ranks)

  call test_2d_full_periodic()
  call test_2d_faces_open_split()
  call test_3d_real4_processes()
  call test_1d_integer()
  call test_3d_int64_update_depths()
  call test_reverse()
  call test_errors()

  call finish_test(world, 'grid_test')
  call gw_world_free(world)
  call MPI_Finalize()

contains

  ! The reverse update: ones updated forward, then summed back: 1 plus the number of ghost images of
  ! each cell (counted here from the ghost bounds: a block's edge cells along a periodic dimension
  ! of width 1 are imaged once per side). Then min and max leave equal values as they are.
  subroutine test_reverse()
    type(gw_grid) :: grid
    type(gw_halo_update) :: update
    type(gw_halo_handle) :: handle
    integer(8), pointer :: u(:, :)
    integer :: n(2), i, j, bad
    integer(8) :: expected
    call gw_grid_create(grid, world, u, [8, 4 * ranks], halo=[0, 1], periodic=[.false., .true.], &
                        processes=[1, ranks])
    call gw_grid_info(grid, local_extents=n)
    u = 1
    call gw_update_halo(grid)
    call gw_reverse_halo(grid)
    bad = 0
    do j = 1, n(2)
      do i = 1, n(1)
        expected = 1
        if (j == 1) expected = expected + 1
        if (j == n(2)) expected = expected + 1
        if (u(i, j) /= expected) bad = bad + 1
      end do
    end do
    call expect(bad == 0, 'reverse sum: ' // trim(itoa(bad)) // ' wrong cells')
    call gw_halo_update_create(update, [grid])
    call gw_halo_update_run(update)
    call gw_halo_update_reverse_start(update, handle, GW_MAX)
    call gw_halo_wait(handle)
    call gw_halo_update_reverse_run(update, GW_MIN)
    call expect(u(1, 1) == 2 .and. u(1, 2) == 1, 'reverse max and min')
    call gw_reverse_halo(grid, 42, ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'GW_REPLACE', 'reverse with op 42')
    call gw_halo_update_free(update)
    call gw_grid_free(grid)
  end subroutine

  ! The global index of a cell as a number: i + 100 j + 10000 k (1-based, wrapped periodically).
  real(8) function value_of(g, extents, round)
    integer, intent(in) :: g(:), extents(:), round
    integer :: d
    value_of = round * 1000000
    do d = 1, size(g)
      value_of = value_of + (modulo(g(d) - 1, extents(d)) + 1) * 100 ** (d - 1)
    end do
  end function

  ! Whether ghost (local) i is filled: within the width, across a periodic boundary or inside the
  ! grid, on a face or the stencil full.
  logical function filled(local, n, offset, extents, periodic, full, low, high)
    integer, intent(in) :: local(:), n(:), offset(:), extents(:), low(:), high(:)
    logical, intent(in) :: periodic(:), full
    integer :: d, outside, g
    filled = .true.
    outside = 0
    do d = 1, size(local)
      if (local(d) < 1 .or. local(d) > n(d)) then
        outside = outside + 1
        if (local(d) < 1 - low(d) .or. local(d) > n(d) + high(d)) filled = .false.
      end if
      g = offset(d) + local(d)
      if ((g < 1 .or. g > extents(d)) .and. .not. periodic(d)) filled = .false.
    end do
    if (outside > 1 .and. .not. full) filled = .false.
  end function

  subroutine test_2d_full_periodic()
    type(gw_grid) :: grid
    real(8), pointer :: u(:, :)
    integer :: n(2), offset(2), extents(2), halo(2), i, j, round, bad
    character(len=:), allocatable :: text
    extents = [13, 7]
    call gw_grid_create(grid, world, u, extents, halo=[2, 1], periodic=[.true., .true.], stencil=GW_FULL)
    call gw_grid_info(grid, local_extents=n, offset=offset, halo=halo)
    call expect(all(halo == [2, 1]), '2-D halo widths')
    call expect(all(lbound(u) == [-1, 0]) .and. all(ubound(u) == n + [2, 1]), '2-D bounds of u')
    call gw_grid_describe(grid, text)
    call expect(index(text, 'rank') > 0, '2-D describe')
    do round = 1, 2
      u = -7
      do j = 1, n(2)
        do i = 1, n(1)
          u(i, j) = value_of([offset(1) + i, offset(2) + j], extents, round)
        end do
      end do
      call gw_update_halo(grid)
      bad = 0
      do j = lbound(u, 2), ubound(u, 2)
        do i = lbound(u, 1), ubound(u, 1)
          if (u(i, j) /= value_of([offset(1) + i, offset(2) + j], extents, round)) bad = bad + 1
        end do
      end do
      call expect(bad == 0, '2-D full periodic: every ghost holds its owner''s index')
    end do
    call gw_grid_free(grid)
  end subroutine

  subroutine test_2d_faces_open_split()
    type(gw_grid) :: grid
    type(gw_halo_handle) :: pending
    real(8), pointer :: u(:, :)
    integer :: n(2), offset(2), extents(2), i, j, bad
    real(8) :: expected
    extents = [11, 17]
    call gw_grid_create(grid, world, u, extents, halo=[1], stencil=GW_FACES)
    call gw_grid_info(grid, local_extents=n, offset=offset)
    u = -7
    do j = 1, n(2)
      do i = 1, n(1)
        u(i, j) = value_of([offset(1) + i, offset(2) + j], extents, 0)
      end do
    end do
    call gw_update_halo_start(grid, pending)
    call gw_halo_wait(pending)
    bad = 0
    do j = 0, n(2) + 1
      do i = 0, n(1) + 1
        expected = -7
        if (filled([i, j], n, offset, extents, [.false., .false.], .false., [1, 1], [1, 1])) &
          expected = value_of([offset(1) + i, offset(2) + j], extents, 0)
        if (u(i, j) /= expected) bad = bad + 1
      end do
    end do
    call expect(bad == 0, '2-D faces, open, split: ghosts')
    call gw_grid_free(grid)
  end subroutine

  subroutine test_3d_real4_processes()
    type(gw_grid) :: grid
    real(4), pointer :: u(:, :, :)
    integer :: n(3), offset(3), extents(3), processes(3), i, j, k, bad
    extents = [5, 6, 4 * ranks]
    call gw_grid_create(grid, world, u, extents, halo=[1, 1, 1], periodic=[.true.], processes=[1, 1, ranks], &
                        stencil=GW_FULL)
    call gw_grid_info(grid, local_extents=n, offset=offset, processes=processes)
    call expect(all(processes == [1, 1, ranks]), '3-D processes')
    call expect(all(n == [5, 6, 4]) .and. offset(3) == 4 * rank, '3-D block of this rank')
    u = -7
    do k = 1, n(3)
      do j = 1, n(2)
        do i = 1, n(1)
          u(i, j, k) = real(value_of([offset(1) + i, offset(2) + j, offset(3) + k], extents, 0), 4)
        end do
      end do
    end do
    call gw_update_halo(grid)
    bad = 0
    do k = 0, n(3) + 1
      do j = 0, n(2) + 1
        do i = 0, n(1) + 1
          if (u(i, j, k) /= real(value_of([offset(1) + i, offset(2) + j, offset(3) + k], extents, 0), 4)) bad = bad + 1
        end do
      end do
    end do
    call expect(bad == 0, '3-D real(4) full periodic with a given process grid: ghosts')
    call gw_grid_free(grid)
  end subroutine

  subroutine test_1d_integer()
    type(gw_grid) :: grid
    integer, pointer :: u(:)
    integer :: n(1), offset(1), i, bad
    call gw_grid_create(grid, world, u, [10 * ranks + 3], halo=[3], periodic=[.true.])
    call gw_grid_info(grid, local_extents=n, offset=offset)
    call expect(lbound(u, 1) == -2 .and. ubound(u, 1) == n(1) + 3, '1-D bounds')
    u = -7
    do i = 1, n(1)
      u(i) = offset(1) + i
    end do
    call gw_update_halo(grid)
    bad = 0
    do i = -2, n(1) + 3
      if (u(i) /= modulo(offset(1) + i - 1, 10 * ranks + 3) + 1) bad = bad + 1
    end do
    call expect(bad == 0, '1-D integer periodic: ghosts')
    call gw_grid_free(grid)
  end subroutine

  ! Three grids in one update, each its own depth; per variable, then one grid alone.
  subroutine test_3d_int64_update_depths()
    type(gw_grid) :: grids(2)
    type(gw_halo_update) :: update
    type(gw_halo_handle) :: pending
    integer(8), pointer :: a(:, :, :)
    real(8), pointer :: b(:, :, :)
    integer :: n(3), offset(3), extents(3), low(3, 2), high(3, 2), i, j, k, bad(2), round
    character(len=:), allocatable :: text
    real(8) :: expected
    extents = [9, 5, 7]
    call gw_grid_create(grids(1), world, a, extents, halo=[2], periodic=[.true.], stencil=GW_FULL)
    call gw_grid_create(grids(2), world, b, extents, halo=[2], periodic=[.true.], stencil=GW_FULL)
    call gw_grid_info(grids(1), local_extents=n, offset=offset)
    low(:, 1) = [2, 1, 0]
    high(:, 1) = [1, 2, 1]
    low(:, 2) = [-1, 0, 0]
    high(:, 2) = 0
    call gw_halo_update_create(update, grids, low, high, per_variable=.true.)
    call gw_halo_update_describe(update, text)
    call expect(len(text) > 0, 'update describe')
    low(:, 2) = 2
    high(:, 2) = 2
    do round = 0, 2
      a = -7
      b = -7
      do k = 1, n(3)
        do j = 1, n(2)
          do i = 1, n(1)
            a(i, j, k) = int(value_of([offset(1) + i, offset(2) + j, offset(3) + k], extents, round), 8)
            b(i, j, k) = value_of([offset(1) + i, offset(2) + j, offset(3) + k], extents, round)
          end do
        end do
      end do
      if (round == 0) then
        call gw_halo_update_run(update)
      else if (round == 1) then
        call gw_halo_update_start(update, pending)
        call gw_halo_wait(pending)
      else
        call gw_halo_update_run(update, grid=1)
        call gw_halo_update_start(update, pending, grid=2)
        call gw_halo_wait(pending)
      end if
      bad = 0
      do k = -1, n(3) + 2
        do j = -1, n(2) + 2
          do i = -1, n(1) + 2
            expected = -7
            if (filled([i, j, k], n, offset, extents, [.true., .true., .true.], .true., low(:, 1), high(:, 1))) &
              expected = value_of([offset(1) + i, offset(2) + j, offset(3) + k], extents, round)
            if (a(i, j, k) /= int(expected, 8)) bad(1) = bad(1) + 1
            expected = value_of([offset(1) + i, offset(2) + j, offset(3) + k], extents, round)
            if (b(i, j, k) /= expected) bad(2) = bad(2) + 1
          end do
        end do
      end do
      call expect(bad(1) == 0, 'update with depths: integer(8) grid')
      call expect(bad(2) == 0, 'update with depths: real(8) grid (whole halo)')
    end do
    call gw_halo_update_free(update)
    call gw_grid_free(grids(2))
    call gw_grid_free(grids(1))
  end subroutine

  subroutine test_errors()
    type(gw_grid) :: grid
    type(gw_halo_update) :: update
    real(8), pointer :: u(:, :)
    call gw_grid_create(grid, world, u, [4, 5, 6], ierr=ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'extents has 3 value(s); expected 2', 'extents of the wrong size')
    call expect(.not. associated(u), 'no array after a failed create')
    call gw_grid_create(grid, world, u, [4, 5], processes=[ranks + 1, 1], ierr=ierr)
    call expect(ierr /= GW_SUCCESS, 'a process grid of the wrong size')
    call gw_grid_create(grid, world, u, [4, 5], halo=[1, 2, 3], ierr=ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'halo has 3', 'halo of the wrong size')
    call gw_grid_create(grid, world, u, [8, 8], halo=[1])
    call gw_halo_update_create(update, [grid], reshape([3, 1], [2, 1]), reshape([1, 1], [2, 1]), ierr=ierr)
    call expect(ierr /= GW_SUCCESS .and. len(gw_error_message()) > 0, 'a depth beyond the halo')
    call gw_grid_free(grid)
  end subroutine

end program grid_test
