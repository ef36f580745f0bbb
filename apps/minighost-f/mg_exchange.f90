! SPDX-License-Identifier: BSD-3-Clause
! The two ways gw-minighost-f fills the ghost cells and adds up the conservation sums:
!   gw   every variable a grid of the ghostwire module (its array u(0:nx+1, 0:ny+1, 0:nz+1) is the
!        grid's block), one halo update of all of them; sums by gw_allreduce_start / wait
!   mpi  plain MPI: allocated arrays, faces packed into buffers, MPI_Irecv / MPI_Isend; MPI_Allreduce
! and the bound on them both:
!   commfree  mpi's arrays and sums, no exchange at all: its time is the computation alone (ghost cells
!        facing other ranks stay 0, so with more than one rank conservation cannot hold)
!
! See docs/fortran.md, "gw-minighost-f".
module mg_exchange
  use mpi_f08
  use ghostwire
  use mg_options
  implicit none
  private
  public :: field, exchanger, setup_exchange, exchange_all, exchange_one, start_sum, finish_sum, free_exchange

  type, public :: field
    real(8), pointer :: u(:, :, :) => null()
  end type

  ! One neighbour of a phase: the boxes (ghost-inclusive indices) this rank sends and receives.
  type link
    integer :: neighbour = -1, tag_out = 0, tag_in = 0
    integer :: send_lo(3), send_hi(3), recv_lo(3), recv_hi(3)
  end type

  type exchanger
    logical :: gw = .false., commfree = .false.
    integer :: num_vars = 0, comm_method = 10
    ! gw
    type(gw_world) :: world
    type(gw_grid), allocatable :: grids(:)
    type(gw_halo_update) :: update
    type(gw_reduction) :: reduction
    ! mpi
    integer :: phases = 1
    type(link), allocatable :: links(:, :)   ! (link, phase)
    integer, allocatable :: link_count(:)
    real(8), allocatable :: send_buffer(:), recv_buffer(:)
  end type

