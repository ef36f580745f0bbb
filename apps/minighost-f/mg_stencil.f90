! SPDX-License-Identifier: BSD-3-Clause
! The sweeps of gw-minighost-f: one Jacobi update of a field and the boundary outflow, over a
! field's storage seen as one flat array (rows sx, planes sxy elements apart: a grid's rows are
! padded, docs/fortran.md). A module of its own, compiled for this machine's vector units
! (cmake/GhostwireNativeKernels.cmake), so its loops are built apart from the program's bookkeeping.
module mg_stencil
  implicit none
  private
  public :: short_row, boundary_outflow, plane_span, sweep_rows, sweep_planes, owned_cells

  integer, parameter :: short_row = 32   ! blocks with rows shorter than this are swept plane by plane

contains

  ! The old values' share the update sends out of the grid: cell values times their points outside.
  ! In eight interleaved partial sums, as the C++ app (lane_sum.hpp): one running sum would make
  ! every add wait for the one before (what that cost: docs/minighost.md, "Code: what is shared,
  ! what a variant supplies").
  real(8) function boundary_outflow(u, offsets, weights) result(outflow)
    real(8), intent(in) :: u(0:), weights(:)
    integer, intent(in) :: offsets(:)
    integer, parameter :: lanes = 8   ! as lanes_total adds them
    real(8) :: lane(lanes)
    integer :: m, l, full
    lane = 0
    full = size(weights) / lanes * lanes
    do m = 1, full, lanes
      do l = 0, lanes - 1
        lane(l + 1) = lane(l + 1) + u(offsets(m + l)) * weights(m + l)
      end do
    end do
    outflow = 0
    do m = full + 1, size(weights)
      outflow = outflow + u(offsets(m)) * weights(m)
    end do
    outflow = lanes_total(lane, outflow)
  end function

  ! start plus the eight lanes of a sum, added a pair at a time in lane order (fixed: deterministic).
  pure real(8) function lanes_total(lane, start) result(total)
    real(8), intent(in) :: lane(8), start
    integer :: l
    total = start
    do l = 1, 8, 2
      total = total + (lane(l) + lane(l + 1))
    end do
  end function

  ! Cells from (1, 1, k) to (nx, ny, k) of a block b with rows sx elements apart: one plane's flat run.
  integer(8) function plane_span(b, sx)
    integer, intent(in) :: b(3), sx
    plane_span = int(b(2) - 1, 8) * sx + b(1)
  end function

  ! Long rows: row by row into the dense work array, then back. Everything the sweep touches comes
  ! as arguments: the program's own variables (work, block) seen from inside would be memory any
  ! store might change, and gfortran then vectorises nothing.
  real(8) function sweep_rows(u, w, stencil, nx, ny, nz) result(total)
    integer, intent(in) :: stencil, nx, ny, nz
    real(8), intent(inout) :: u(0:, 0:, 0:)
    real(8), intent(out) :: w(nx, ny, nz)
    real(8) :: columns(nx)
    integer :: i, j, k
    select case (stencil)
    case (21)
      do k = 1, nz
        do j = 1, ny
          do i = 1, nx
            w(i, j, k) = (u(i - 1, j, k) + u(i, j - 1, k) + u(i, j, k) + u(i, j + 1, k) + u(i + 1, j, k)) / 5d0
          end do
        end do
      end do
    case (22)
      do k = 1, nz
        do j = 1, ny
          do i = 1, nx
            w(i, j, k) = (u(i - 1, j - 1, k) + u(i - 1, j, k) + u(i - 1, j + 1, k) + &
                          u(i, j - 1, k) + u(i, j, k) + u(i, j + 1, k) + &
                          u(i + 1, j - 1, k) + u(i + 1, j, k) + u(i + 1, j + 1, k)) / 9d0
          end do
        end do
      end do
    case (23)
      do k = 1, nz
        do j = 1, ny
          do i = 1, nx
            w(i, j, k) = (u(i, j, k - 1) + u(i - 1, j, k) + u(i, j - 1, k) + u(i, j, k) + u(i, j + 1, k) + &
                          u(i + 1, j, k) + u(i, j, k + 1)) / 7d0
          end do
        end do
      end do
    case default
      do k = 1, nz
        do j = 1, ny
          do i = 1, nx
            ! (the 3x3 square of plane k-1, then k, then k+1, each summed in the reference's order; written
            ! out because gfortran does not inline a function here, and a call per cell does not vectorise)
            w(i, j, k) = ((u(i - 1, j - 1, k - 1) + u(i - 1, j, k - 1) + u(i - 1, j + 1, k - 1) + &
                           u(i, j - 1, k - 1) + u(i, j, k - 1) + u(i, j + 1, k - 1) + &
                           u(i + 1, j - 1, k - 1) + u(i + 1, j, k - 1) + u(i + 1, j + 1, k - 1)) + &
                          (u(i - 1, j - 1, k) + u(i - 1, j, k) + u(i - 1, j + 1, k) + &
                           u(i, j - 1, k) + u(i, j, k) + u(i, j + 1, k) + &
                           u(i + 1, j - 1, k) + u(i + 1, j, k) + u(i + 1, j + 1, k)) + &
                          (u(i - 1, j - 1, k + 1) + u(i - 1, j, k + 1) + u(i - 1, j + 1, k + 1) + &
                           u(i, j - 1, k + 1) + u(i, j, k + 1) + u(i, j + 1, k + 1) + &
                           u(i + 1, j - 1, k + 1) + u(i + 1, j, k + 1) + u(i + 1, j + 1, k + 1))) / 27d0
          end do
        end do
      end do
    end select
    ! Back into u, summed per column i (independent sums over j and k: they vectorise, where one
    ! running sum of every cell would wait for each addition), then the columns in order.
    columns = 0
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          u(i, j, k) = w(i, j, k)
          columns(i) = columns(i) + w(i, j, k)
        end do
      end do
    end do
    total = sum(columns)
  end function

  ! Short rows (miniGhost's small blocks): a loop per row of ten cells spends more on starting and
  ! ending the vector loop than on the cells. So plane k is swept as one flat run from (1, 1, k) to
  ! (nx, ny, k) of u seen as one long array, ghost columns included (what lands there is never
  ! used), into one of two plane buffers; it goes back into u once plane k + 1, the last to read its
  ! old values, is done. The new cells are summed over the flat run too, in eight lanes, those of
  ! the run that are owned cells (owned(t), built by owned_cells) and no others.
  real(8) function sweep_planes(u, w, owned, span, sx, sxy, stencil, nx, ny, nz) result(total)
    integer, intent(in) :: span, sx, sxy, stencil, nx, ny, nz
    real(8), intent(inout) :: u(0:sxy * (nz + 2) - 1)
    real(8), intent(out) :: w(0:span - 1, 0:1)
    real(8), intent(in) :: owned(0:span - 1)
    real(8) :: lanes(8)
    integer :: k, first
    lanes = 0
    do k = 1, nz
      first = 1 + sx + k * sxy
      call average_plane(u, w(:, mod(k, 2)), first, span, sx, sxy, stencil)
      if (k > 1) call copy_plane_back(u(first - sxy:), w(:, mod(k - 1, 2)), sx, nx, ny, owned, span, lanes)
    end do
    call copy_plane_back(u(1 + sx + nz * sxy:), w(:, mod(nz, 2)), sx, nx, ny, owned, span, lanes)
    total = lanes_total(lanes, 0d0)
  end function

  ! Which places of a flat plane run (rows sx apart, nx cells each, ny rows) are owned cells: 1, the
  ! others 0, a factor of each place's value in the lanes. (merge() with a logical mask did not
  ! vectorise; with a comparison of reals, gfortran 12 -march=native built a masked load and the
  ! sums came out wrong.) The other places hold averages of ghost cells and padding, which are
  ! finite: a segment starts zeroed and only ever receives owned values.
  subroutine owned_cells(owned, span, sx, nx)
    real(8), allocatable, intent(out) :: owned(:)
    integer, intent(in) :: span, sx, nx
    integer :: t
    allocate(owned(0:span - 1))
    do t = 0, span - 1
      owned(t) = merge(1d0, 0d0, mod(t, sx) < nx)
    end do
  end subroutine

  ! A flat plane run (row j at (j - 1) * sx) back into the owned cells of its plane, which start at
  ! u(1) (rows sx apart), and its owned cells added to the lanes. Rows go in chunks of four (one
  ! vector each), the last chunk of a row overlapping the one before (copying a cell twice does no
  ! harm): a loop over a row's cells spent more on the row's remainder than on its cells
  ! (docs/fortran.md, "gw-minighost-f").
  subroutine copy_plane_back(u, plane, sx, nx, ny, owned, span, lanes)
    integer, intent(in) :: sx, nx, ny, span
    real(8), intent(inout) :: u(0:*)
    real(8), intent(in) :: plane(0:span - 1), owned(0:span - 1)
    real(8), intent(inout) :: lanes(8)
    integer :: i, j, row, t, l
    do j = 0, ny - 1
      row = j * sx
      if (nx < 4) then
        u(row:row + nx - 1) = plane(row:row + nx - 1)
        cycle
      end if
      do i = 0, nx - 4, 4
        u(row + i:row + i + 3) = plane(row + i:row + i + 3)
      end do
      if (mod(nx, 4) /= 0) u(row + nx - 4:row + nx - 1) = plane(row + nx - 4:row + nx - 1)
    end do
    do t = 0, span - 8, 8
      do l = 0, 7
        lanes(l + 1) = lanes(l + 1) + plane(t + l) * owned(t + l)
      end do
    end do
    do t = span / 8 * 8, span - 1
      lanes(1) = lanes(1) + plane(t) * owned(t)
    end do
  end subroutine

  ! out(t) = the stencil's average at u(first + t), t = 0 .. span - 1 (offsets: +-1 along i, +-sx
  ! along j, +-sxy along k); the points in the reference's order, as in sweep_rows.
  subroutine average_plane(u, out, first, span, sx, sxy, stencil)
    real(8), intent(in) :: u(0:*)
    integer, intent(in) :: first, span, sx, sxy, stencil
    real(8), intent(out) :: out(0:span - 1)
    integer :: t, c
    select case (stencil)
    case (21)
      do t = 0, span - 1
        c = first + t
        out(t) = (u(c - 1) + u(c - sx) + u(c) + u(c + sx) + u(c + 1)) / 5d0
      end do
    case (22)
      do t = 0, span - 1
        c = first + t
        out(t) = (u(c - 1 - sx) + u(c - 1) + u(c - 1 + sx) + u(c - sx) + u(c) + u(c + sx) + &
                  u(c + 1 - sx) + u(c + 1) + u(c + 1 + sx)) / 9d0
      end do
    case (23)
      do t = 0, span - 1
        c = first + t
        out(t) = (u(c - sxy) + u(c - 1) + u(c - sx) + u(c) + u(c + sx) + u(c + 1) + u(c + sxy)) / 7d0
      end do
    case default
      do t = 0, span - 1
        c = first + t
        out(t) = ((u(c - sxy - 1 - sx) + u(c - sxy - 1) + u(c - sxy - 1 + sx) + &
                   u(c - sxy - sx) + u(c - sxy) + u(c - sxy + sx) + &
                   u(c - sxy + 1 - sx) + u(c - sxy + 1) + u(c - sxy + 1 + sx)) + &
                  (u(c - 1 - sx) + u(c - 1) + u(c - 1 + sx) + &
                   u(c - sx) + u(c) + u(c + sx) + &
                   u(c + 1 - sx) + u(c + 1) + u(c + 1 + sx)) + &
                  (u(c + sxy - 1 - sx) + u(c + sxy - 1) + u(c + sxy - 1 + sx) + &
                   u(c + sxy - sx) + u(c + sxy) + u(c + sxy + sx) + &
                   u(c + sxy + 1 - sx) + u(c + sxy + 1) + u(c + sxy + 1 + sx))) / 27d0
      end do
    end select
  end subroutine

end module mg_stencil
