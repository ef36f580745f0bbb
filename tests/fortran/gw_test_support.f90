! SPDX-License-Identifier: BSD-3-Clause
! What the Fortran tests share: counting failed checks and reporting them on every rank.
module gw_test_support
  use ghostwire
  implicit none
  private
  public :: expect, expect_error, finish_test, itoa
  integer, save :: failures = 0

contains

  subroutine expect(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (condition) return
    failures = failures + 1
    if (failures <= 20) write(*, '(a, a)') 'FAILED: ', what
  end subroutine

  ! A call that must fail with `code` and a message containing `words`.
  subroutine expect_error(ierr, code, words, what)
    integer, intent(in) :: ierr, code
    character(len=*), intent(in) :: words, what
    call expect(ierr == code, what // ': error code ' // trim(itoa(ierr)) // ', expected ' // trim(itoa(code)) // &
                ' (' // gw_error_message() // ')')
    call expect(index(gw_error_message(), words) > 0, what // ': message "' // gw_error_message() // &
                '" does not say "' // words // '"')
  end subroutine

  ! Sums the failures over the world; rank 0 reports; a nonzero exit status when any failed.
  subroutine finish_test(world, name)
    type(gw_world), intent(in) :: world
    character(len=*), intent(in) :: name
    real(8) :: total
    integer :: rank
    total = failures
    call gw_allreduce(world, total, GW_SUM)
    call gw_world_rank(world, rank)
    if (rank == 0) then
      if (total == 0) then
        write(*, '(a, a)') name, ': all checks passed'
      else
        write(*, '(a, a, i0, a)') name, ': ', int(total), ' failure(s)'
      end if
    end if
    if (total /= 0) error stop 1
  end subroutine

  function itoa(value) result(text)
    integer, intent(in) :: value
    character(len=16) :: text
    write(text, '(i0)') value
  end function

end module gw_test_support
