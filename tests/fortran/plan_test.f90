! SPDX-License-Identifier: BSD-3-Clause
! Plans from Fortran: boxes (strided columns of an i-fastest array, 3-D boxes with other lower
! bounds), sections of the arrays themselves and index lists (positions and subscripts) on a
! periodic ring of ranks, every way of running an exchange, an unstructured plan, and misuse
! answered by the library's message.
program plan_test
  use mpi_f08
  use ghostwire
  use gw_test_support
  implicit none
  integer, parameter :: nx = 6, ny = 4
  type(gw_world) :: world
  integer :: rank, ranks, left, right

  call MPI_Init()
  call gw_world_init(world, MPI_COMM_WORLD)
  call gw_world_rank(world, rank)
  call gw_world_size(world, ranks)
  right = modulo(rank + 1, ranks)
  left = modulo(rank - 1, ranks)

  call test_ring()
  call test_sections()
  call test_rebind()
  call test_unstructured()
  call test_partitions()
  call test_misuse()

  call finish_test(world, 'plan_test')
  call gw_world_free(world)
  call MPI_Finalize()

contains

  ! The ring's neighbours, each once.
  function neighbours() result(list)
    integer, allocatable :: list(:)
    list = [right]
    if (left /= right) list = [right, left]
  end function

  ! u(i, j) of rank r holds global column r*nx + i and row j.
  real(8) function cell_value(owner, i, j, round)
    integer, intent(in) :: owner, i, j, round
    cell_value = modulo(owner * nx + i - 1, ranks * nx) + 1 + 100 * j + 10000 * round
  end function

  integer function box_value(owner, i, j, k)
    integer, intent(in) :: owner, i, j, k
    box_value = owner * 1000 + i * 100 + j * 10 + k
  end function

  subroutine test_ring()
    real(8), allocatable, target :: u(:, :)
    integer, allocatable, target :: v(:, :, :), w(:, :, :)
    type(gw_plan) :: plan
    type(gw_region) :: ru, rv, rw
    integer :: round, i, j, k, cells(2, ny), positions(ny), bad, nodes
    logical :: done
    character(len=:), allocatable :: text
    allocate(u(0:nx + 1, 0:ny + 1), v(0:3, 0:4, 0:5), w(0:4, 0:3, 0:5))
    call gw_plan_create(plan, world, neighbours(), 3)
    ! Between nodes, the ring's messages travel combined per pair of nodes (a part misplaced in its
    ! combined message would show in the checks below).
    call gw_plan_aggregate(plan, GW_AGGREGATE_NODE)
    call gw_plan_add_memory(plan, u, ru, lower=lbound(u))
    call gw_plan_add_memory(plan, v, rv, lower=lbound(v))
    call gw_plan_add_memory(plan, w, rw, lower=lbound(w))
    ! Channel 0 travels right: column nx (strided) into the right neighbour's column 0.
    call gw_plan_add_box(plan, GW_SEND, 0, right, ru, [nx, 1], [nx, ny])
    call gw_plan_add_box(plan, GW_RECEIVE, 0, left, ru, [0, 1], [0, ny])
    ! Channel 1 travels left: column 1 by subscripts into the left neighbour's column nx+1 by positions.
    do j = 1, ny
      cells(:, j) = [1, j]
      positions(j) = (nx + 1) + j * (nx + 2) + 1
    end do
    call gw_plan_add_indices(plan, GW_SEND, 1, left, ru, cells)
    call gw_plan_add_indices(plan, GW_RECEIVE, 1, right, ru, positions)
    ! Channel 2 travels right: the 3-D box v(1:2, 2:4, 1:3) into w(2:3, 0:2, 2:4).
    call gw_plan_add_box(plan, GW_SEND, 2, right, rv, [1, 2, 1], [2, 4, 3])
    call gw_plan_add_box(plan, GW_RECEIVE, 2, left, rw, [2, 0, 2], [3, 2, 4])
    call gw_plan_commit(plan)
    call gw_plan_describe(plan, text)
    call expect(index(text, 'node') > 0, 'plan describe: ' // text)
    call gw_world_node_count(world, nodes)
    call expect(nodes == 1 .or. index(text, 'one message per pair of nodes') > 0, 'combined: ' // text)

    do k = 0, 5
      do j = 0, 4
        do i = 0, 3
          v(i, j, k) = box_value(rank, i, j, k)
        end do
      end do
    end do
    do round = 1, 4
      u = -7
      w = -7
      do j = 1, ny
        do i = 1, nx
          u(i, j) = cell_value(rank, i, j, round)
        end do
      end do
      select case (round)
      case (1)
        call gw_plan_exchange(plan)
      case (2)
        call gw_plan_send(plan, 0, right)
        call gw_plan_send(plan, 1, left)
        call gw_plan_send(plan, 2, right)
        done = .false.
        do while (.not. done)
          call gw_plan_test_recv(plan, 0, left, done)
        end do
        call gw_plan_wait_recv(plan, 1, right)
        call gw_plan_wait_recv(plan, 2, left)
        call gw_plan_wait_send(plan, 0, right)
        call gw_plan_wait_send(plan, 1, left)
        done = .false.
        do while (.not. done)
          call gw_plan_test_send(plan, 2, right, done)
        end do
      case (3)
        call gw_plan_start(plan)
        call gw_plan_finish(plan)
      case (4)
        call gw_plan_exchange(plan, 0)
        call gw_plan_start(plan, 1)
        call gw_plan_finish(plan, 1)
        call gw_plan_exchange(plan, 2)
      end select
      bad = 0
      do j = 1, ny
        if (u(0, j) /= cell_value(left, nx, j, round)) bad = bad + 1
        if (u(nx + 1, j) /= cell_value(right, 1, j, round)) bad = bad + 1
        if (u(nx / 2, j) /= cell_value(rank, nx / 2, j, round)) bad = bad + 1
      end do
      call expect(all(u(:, 0) == -7) .and. all(u(:, ny + 1) == -7), 'rows 0 and ny+1 untouched')
      call expect(bad == 0, 'ring: the ghost columns hold the neighbours'' columns')
      bad = 0
      do k = 0, 5
        do j = 0, 3
          do i = 0, 4
            if (i >= 2 .and. i <= 3 .and. j <= 2 .and. k >= 2 .and. k <= 4) then
              if (w(i, j, k) /= box_value(left, i - 1, j + 2, k - 1)) bad = bad + 1
            else if (w(i, j, k) /= -7) then
              bad = bad + 1
            end if
          end do
        end do
      end do
      call expect(bad == 0, '3-D box: w(2:3, 0:2, 2:4) holds the left neighbour''s v(1:2, 2:4, 1:3)')
      call gw_world_barrier(world)
    end do
    call gw_plan_free(plan)
  end subroutine

  ! Messages as sections of the arrays, in the arrays' own bounds (gw_plan_add_section; no lower=
  ! needed): a strided column, a row reversed, one cell, a 2 x 3 section of a 3-D array with steps
  ! into a section of another rank; every cell of the receiving arrays checked.
  subroutine test_sections()
    real(8), allocatable, target :: u(:, :), g(:, :)
    integer, allocatable, target :: v(:, :, :), w(:, :, :)
    type(gw_plan) :: plan
    type(gw_region) :: ru, rg, rv, rw
    integer :: round, i, j, k, bad
    real(8) :: want
    integer :: want_w
    allocate(u(0:nx + 1, 0:ny + 1), g(0:nx + 1, 0:ny + 1), v(0:3, 0:4, 0:5), w(-2:2, 3, 4))
    call gw_plan_create(plan, world, neighbours(), 3)
    call gw_plan_add_memory(plan, u, ru)
    call gw_plan_add_memory(plan, g, rg)
    call gw_plan_add_memory(plan, v, rv)
    call gw_plan_add_memory(plan, w, rw)
    ! Channel 0 travels right: column nx (strided) into the right neighbour's column 0.
    call gw_plan_add_section(plan, GW_SEND, 0, right, ru, u(nx, 1:ny))
    call gw_plan_add_section(plan, GW_RECEIVE, 0, left, rg, g(0, 1:ny))
    ! Channel 1 travels left: row 1 reversed into row ny+1, then cell (1, ny) into the corner (0, 0).
    call gw_plan_add_section(plan, GW_SEND, 1, left, ru, u(nx:1:-1, 1))
    call gw_plan_add_section(plan, GW_SEND, 1, left, ru, u(1:1, ny))
    call gw_plan_add_section(plan, GW_RECEIVE, 1, right, rg, g(1:nx, ny + 1))
    call gw_plan_add_section(plan, GW_RECEIVE, 1, right, rg, g(0:0, 0))
    ! Channel 2 travels right: v(1:3:2, 4, 0:5:2) (2 x 3 with steps) into w(-1:0, 1:3, 2).
    call gw_plan_add_section(plan, GW_SEND, 2, right, rv, v(1:3:2, 4, 0:5:2))
    call gw_plan_add_section(plan, GW_RECEIVE, 2, left, rw, w(-1:0, 1:3, 2))
    call gw_plan_commit(plan)
    do round = 1, 3
      do j = 1, ny
        do i = 1, nx
          u(i, j) = cell_value(rank, i, j, round)
        end do
      end do
      do k = 0, 5
        do j = 0, 4
          do i = 0, 3
            v(i, j, k) = box_value(rank, i, j, k) + round
          end do
        end do
      end do
      g = -7
      w = -7
      call gw_plan_exchange(plan)
      bad = 0
      do j = 0, ny + 1
        do i = 0, nx + 1
          want = -7
          if (i == 0 .and. j >= 1 .and. j <= ny) want = cell_value(left, nx, j, round)
          if (j == ny + 1 .and. i >= 1 .and. i <= nx) want = cell_value(right, nx + 1 - i, 1, round)
          if (i == 0 .and. j == 0) want = cell_value(right, 1, ny, round)
          if (g(i, j) /= want) bad = bad + 1
        end do
      end do
      call expect(bad == 0, 'sections: g holds the neighbours'' column, reversed row and corner cell')
      bad = 0
      do k = 1, 4
        do j = 1, 3
          do i = -2, 2
            want_w = -7
            if (k == 2 .and. i >= -1 .and. i <= 0) want_w = box_value(left, 1 + 2 * (i + 1), 4, 2 * (j - 1)) + round
            if (w(i, j, k) /= want_w) bad = bad + 1
          end do
        end do
      end do
      call expect(bad == 0, 'sections: w(-1:0, 1:3, 2) holds the left neighbour''s v(1:3:2, 4, 0:5:2)')
      call gw_world_barrier(world)
    end do
    call gw_plan_free(plan)
  end subroutine

  ! gw_plan_rebind: the receiving array alternates between g and h every round; the round's column
  ! lands in that round's array and the other is left as it was. A differently shaped array is refused.
  subroutine test_rebind()
    real(8), allocatable, target :: u(:, :), g(:, :), h(:, :), small(:, :)
    type(gw_plan) :: plan
    type(gw_region) :: ru, rg
    integer :: round, j, bad, ierr
    allocate(u(0:nx + 1, 0:ny + 1), g(0:nx + 1, 0:ny + 1), h(0:nx + 1, 0:ny + 1), small(nx, ny))
    call gw_plan_create(plan, world, neighbours(), 1)
    call gw_plan_add_memory(plan, u, ru)
    call gw_plan_add_memory(plan, g, rg)
    call gw_plan_add_section(plan, GW_SEND, 0, right, ru, u(nx, 1:ny))
    call gw_plan_add_section(plan, GW_RECEIVE, 0, left, rg, g(0, 1:ny))
    call gw_plan_commit(plan)
    do round = 1, 4
      if (mod(round, 2) == 0) then
        call gw_plan_rebind(plan, rg, h)
      else
        call gw_plan_rebind(plan, rg, g)
      end if
      u(nx, 1:ny) = [(cell_value(rank, nx, j, round), j = 1, ny)]
      g = -7
      h = -7
      call gw_plan_exchange(plan)
      bad = 0
      do j = 1, ny
        if (mod(round, 2) == 0) then
          if (h(0, j) /= cell_value(left, nx, j, round) .or. g(0, j) /= -7) bad = bad + 1
        else
          if (g(0, j) /= cell_value(left, nx, j, round) .or. h(0, j) /= -7) bad = bad + 1
        end if
      end do
      call expect(bad == 0, 'rebind: the column lands in the round''s array only')
      call gw_world_barrier(world)
    end do
    call gw_plan_rebind(plan, rg, small, ierr=ierr)
    call expect(ierr == GW_ERR_INVALID_ARGUMENT, 'rebind: an array of another shape is refused')
    call gw_plan_free(plan)
  end subroutine

  ! Ghost g is element indices(g) of rank owners(g)'s owned array.
  subroutine test_unstructured()
    type(gw_segment) :: segment
    type(gw_plan) :: plan
    real(8), pointer :: owned(:)
    real(8), allocatable, target :: ghosts(:)
    integer :: k, owners(3), indices(3), nodes
    character(len=:), allocatable :: text
    call gw_segment_allocate(segment, world, owned, [5])
    do k = 1, 5
      owned(k) = 100 * rank + k
    end do
    allocate(ghosts(3))
    ghosts = -7
    owners = [right, right, left]
    indices = [5, 1, 3]
    call gw_plan_unstructured(plan, world, segment, owned, ghosts, owners, indices)
    call gw_plan_exchange(plan)
    call expect(all(ghosts == [100 * right + 5, 100 * right + 1, 100 * left + 3]), 'unstructured ghosts')
    ! The reverse: my ghosts go back to elements 5 and 1 of my right neighbour and 3 of my left one;
    ! mine get the left neighbour's first two and the right neighbour's third (indices 1-based here).
    call gw_plan_enable_reverse(plan)
    call gw_world_barrier(world)
    ghosts = [1000 * (rank + 1), 10000 * (rank + 1), 100000 * (rank + 1)]
    call gw_plan_reverse_exchange(plan, GW_SUM, GW_DOUBLE)
    call expect(owned(5) == 100 * rank + 5 + 1000 * (left + 1) .and. owned(1) == 100 * rank + 1 + 10000 * (left + 1) &
                .and. owned(3) == 100 * rank + 3 + 100000 * (right + 1) .and. owned(2) == 100 * rank + 2, &
                'unstructured reverse sum')
    call gw_world_barrier(world)
    call gw_plan_reverse_start(plan)
    call gw_plan_reverse_finish(plan, GW_REPLACE, GW_DOUBLE)
    call expect(owned(3) == 100000 * (right + 1), 'unstructured reverse replace')
    call gw_plan_free(plan)
    ! The same ghosts combined per pair of nodes between nodes (a misplaced part shows in the values).
    call gw_world_barrier(world)
    do k = 1, 5
      owned(k) = 200 * rank + k
    end do
    ghosts = -7
    call gw_plan_unstructured(plan, world, segment, owned, ghosts, owners, indices, aggregate=GW_AGGREGATE_NODE)
    call gw_plan_describe(plan, text)
    call gw_world_node_count(world, nodes)
    call expect(nodes == 1 .or. index(text, 'one message per pair of nodes') > 0, 'unstructured combined: ' // text)
    call gw_plan_exchange(plan)
    call expect(all(ghosts == [200 * right + 5, 200 * right + 1, 200 * left + 3]), 'unstructured combined ghosts')
    call gw_plan_free(plan)
    call gw_segment_free(segment)
  end subroutine

  ! Six values to the right in partitions of 1, 3 and 2 elements, readied in reverse order and
  ! checked as each arrives; the thread level is one of MPI's.
  subroutine test_partitions()
    type(gw_plan) :: plan
    type(gw_region) :: rout, rin
    real(8), allocatable, target :: out(:), in(:)
    integer :: j, k, round, level, first(4)
    logical :: arrived
    first = [1, 2, 5, 7]
    allocate(out(6), in(6))
    call gw_world_thread_level(world, level)
    call expect(level >= GW_THREAD_SINGLE .and. level <= GW_THREAD_MULTIPLE, 'thread level ' // trim(itoa(level)))
    call gw_plan_create(plan, world, neighbours(), 1)
    call gw_plan_add_memory(plan, out, rout)
    call gw_plan_add_memory(plan, in, rin)
    call gw_plan_add_box(plan, GW_SEND, 0, right, rout, [1], [6])
    call gw_plan_add_box(plan, GW_RECEIVE, 0, left, rin, [1], [6])
    call gw_plan_partition(plan, GW_SEND, 0, right, [1, 3, 2])
    call gw_plan_partition(plan, GW_RECEIVE, 0, left, [1, 3, 2])
    call gw_plan_commit(plan)
    do round = 1, 3
      do k = 1, 6
        out(k) = 1000 * round + 10 * rank + k
      end do
      in = -1
      do k = 2, 0, -1
        call gw_plan_pready(plan, 0, right, k)
      end do
      do k = 2, 0, -1
        arrived = .false.
        do while (.not. arrived)
          call gw_plan_parrived(plan, 0, left, k, arrived)
        end do
        call expect(all(in(first(k + 1):first(k + 2) - 1) == &
                        [(1000 * round + 10 * left + first(k + 1) + (j - 1), j = 1, first(k + 2) - first(k + 1))]), &
                    'partition ' // trim(itoa(k)) // ' of round ' // trim(itoa(round)))
      end do
      do k = 0, 2
        call gw_plan_wait_send_partition(plan, 0, right, k)
      end do
      call gw_world_barrier(world)
    end do
    call gw_plan_free(plan)
  end subroutine

  subroutine test_misuse()
    real(8), allocatable, target :: u(:, :), other(:, :)
    integer, allocatable, target :: cells(:, :)
    type(gw_plan) :: plan
    type(gw_region) :: ru
    integer :: ierr
    allocate(u(0:nx + 1, 0:ny + 1), other(nx, ny), cells(nx, ny))
    call gw_plan_create(plan, world, neighbours(), 1)
    call gw_plan_add_memory(plan, u(1:nx:2, :), ru, ierr=ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'array is not contiguous', 'a strided section')
    call gw_plan_add_memory(plan, u, ru, lower=[0], ierr=ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'lower has 1 value(s); expected 2', 'lower of the wrong size')
    call gw_plan_add_memory(plan, u, ru, lower=lbound(u))
    call gw_plan_aggregate(plan, 7, ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'gw_plan_aggregate: mode is 7', 'an unknown aggregation mode')
    call gw_plan_add_box(plan, GW_SEND, 0, right, ru, [1, 1], [nx + 2, 1], ierr=ierr)
    call expect_error(ierr, GW_ERR_OUT_OF_RANGE, 'outside the array''s bounds 0:7', 'a box beyond the array')
    call gw_plan_add_indices(plan, GW_SEND, 0, right, ru, [1, 0], ierr=ierr)
    call expect_error(ierr, GW_ERR_OUT_OF_RANGE, 'indices(2) = 0', 'an index below 1')
    call gw_plan_add_section(plan, GW_SEND, 0, right, ru, other(1, 1:ny), ierr=ierr)
    call expect_error(ierr, GW_ERR_OUT_OF_RANGE, 'the section lies outside the region''s array', &
                      'a section of another array')
    call gw_plan_add_section(plan, GW_SEND, 0, right, ru, cells(1, 1:ny), ierr=ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'the section''s elements have 4 bytes, the region''s array''s 8', &
                      'a section of another element type')
    ! A mismatch: two elements sent, three expected.
    call gw_plan_add_box(plan, GW_SEND, 0, right, ru, [1, 1], [2, 1])
    call gw_plan_add_box(plan, GW_RECEIVE, 0, left, ru, [0, 1], [0, 3])
    call gw_plan_commit(plan, ierr)
    call expect(ierr == GW_ERR_MISMATCH .and. index(gw_error_message(), 'channel 0') > 0, &
                'a plan mismatch: ' // gw_error_message())
    call gw_plan_free(plan, ierr)
  end subroutine

end program plan_test
