! SPDX-License-Identifier: BSD-3-Clause
! gw-minighost-f's command line: the options of the C++ gw-minighost (docs/minighost.md), the same
! defaults, checks and messages. A usage error stops every rank with status 2 (rank 0 says why).
module mg_options
  use mpi_f08
  implicit none
  private
  public :: options, parse_options, usage_error, itoa, stencil_name, comm_method_name, is_3d, is_full

  type, public :: options
    integer :: scaling = 2, nx = 100, ny = 100, nz = 100, num_vars = 5, num_spikes = 1, num_tsteps = 100
    integer :: stencil = 21, comm_method = 10, bc = 31, error_tol = 8, report_diffusion = 20
    integer :: percent_sum = 100, npx = 0, npy = 1, npz = 1, report_perf = 0, debug_grid = 0
    integer :: checkpoint_method = 1, checkpoint_interval = 0, restart_cp_num = -2, rounds = 1
    character(len=:), allocatable :: variant, output, checkpoint_file, restart_file
    character(len=8), allocatable :: variants(:)   ! --variant gw,mpi: side by side
    logical :: help = .false.
  end type

contains

  subroutine usage_error(rank, message)
    integer, intent(in) :: rank
    character(len=*), intent(in) :: message
    if (rank == 0) write(*, '(a)') 'gw-minighost-f: ' // message
    call MPI_Finalize()
    stop 2, quiet=.true.
  end subroutine

  function itoa(value) result(text)
    integer, intent(in) :: value
    character(len=:), allocatable :: text
    character(len=16) :: buffer
    write(buffer, '(i0)') value
    text = trim(buffer)
  end function

  function stencil_name(code) result(name)
    integer, intent(in) :: code
    character(len=:), allocatable :: name
    select case (code)
    case (21); name = '2D5PT'
    case (22); name = '2D9PT'
    case (23); name = '3D7PT'
    case default; name = '3D27PT'
    end select
  end function

  function comm_method_name(code) result(name)
    integer, intent(in) :: code
    character(len=:), allocatable :: name
    name = merge('BSPMA', 'SVAF ', code == 10)
    name = trim(name)
  end function

  logical function is_3d(stencil)
    integer, intent(in) :: stencil
    is_3d = stencil == 23 .or. stencil == 24
  end function

  logical function is_full(stencil)
    integer, intent(in) :: stencil
    is_full = stencil == 22 .or. stencil == 24
  end function

  ! An integer option's value: a whole number, as the C++ app's parser takes it.
  integer function integer_value(rank, name, text)
    integer, intent(in) :: rank
    character(len=*), intent(in) :: name, text
    integer :: status
    integer(8) :: wide
    read(text, *, iostat=status) wide
    if (status /= 0 .or. len_trim(text) == 0 .or. verify(trim(text), '+-0123456789') /= 0) &
      call usage_error(rank, name // " '" // trim(text) // "': not an integer; expected a whole number such as 16")
    if (wide > huge(1) .or. wide < -huge(1) - 1) &
      call usage_error(rank, name // " '" // trim(text) // "': out of range; expected an integer between " // &
                       itoa(-huge(1) - 1) // ' and ' // itoa(huge(1)))
    integer_value = int(wide)
  end function

  subroutine require(rank, ok, name, value, expected)
    integer, intent(in) :: rank, value
    logical, intent(in) :: ok
    character(len=*), intent(in) :: name, expected
    if (.not. ok) call usage_error(rank, name // ' ' // itoa(value) // ': expected ' // expected)
  end subroutine

  function argument(i) result(text)
    integer, intent(in) :: i
    character(len=:), allocatable :: text
    integer :: length
    call get_command_argument(i, length=length)
    allocate(character(len=length) :: text)
    call get_command_argument(i, text)
  end function

  type(options) function parse_options(rank, ranks) result(o)
    integer, intent(in) :: rank, ranks
    character(len=:), allocatable :: arg, name, value
    integer :: i, equals, n
    o%npx = ranks
    o%variant = 'mpi'
    o%output = ''
    o%checkpoint_file = ''
    o%restart_file = ''
    i = 1
    n = command_argument_count()
    do while (i <= n)
      arg = argument(i)
      if (arg == '--help' .or. arg == '-h') then
        o%help = .true.
        return
      end if
      equals = index(arg, '=')
      if (arg(1:min(2, len(arg))) == '--' .and. equals > 0) then
        name = arg(1:equals - 1)
        value = arg(equals + 1:)
      else
        name = arg
        if (i + 1 > n) call usage_error(rank, name // ': missing value')
        i = i + 1
        value = argument(i)
      end if
      select case (name)
      case ('--scaling'); o%scaling = integer_value(rank, name, value)
      case ('--nx'); o%nx = integer_value(rank, name, value)
      case ('--ny'); o%ny = integer_value(rank, name, value)
      case ('--nz'); o%nz = integer_value(rank, name, value)
      case ('--ndim')
        o%nx = integer_value(rank, name, value)
        o%ny = o%nx
        o%nz = o%nx
      case ('--num_vars'); o%num_vars = integer_value(rank, name, value)
      case ('--num_spikes'); o%num_spikes = integer_value(rank, name, value)
      case ('--num_tsteps'); o%num_tsteps = integer_value(rank, name, value)
      case ('--stencil'); o%stencil = integer_value(rank, name, value)
      case ('--comm_method'); o%comm_method = integer_value(rank, name, value)
      case ('--bc'); o%bc = integer_value(rank, name, value)
      case ('--error_tol'); o%error_tol = integer_value(rank, name, value)
      case ('--report_diffusion'); o%report_diffusion = integer_value(rank, name, value)
      case ('--percent_sum'); o%percent_sum = integer_value(rank, name, value)
      case ('--npx'); o%npx = integer_value(rank, name, value)
      case ('--npy'); o%npy = integer_value(rank, name, value)
      case ('--npz'); o%npz = integer_value(rank, name, value)
      case ('--npdim')
        o%npx = integer_value(rank, name, value)
        o%npy = o%npx
        o%npz = o%npx
      case ('--report_perf'); o%report_perf = integer_value(rank, name, value)
      case ('--debug_grid'); o%debug_grid = integer_value(rank, name, value)
      case ('--checkpoint_method'); o%checkpoint_method = integer_value(rank, name, value)
      case ('--checkpoint_interval'); o%checkpoint_interval = integer_value(rank, name, value)
      case ('--restart_cp_num'); o%restart_cp_num = integer_value(rank, name, value)
      case ('--checkpoint_file'); o%checkpoint_file = value
      case ('--restart_file'); o%restart_file = value
      case ('--variant'); o%variant = value
      case ('--output'); o%output = value
      case ('--rounds'); o%rounds = integer_value(rank, name, value)
      case default
        call usage_error(rank, "unknown option '" // arg // "' (gw-minighost-f --help lists the options)")
      end select
      i = i + 1
    end do
    call split_variants(o, rank)
    call check(o, rank, ranks)
  end function

  ! The checks of the reference's check_input, in its order.
  subroutine check(o, rank, ranks)
    type(options), intent(in) :: o
    integer, intent(in) :: rank, ranks
    call require(rank, o%scaling == 1 .or. o%scaling == 2, '--scaling', o%scaling, &
                 '1 (strong: --nx/--ny/--nz are the global grid) or 2 (weak: they are each rank''s block)')
    call require(rank, o%nx > 0, '--nx', o%nx, 'a grid size > 0')
    call require(rank, o%ny > 0, '--ny', o%ny, 'a grid size > 0')
    call require(rank, o%nz > 0, '--nz', o%nz, 'a grid size > 0')
    call require(rank, o%num_vars > 0, '--num_vars', o%num_vars, 'at least 1 variable')
    call require(rank, o%num_tsteps > 0, '--num_tsteps', o%num_tsteps, 'at least 1 time step')
    call require(rank, o%num_spikes > 0, '--num_spikes', o%num_spikes, 'at least 1 spike')
    call require(rank, o%error_tol >= 0, '--error_tol', o%error_tol, &
                 'an exponent >= 0 (the tolerance is 10^-error_tol)')
    call require(rank, o%report_diffusion >= 0, '--report_diffusion', o%report_diffusion, &
                 'a number of steps >= 0 (0: the last step of each spike)')
    call require(rank, o%percent_sum >= 0 .and. o%percent_sum <= 100, '--percent_sum', o%percent_sum, '0 through 100')
    call require(rank, o%report_perf >= 0 .and. o%report_perf <= 2, '--report_perf', o%report_perf, '0, 1 or 2')
    call require(rank, o%debug_grid == 0 .or. o%debug_grid == 1, '--debug_grid', o%debug_grid, '0 or 1')
    call require(rank, o%bc == 31, '--bc', o%bc, '31 (Dirichlet, the only boundary condition of miniGhost)')
    call require(rank, o%checkpoint_method == 1 .or. o%checkpoint_method == 2, '--checkpoint_method', &
                 o%checkpoint_method, '1 (MPI-IO) or 2 (H5Part)')
    call require(rank, o%checkpoint_interval >= 0, '--checkpoint_interval', o%checkpoint_interval, &
                 'a number of steps >= 0')
    call require(rank, o%npx > 0, '--npx', o%npx, 'at least 1 process in x')
    call require(rank, o%npy > 0, '--npy', o%npy, 'at least 1 process in y')
    call require(rank, o%npz > 0, '--npz', o%npz, 'at least 1 process in z')
    if (o%stencil == 20) call usage_error(rank, '--stencil 20: ''no computation'' is not supported (the reference ' // &
      'accepts it but its MPI drivers abort on it); expected 21 (2D5PT), 22 (2D9PT), 23 (3D7PT) or 24 (3D27PT)')
    if (o%stencil < 21 .or. o%stencil > 24) call usage_error(rank, '--stencil ' // itoa(o%stencil) // &
      ': unknown stencil; expected 21 (2D5PT), 22 (2D9PT), 23 (3D7PT) or 24 (3D27PT)')
    if (o%comm_method /= 10 .and. o%comm_method /= 11) call usage_error(rank, '--comm_method ' // &
      itoa(o%comm_method) // ': unknown communication method; expected 10 (BSPMA: all variables per neighbour ' // &
      'in one message) or 11 (SVAF: one variable at a time)')
    if (int(o%npx, 8) * o%npy * o%npz /= ranks) call usage_error(rank, '--npx ' // itoa(o%npx) // ' --npy ' // &
      itoa(o%npy) // ' --npz ' // itoa(o%npz) // ': the process grid has ' // itoa(o%npx * o%npy * o%npz) // &
      ' ranks but the job has ' // itoa(ranks) // '; expected npx*npy*npz = ' // itoa(ranks) // &
      ' (npx defaults to the number of ranks, npy and npz to 1)')
    if (o%rounds < 1 .or. int(o%rounds, 8) > int(o%num_spikes, 8) * o%num_tsteps) call usage_error(rank, '--rounds ' // &
      itoa(o%rounds) // ': expected 1 to the number of time steps (num_spikes x num_tsteps = ' // &
      itoa(o%num_spikes * o%num_tsteps) // ')')
  end subroutine

  ! "gw,mpi": names in order, each gw, mpi or commfree, none empty or twice.
  subroutine split_variants(o, rank)
    type(options), intent(inout) :: o
    integer, intent(in) :: rank
    character(len=:), allocatable :: rest, name
    integer :: comma
    allocate(o%variants(0))
    rest = o%variant
    do
      comma = index(rest, ',')
      if (comma == 0) comma = len(rest) + 1
      name = rest(1:comma - 1)
      if (name /= 'gw' .and. name /= 'mpi' .and. name /= 'commfree') call usage_error(rank, "--variant '" // &
        o%variant // "': variant '" // name // "' is unknown; expected gw (the ghostwire module's grids), mpi " // &
        "(plain MPI) or commfree (no exchange), or several: gw,mpi,commfree")
      if (any(o%variants == name)) call usage_error(rank, "--variant '" // o%variant // "': variant '" // name // &
        "' is listed twice")
      o%variants = [o%variants, name]
      if (comma > len(rest)) exit
      rest = rest(comma + 1:)
    end do
  end subroutine

end module mg_options
