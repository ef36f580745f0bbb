! The sweeps of gw-minighost-f: one Jacobi update of a field and the boundary outflow, over a
! field's storage seen as one flat array (rows sx, planes sxy elements apart: a grid's rows are
! padded, docs/fortran.md). A module of its own, compiled for this machine's vector units
! (cmake/GhostwireNativeKernels.cmake), so its loops are built apart from the program's bookkeeping.
module mg_stencil
  implicit none
  private
  public :: short_row, boundary_outflow, plane_span, sweep_rows, sweep_planes

  integer, parameter :: short_row = 32   ! blocks with rows shorter than this are swept plane by plane

contains

  ! The old values' share the update sends out of the grid: cell values times their points outside.
  ! In eight interleaved partial sums, as the C++ app (lane_sum.hpp): one running sum would make
  ! every add wait for the one before, which cost a quarter of a step at NDIM 20.
  real(8) function boundary_outflow(u, offsets, weights) result(outflow)
    real(8), intent(in) :: u(0:), weights(:)
    integer, intent(in) :: offsets(:)
    integer, parameter :: lanes = 8
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
    do l = 1, lanes, 2
      outflow = outflow + (lane(l) + lane(l + 1))
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
  ! old values, is done. The sums are per column, as in sweep_rows, so both give the same total.
  real(8) function sweep_planes(u, w, span, sx, sxy, stencil, nx, ny, nz) result(total)
    integer, intent(in) :: span, sx, sxy, stencil, nx, ny, nz
    real(8), intent(inout) :: u(0:sxy * (nz + 2) - 1)
    real(8), intent(out) :: w(0:span - 1, 0:1)
    real(8) :: columns(short_row)   ! fixed size: an automatic array would be malloc-ed per call
    integer :: k, first
    columns = 0
    do k = 1, nz
      first = 1 + sx + k * sxy
      call average_plane(u, w(:, mod(k, 2)), first, span, sx, sxy, stencil)
      if (k > 1) call copy_plane_back(u(first - sxy:), w(:, mod(k - 1, 2)), sx, nx, ny, columns)
    end do
    call copy_plane_back(u(1 + sx + nz * sxy:), w(:, mod(nz, 2)), sx, nx, ny, columns)
    total = sum(columns(1:nx))
  end function

  ! A flat plane run (row j at (j - 1) * sx) back into the owned cells of its plane, which start at
  ! u(1) (rows sx apart), adding each cell to its column's sum. In chunks of four (one vector each):
  ! as a plain loop over i, gfortran vectorised eight at a time and spent more on each row's
  ! remainder than on its cells (the copy took twice the C++ app's time at NDIM 20; now even).
  subroutine copy_plane_back(u, plane, sx, nx, ny, columns)
    integer, intent(in) :: sx, nx, ny
    real(8), intent(inout) :: u(0:*)
    real(8), intent(in) :: plane(0:*)
    real(8), intent(inout) :: columns(short_row)
    integer :: i, j, row
    do j = 0, ny - 1
      row = j * sx
      do i = 0, nx - 4, 4
        u(row + i:row + i + 3) = plane(row + i:row + i + 3)
        columns(i + 1:i + 4) = columns(i + 1:i + 4) + plane(row + i:row + i + 3)
      end do
      do i = nx / 4 * 4, nx - 1
        u(row + i) = plane(row + i)
        columns(i + 1) = columns(i + 1) + plane(row + i)
      end do
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
