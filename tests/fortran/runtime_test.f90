! SPDX-License-Identifier: BSD-3-Clause
! The runtime from Fortran with the integer handles of the `mpi` module: the world, allreduce,
! segments as arrays (this rank's and node peers' with their shape and bounds), notified writes, and
! misuse answered by the library's message.
program runtime_test
  use mpi
  use ghostwire
  use gw_test_support
  implicit none
  integer, parameter :: nx = 5, ny = 3
  type(gw_world) :: world
  integer :: rank, ranks, node_rank, node_size, comm, result, ierr, mpi_rank, mpi_size

  call MPI_Init(ierr)
  call gw_world_init(world, MPI_COMM_WORLD)
  call gw_world_rank(world, rank)
  call gw_world_size(world, ranks)
  call MPI_Comm_rank(MPI_COMM_WORLD, mpi_rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, mpi_size, ierr)
  call expect(rank == mpi_rank .and. ranks == mpi_size, 'rank and size as MPI''s')
  call gw_world_node_rank(world, node_rank)
  call gw_world_node_size(world, node_size)
  call expect(node_rank >= 0 .and. node_rank < node_size .and. node_size <= ranks, 'node rank and size')
  call gw_world_comm(world, comm)
  call MPI_Comm_compare(comm, MPI_COMM_WORLD, result, ierr)
  call expect(result == MPI_IDENT .or. result == MPI_CONGRUENT, 'the world''s communicator')
  call gw_world_barrier(world)

  call test_allreduce()
  call test_segments()
  call test_notified_writes()

  call finish_test(world, 'runtime_test')
  call gw_world_free(world)
  call MPI_Finalize(ierr)

contains

  subroutine test_allreduce()
    real(8), allocatable, target :: values(:)
    real(8) :: one
    type(gw_reduction) :: reduction
    values = [real(8) :: rank, 1, -rank]
    call gw_allreduce(world, values, GW_SUM)
    call expect(all(values == [ranks * (ranks - 1) / 2d0, real(ranks, 8), -ranks * (ranks - 1) / 2d0]), 'allreduce sum')
    one = rank
    call gw_allreduce(world, one, GW_MAX)
    call expect(one == ranks - 1, 'allreduce max of a scalar')
    values = [real(8) :: rank + 1, -rank]
    call gw_allreduce_start(world, values, GW_MIN, reduction)
    call gw_reduction_wait(reduction)
    call expect(all(values == [1d0, real(1 - ranks, 8)]), 'split allreduce min')
  end subroutine

  real(8) function encoded(owner, i, j)
    integer, intent(in) :: owner, i, j
    encoded = owner * 1000 + (i + 1) * 10 + (j + 1)
  end function

  subroutine test_segments()
    type(gw_segment) :: segment
    real(8), pointer :: u(:, :), peer(:, :)
    integer(8) :: bytes
    integer :: i, j, r, bad, seen
    call gw_segment_allocate(segment, world, u, [nx + 2, ny + 2], lower=[0, 0])
    call expect(all(lbound(u) == [0, 0]) .and. all(ubound(u) == [nx + 1, ny + 1]), 'segment array bounds')
    call gw_segment_size(segment, bytes)
    call expect(bytes == 8 * (nx + 2) * (ny + 2), 'segment size')
    do j = 0, ny + 1
      do i = 0, nx + 1
        u(i, j) = encoded(rank, i, j)
      end do
    end do
    call gw_world_barrier(world)
    seen = 0
    do r = 0, ranks - 1
      call gw_segment_array(segment, peer, [nx + 2, ny + 2], lower=[0, 0], rank=r)
      if (.not. associated(peer)) cycle
      seen = seen + 1
      bad = 0
      do j = 0, ny + 1
        do i = 0, nx + 1
          if (peer(i, j) /= encoded(r, i, j)) bad = bad + 1
        end do
      end do
      call expect(bad == 0, 'a node peer''s array, element by element')
    end do
    call expect(seen == node_size, 'a view of every node peer''s segment, none of other nodes''')
    call gw_world_barrier(world)
    call gw_segment_array(segment, peer, [nx + 2, ny + 3], ierr=ierr)
    call expect_error(ierr, GW_ERR_OUT_OF_RANGE, 'need 336 bytes but the segment has 280', 'a view beyond the segment')
    call gw_segment_array(segment, peer, [nx + 2], ierr=ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'shape has 1 value(s); expected 2', 'a shape of the wrong rank')
    call gw_segment_free(segment)
  end subroutine

  ! Each rank writes 3 values into its right neighbour's segment, 4 elements in, and notifies.
  subroutine test_notified_writes()
    type(gw_segment) :: segment
    real(8), pointer :: area(:), landed(:)
    real(8), allocatable, target :: values(:, :)
    integer :: right, left, value, id, old
    right = modulo(rank + 1, ranks)
    left = modulo(rank - 1, ranks)
    call gw_segment_create(segment, world, 8_8 * 10, notifications=4)
    call gw_segment_array(segment, area, [10])
    area = -7
    call gw_world_barrier(world)
    allocate(values(3, 2))
    values(:, 1) = [rank * 10 + 1, rank * 10 + 2, rank * 10 + 3]
    call gw_write_notify(values(:, 1), right, segment, 4, 0, rank + 1)
    call gw_notify_wait(segment, 0, value)
    call expect(value == left + 1, 'notification value')
    call gw_segment_array(segment, landed, [3], lower=[5], offset=4)
    call expect(all(landed == [left * 10 + 1, left * 10 + 2, left * 10 + 3]), 'notified write landed')
    call expect(all(area(1:4) == -7) .and. all(area(8:10) == -7), 'nothing else written')
    call gw_notify_test(segment, 0, value)
    call expect(value == 0, 'waiting resets the notification')
    call gw_notify_reset(segment, 0, old)
    call expect(old == 0, 'reset returns the value it had')
    call gw_world_barrier(world)
    call gw_notify(right, segment, 2, 9)
    call gw_notify_waitsome(segment, 1, 3, id, value)
    call expect(id == 2 .and. value == 9, 'waitsome finds notification 2')
    call gw_notify_reset(segment, 2, old)
    call gw_write_notify(values(1, :), right, segment, 0, 1, 1, ierr=ierr)
    call expect_error(ierr, GW_ERR_INVALID_ARGUMENT, 'values is not contiguous', 'a strided source')
    call gw_world_barrier(world)
    call gw_segment_free(segment)
  end subroutine

end program runtime_test