contains

  ! block(3): cells per rank; coords(3): this rank's place; process(3): the process grid.
  subroutine setup_exchange(x, o, variant, block, coords, process, fields)
    type(exchanger), intent(inout) :: x
    type(options), intent(in) :: o
    character(len=*), intent(in) :: variant
    integer, intent(in) :: block(3), coords(3), process(3)
    type(field), intent(inout) :: fields(:)
    integer :: v
    x%num_vars = o%num_vars
    x%comm_method = o%comm_method
    x%gw = variant == 'gw'
    x%commfree = variant == 'commfree'
    if (x%gw) then
      call gw_world_init(x%world, MPI_COMM_WORLD)
      allocate(x%grids(o%num_vars))
      do v = 1, o%num_vars
        call gw_grid_create(x%grids(v), x%world, fields(v)%u, block * process, halo=[1], processes=process, &
                            stencil=merge(GW_FULL, GW_FACES, is_full(o%stencil)))
        fields(v)%u = 0
      end do
      call gw_halo_update_create(x%update, x%grids, per_variable=o%comm_method == 11)
    else
      do v = 1, o%num_vars
        allocate(fields(v)%u(0:block(1) + 1, 0:block(2) + 1, 0:block(3) + 1))
        fields(v)%u = 0
      end do
      call make_links(x, is_full(o%stencil), block, coords, process)
    end if
  end subroutine

  ! Faces only: one phase of up to 6 neighbours, each box an owned face. Faces, edges and corners:
  ! three phases (x, y, z), each box extended over the ghost cells of the axes exchanged before it.
  subroutine make_links(x, full, block, coords, process)
    type(exchanger), intent(inout) :: x
    logical, intent(in) :: full
    integer, intent(in) :: block(3), coords(3), process(3)
    integer :: axis, side, phase, c(3), lo(3), hi(3), cells, most
    x%phases = merge(3, 1, full)
    allocate(x%links(6, x%phases), x%link_count(x%phases))
    x%link_count = 0
    most = 0
    do axis = 1, 3
      phase = merge(axis, 1, full)
      do side = -1, 1, 2
        c = coords
        c(axis) = c(axis) + side
        if (c(axis) < 0 .or. c(axis) >= process(axis)) cycle
        lo = 1
        hi = block
        if (full .and. axis > 1) then
          lo(1:axis - 1) = 0
          hi(1:axis - 1) = block(1:axis - 1) + 1
        end if
        x%link_count(phase) = x%link_count(phase) + 1
        associate (l => x%links(x%link_count(phase), phase))
          l%neighbour = c(1) + process(1) * (c(2) + process(2) * c(3))
          l%tag_out = 2 * axis + (side + 1) / 2
          l%tag_in = 2 * axis + (1 - side) / 2
          l%send_lo = lo
          l%send_hi = hi
          l%recv_lo = lo
          l%recv_hi = hi
          l%send_lo(axis) = merge(1, block(axis), side < 0)
          l%send_hi(axis) = l%send_lo(axis)
          l%recv_lo(axis) = merge(0, block(axis) + 1, side < 0)
          l%recv_hi(axis) = l%recv_lo(axis)
          cells = product(hi - lo + 1) / (hi(axis) - lo(axis) + 1)
        end associate
        most = most + cells
      end do
    end do
    allocate(x%send_buffer(most * x%num_vars), x%recv_buffer(most * x%num_vars))
  end subroutine

  ! BSPMA: every variable, one message per neighbour.
  subroutine exchange_all(x, fields)
    type(exchanger), intent(inout) :: x
    type(field), intent(inout) :: fields(:)
    if (x%gw) then
      call gw_halo_update_run(x%update)
    else if (.not. x%commfree) then
      call exchange_mpi(x, fields, 1, x%num_vars)
    end if
  end subroutine

  ! SVAF: variable v alone.
  subroutine exchange_one(x, fields, v)
    type(exchanger), intent(inout) :: x
    type(field), intent(inout) :: fields(:)
    integer, intent(in) :: v
    if (x%gw) then
      call gw_halo_update_run(x%update, grid=v)
    else if (.not. x%commfree) then
      call exchange_mpi(x, fields, v, v)
    end if
  end subroutine

  subroutine exchange_mpi(x, fields, first, last)
    type(exchanger), intent(inout) :: x
    type(field), intent(inout) :: fields(:)
    integer, intent(in) :: first, last
    type(MPI_Request) :: requests(12)
    integer :: phase, n, v, at, cells, starts(7)
    do phase = 1, x%phases
      associate (count => x%link_count(phase))
        ! Every message's place in the buffers.
        starts(1) = 1
        do n = 1, count
          associate (l => x%links(n, phase))
            starts(n + 1) = starts(n) + product(l%send_hi - l%send_lo + 1) * (last - first + 1)
          end associate
        end do
        do n = 1, count
          associate (l => x%links(n, phase))
            call MPI_Irecv(x%recv_buffer(starts(n):), starts(n + 1) - starts(n), MPI_DOUBLE_PRECISION, l%neighbour, &
                           l%tag_in, MPI_COMM_WORLD, requests(n))
          end associate
        end do
        do n = 1, count
          associate (l => x%links(n, phase))
            at = starts(n)
            cells = product(l%send_hi - l%send_lo + 1)
            do v = first, last
              x%send_buffer(at:at + cells - 1) = reshape(fields(v)%u(l%send_lo(1):l%send_hi(1), &
                l%send_lo(2):l%send_hi(2), l%send_lo(3):l%send_hi(3)), [cells])
              at = at + cells
            end do
            call MPI_Isend(x%send_buffer(starts(n):), starts(n + 1) - starts(n), MPI_DOUBLE_PRECISION, l%neighbour, &
                           l%tag_out, MPI_COMM_WORLD, requests(count + n))
          end associate
        end do
        call MPI_Waitall(2 * count, requests, MPI_STATUSES_IGNORE)
        do n = 1, count
          associate (l => x%links(n, phase))
            at = starts(n)
            cells = product(l%recv_hi - l%recv_lo + 1)
            do v = first, last
              fields(v)%u(l%recv_lo(1):l%recv_hi(1), l%recv_lo(2):l%recv_hi(2), l%recv_lo(3):l%recv_hi(3)) = &
                reshape(x%recv_buffer(at:at + cells - 1), l%recv_hi - l%recv_lo + 1)
              at = at + cells
            end do
          end associate
        end do
      end associate
    end do
  end subroutine

  ! The conservation check's global sums, in place; done after finish_sum.
  subroutine start_sum(x, sums)
    type(exchanger), intent(inout) :: x
    real(8), intent(inout), target, asynchronous :: sums(:)
    if (x%gw) then
      call gw_allreduce_start(x%world, sums, GW_SUM, x%reduction)
    else
      call MPI_Allreduce(MPI_IN_PLACE, sums, size(sums), MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    end if
  end subroutine

  subroutine finish_sum(x)
    type(exchanger), intent(inout) :: x
    if (x%gw) call gw_reduction_wait(x%reduction)
  end subroutine

  subroutine free_exchange(x, fields)
    type(exchanger), intent(inout) :: x
    type(field), intent(inout) :: fields(:)
    integer :: v
    if (x%gw) then
      call gw_halo_update_free(x%update)
      do v = size(x%grids), 1, -1
        call gw_grid_free(x%grids(v))
        nullify(fields(v)%u)
      end do
      call gw_world_free(x%world)
    else
      do v = 1, size(fields)
        deallocate(fields(v)%u)
      end do
    end if
  end subroutine

end module mg_exchange
