! SPDX-License-Identifier: BSD-3-Clause
! gw-minighost-f: miniGhost (Mantevo 1.0.1) in Fortran on the ghostwire module, with a plain-MPI
! variant and one without exchange in the same program (--variant gw | mpi | commfree, or several
! side by side in --rounds rounds). The options, the numbers and the report lines are the C++
! gw-minighost's (docs/minighost.md): its interior sums are this program's.
program gw_minighost_f
  use mpi_f08
  use mg_options
  use mg_exchange
  use mg_stencil
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_f_pointer, c_intptr_t
  implicit none
  ! One variant's run: its storage and exchange, its conservation ledger, its clock and its output.
  type run_state
    character(len=:), allocatable :: variant, failure
    type(exchanger) :: x
    type(field), allocatable :: fields(:)
    real(8), allocatable :: sums(:), source_total(:), flux_out(:), reduced_sources(:), updated_sums(:), &
                            final_interior(:), round_seconds(:)
    logical, allocatable :: updated_current(:)
    integer :: spike = 1, step = 0, steps_done = 0, checks = 0, pending_step = 0, pending_spike = 0, out_unit = 0
    real(8) :: largest_error = 0, t_exchange = 0, t_compute = 0, t_check = 0, t_loop = 0
    logical :: pending = .false., held = .true., pending_report = .false., over = .false., to_file = .false.
    logical :: enforced = .true.   ! false when ghost cells facing other ranks are never filled (commfree)
  end type
  type(options) :: o
  type(run_state), allocatable, target :: runs(:)
  type(run_state), pointer :: s => null()
  character(len=:), allocatable :: note   ! about an enlarged grid, in every run's header
  integer :: rank, ranks, block(3), coords(3), process(3), global(3), offset(3), points, report_every, v, k, r, steps
  real(8), allocatable :: work(:), spike_values(:, :), round_times(:, :)
  integer, allocatable :: spike_cells(:, :), flux_cells(:, :), flux_offsets(:)
  real(8), allocatable :: flux_weights(:)   ! points outside per flux cell, as reals: no conversion per sum
  integer :: flux_sx = -1, flux_sxy = -1   ! the strides flux_offsets were placed for
  real(8), allocatable :: owned(:)   ! the owned cells of a plane's flat run (sweep_planes), rows owned_sx apart
  integer :: owned_sx = -1
  real(8) :: tolerance, start
  logical :: check_every_step
  integer(8) :: total_steps

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks)
  o = parse_options(rank, ranks)
  if (o%help) then
    if (rank == 0) call print_help()
    call MPI_Finalize()
    stop
  end if

  call decompose()
  points = merge(5, merge(9, merge(7, 27, o%stencil == 23), o%stencil == 22), o%stencil == 21)
  call boundary_cells()
  ! Room for the dense owned cells (long rows); the flat sweep of short rows takes two planes of the
  ! field's own layout and grows it at its first call if need be (apply_stencil).
  allocate(work(product(int(block, 8))))
  tolerance = real(1.0 / (10.0 ** o%error_tol), 8)   ! single precision, as the reference
  check_every_step = o%percent_sum > 0 .or. o%debug_grid == 1
  report_every = merge(o%num_tsteps, o%report_diffusion, o%report_diffusion == 0)
  total_steps = int(o%num_spikes, 8) * o%num_tsteps
  allocate(runs(size(o%variants)))
  do k = 1, size(runs)
    s => runs(k)
    s%variant = trim(o%variants(k))
    call begin_run()
  end do

  if (size(runs) == 1) then
    s => runs(1)
    call MPI_Barrier(MPI_COMM_WORLD)
    start = MPI_Wtime()
    call advance(total_steps)
    s%t_loop = MPI_Wtime() - start
  else
    ! Side by side: each variant does its share of every round, timed between barriers, in an order
    ! that rotates with the round, so the machine's slow and fast spells fall on all alike.
    allocate(round_times(o%rounds, size(runs)))
    do r = 1, o%rounds
      steps = int(r * total_steps / o%rounds - (r - 1) * total_steps / o%rounds)
      do k = 0, size(runs) - 1
        s => runs(mod(r - 1 + k, size(runs)) + 1)
        call MPI_Barrier(MPI_COMM_WORLD)
        start = MPI_Wtime()
        call advance(int(steps, 8))
        call MPI_Barrier(MPI_COMM_WORLD)
        round_times(r, mod(r - 1 + k, size(runs)) + 1) = MPI_Wtime() - start
        s%t_loop = s%t_loop + round_times(r, mod(r - 1 + k, size(runs)) + 1)
      end do
    end do
    call MPI_Allreduce(MPI_IN_PLACE, round_times, size(round_times), MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
  end if
  do k = 1, size(runs)
    s => runs(k)
    if (allocated(round_times)) s%round_seconds = round_times(:, k)
    call end_run()
  end do
  if (size(runs) > 1 .and. rank == 0) call compare_rounds()
  call MPI_Finalize()
  if (any(.not. runs%held)) stop 1, quiet=.true.

contains

  ! One variant: storage, output file, initial state (each its own, all alike).
  subroutine begin_run()
    character(len=:), allocatable :: file
    if (rank == 0 .and. len(o%output) > 0) then
      file = o%output
      if (size(o%variants) > 1) file = file_for(o%output, s%variant)
      open(newunit=s%out_unit, file=file, status='replace', action='write')
      s%to_file = .true.
    end if
    allocate(s%fields(o%num_vars))
    s%enforced = s%variant /= 'commfree' .or. ranks == 1
    call setup_exchange(s%x, o, s%variant, block, coords, process, s%fields)
    call line(header())
    allocate(s%sums(2 * o%num_vars), s%source_total(o%num_vars), s%flux_out(o%num_vars), &
             s%reduced_sources(o%num_vars), s%updated_sums(o%num_vars), s%updated_current(o%num_vars), &
             s%final_interior(o%num_vars))
    s%source_total = 0
    s%flux_out = 0
    s%updated_current = .false.
    call initial_state()
  end subroutine

  ! FILE with ".VARIANT" before its extension.
  function file_for(file, variant) result(name)
    character(len=*), intent(in) :: file, variant
    character(len=:), allocatable :: name
    integer :: dot, slash
    dot = index(file, '.', back=.true.)
    slash = index(file, '/', back=.true.)
    if (dot == 0 .or. dot < slash) then
      name = file // '.' // variant
    else
      name = file(1:dot - 1) // '.' // variant // file(dot:)
    end if
  end function

  ! Up to `count` time steps of this run, where it left off (spikes inserted before their first step).
  subroutine advance(count)
    integer(8), intent(in) :: count
    integer(8) :: done
    done = 0
    do while (done < count .and. .not. s%over)
      if (s%step == 0) then
        do v = 1, o%num_vars
          call insert_spike(v)
          s%updated_current(v) = .false.
          s%source_total(v) = s%source_total(v) + spike_values(v, s%spike)
        end do
      end if
      s%step = s%step + 1
      call time_step()
      if (.not. s%held) then
        s%over = .true.
        return
      end if
      s%steps_done = s%steps_done + 1
      done = done + 1
      if (check_every_step .or. mod(s%step, report_every) == 0) call start_check(mod(s%step, report_every) == 0)
      if (s%step == o%num_tsteps) then
        call finish_check()   ! before the next spike changes the source totals
        s%step = 0
        s%spike = s%spike + 1
        s%over = .not. s%held .or. s%spike > o%num_spikes
      end if
    end do
  end subroutine

  subroutine end_run()
    if (s%held .and. .not. s%over) call finish_check()
    call final_check()
    call summary()
    call free_exchange(s%x, s%fields)
    if (s%to_file) close(s%out_unit)
  end subroutine

  ! How each variant's round times compare with the first's: the median of the per-round ratios.
  subroutine compare_rounds()
    real(8) :: ratios(o%rounds), swap, median
    integer :: i, j
    character(len=:), allocatable :: text
    text = 'side by side: median of the per-round time ratios to ' // runs(1)%variant // ':'
    do k = 2, size(runs)
      ratios = runs(k)%round_seconds / max(runs(1)%round_seconds, tiny(1d0))
      do i = 2, size(ratios)
        swap = ratios(i)
        j = i - 1
        do while (j >= 1)
          if (ratios(j) <= swap) exit
          ratios(j + 1) = ratios(j)
          j = j - 1
        end do
        ratios(j + 1) = swap
      end do
      median = ratios((size(ratios) + 1) / 2)
      if (mod(size(ratios), 2) == 0) median = 0.5d0 * (ratios(size(ratios) / 2) + ratios(size(ratios) / 2 + 1))
      text = text // ' ' // runs(k)%variant // ' ' // trim(e_format(median, 3))
    end do
    write(*, '(a)') text
  end subroutine

  subroutine decompose()
    integer :: axis, requested(3)
    character(len=3), parameter :: names(3) = ['nx ', 'ny ', 'nz '], grids(3) = ['npx', 'npy', 'npz']
    process = [o%npx, o%npy, o%npz]
    coords = [mod(rank, process(1)), mod(rank, process(1) * process(2)) / process(1), rank / (process(1) * process(2))]
    requested = [o%nx, o%ny, o%nz]
    note = ''
    do axis = 1, 3
      if (o%scaling == 2) then
        block(axis) = requested(axis)
      else
        block(axis) = requested(axis) / process(axis) + merge(1, 0, mod(requested(axis), process(axis)) > 0)
        if (mod(requested(axis), process(axis)) > 0) then
          if (len(note) > 0) note = note // '; '
          note = note // trim(names(axis)) // ' ' // itoa(requested(axis)) // ' is not a multiple of ' // &
                 grids(axis) // ' ' // itoa(process(axis)) // ', so every rank gets ' // itoa(block(axis)) // &
                 ' cells and the global grid has ' // itoa(block(axis) * process(axis))
        end if
      end if
    end do
    global = block * process
    offset = coords * block
    if (len(note) > 0) note = 'note: ' // note // ' (as in the reference''s strong scaling)'
  end subroutine

  function header() result(text)
    character(len=:), allocatable :: text
    text = 'gw-minighost-f: stencil ' // itoa(o%stencil) // ' (' // stencil_name(o%stencil) // '), comm_method ' // &
           itoa(o%comm_method) // ' (' // comm_method_name(o%comm_method) // '), variant ' // s%variant // ', ' // &
           itoa(ranks) // ' ranks (' // triple(process) // '), ' // triple(block) // ' per rank, ' // &
           triple(global) // ' global, ' // itoa(o%num_vars) // merge(' variable, ', ' variables,', o%num_vars == 1)
    if (o%num_vars /= 1) text = text // ' '
    text = text // itoa(o%num_spikes) // merge(' spike x ', ' spikes x', o%num_spikes == 1)
    if (o%num_spikes /= 1) text = text // ' '
    text = text // itoa(o%num_tsteps) // ' steps'
    if (len(note) > 0) text = text // new_line('a') // note
  end function

  ! The reference reseeds before every cell: every owned cell gets the same value.
  subroutine initial_state()
    real(8) :: r, value, local, total
    real(8), allocatable :: positions(:, :)
    integer :: axis, sp
    value = 0
    if (o%debug_grid == 0) then
      call reseed()
      call random_number(r)
      value = real(mod(int(r * 100d0, 8), int(block(1), 8) * block(2) * block(3)) + 1, 8)
    end if
    local = value * (real(block(1), 8) * block(2) * block(3))
    call MPI_Allreduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
    do v = 1, o%num_vars
      s%fields(v)%u(1:block(1), 1:block(2), 1:block(3)) = value
      s%source_total(v) = s%source_total(v) + total
    end do
    ! Spikes (the same for every run): values (variable fastest), then positions from a fresh stream;
    ! spike 1 at the centre.
    if (allocated(spike_values)) return
    allocate(spike_values(o%num_vars, o%num_spikes), positions(3, o%num_spikes), spike_cells(3, o%num_spikes))
    call reseed()
    call random_number(spike_values)
    spike_values = (spike_values + 1d0) * real(global(1), 8) * real(global(2), 8) * real(global(3), 8) * real(ranks, 8)
    spike_values(1, 1) = real(real(int(global(1), 8) * global(2) * global(3)), 8)
    call reseed()
    call random_number(positions)
    do sp = 1, o%num_spikes
      do axis = 1, 3
        if (sp == 1) then
          spike_cells(axis, sp) = (global(axis) + 1) / 2
        else
          spike_cells(axis, sp) = int(positions(axis, sp) * global(axis) + 1d0)
        end if
      end do
    end do
  end subroutine

  subroutine reseed()
    integer :: n
    call random_seed(size=n)
    call random_seed(put=[(8, v = 1, n)])
  end subroutine

  subroutine insert_spike(var)
    integer, intent(in) :: var
    integer :: local(3)
    local = spike_cells(:, s%spike) - offset
    if (all(local >= 1 .and. local <= block)) &
      s%fields(var)%u(local(1), local(2), local(3)) = s%fields(var)%u(local(1), local(2), local(3)) + spike_values(var, s%spike)
  end subroutine

  ! The owned cells whose stencil reaches over the physical boundary, with how many of its points do.
  subroutine boundary_cells()
    integer :: i, j, k, reach(3), outside, m, pass
    do pass = 1, 2
      m = 0
      do k = 1, block(3)
        do j = 1, block(2)
          do i = 1, block(1)
            reach = [axis_reach(1, i), axis_reach(2, j), axis_reach(3, k)]
            if (.not. is_3d(o%stencil)) reach(3) = 3
            select case (o%stencil)
            case (21); outside = (3 - reach(1)) + (3 - reach(2))
            case (23); outside = (3 - reach(1)) + (3 - reach(2)) + (3 - reach(3))
            case (22); outside = 9 - reach(1) * reach(2)
            case default; outside = 27 - reach(1) * reach(2) * reach(3)
            end select
            if (outside == 0) cycle
            m = m + 1
            if (pass == 2) then
              flux_cells(:, m) = [i, j, k]
              flux_weights(m) = outside
            end if
          end do
        end do
      end do
      if (pass == 1) allocate(flux_cells(3, m), flux_weights(m))
    end do
  end subroutine

  integer function axis_reach(axis, index)
    integer, intent(in) :: axis, index
    axis_reach = 3
    if (coords(axis) == 0 .and. index == 1) axis_reach = axis_reach - 1
    if (coords(axis) == process(axis) - 1 .and. index == block(axis)) axis_reach = axis_reach - 1
  end function

  subroutine time_step()
    real(8) :: t
    if (o%comm_method == 10) then
      t = MPI_Wtime()
      call exchange_all(s%x, s%fields)
      s%t_exchange = s%t_exchange + MPI_Wtime() - t
      call finish_check()
      if (.not. s%held) return
      do v = 1, o%num_vars
        call update(v)
      end do
    else
      do v = 1, o%num_vars
        t = MPI_Wtime()
        call exchange_one(s%x, s%fields, v)
        s%t_exchange = s%t_exchange + MPI_Wtime() - t
        if (v == 1) call finish_check()
        if (.not. s%held) return
        call update(v)
      end do
    end if
  end subroutine

  ! Flux out first (the share of the old values the update sends out of the grid), then the stencil.
  ! Both read the field through its flat view: the whole storage from u(0, 0, 0), rows sx and
  ! planes sxy elements apart (a grid's rows are padded: docs/fortran.md, u is not contiguous).
  subroutine update(var)
    integer, intent(in) :: var
    real(8), pointer, contiguous :: storage(:)
    real(8) :: t, outflow
    integer :: sx, sxy
    t = MPI_Wtime()
    call flat_view(s%fields(var)%u, storage, sx, sxy)
    if (sx /= flux_sx .or. sxy /= flux_sxy) call place_flux_cells(sx, sxy)
    outflow = boundary_outflow(storage, flux_offsets, flux_weights)
    s%flux_out(var) = s%flux_out(var) + outflow / points
    s%updated_sums(var) = apply_stencil(s%fields(var)%u, storage, sx, sxy)
    s%updated_current(var) = .true.
    s%t_compute = s%t_compute + MPI_Wtime() - t
  end subroutine

  subroutine flat_view(u, storage, sx, sxy)
    real(8), target, intent(in) :: u(0:, 0:, 0:)
    real(8), pointer, contiguous, intent(out) :: storage(:)
    integer, intent(out) :: sx, sxy
    type(c_ptr) :: origin
    sx = element_distance(u(0, 0, 0), u(0, 1, 0))
    sxy = element_distance(u(0, 0, 0), u(0, 0, 1))
    origin = c_loc(u(0, 0, 0))
    call c_f_pointer(origin, storage, [sxy * (block(3) + 2)])
  end subroutine

  ! The flux cells' places in the flat view of a field with these strides.
  subroutine place_flux_cells(sx, sxy)
    integer, intent(in) :: sx, sxy
    flux_offsets = flux_cells(1, :) + flux_cells(2, :) * sx + flux_cells(3, :) * sxy
    flux_sx = sx
    flux_sxy = sxy
  end subroutine

  ! Jacobi: the averages into work, then back; returns the sum of the new owned cells. The points are
  ! added in the reference's order and divided, so every value is the reference's bit for bit.
  ! `u` and `storage` are the same field (storage its flat view, update): each branch reads and
  ! writes it through one of them only, as Fortran's rules for aliased arguments require.
  real(8) function apply_stencil(u, storage, sx, sxy) result(total)
    real(8), intent(inout) :: u(0:, 0:, 0:)
    real(8), intent(inout) :: storage(0:)
    integer, intent(in) :: sx, sxy
    integer :: span
    if (block(1) < short_row) then
      span = int(plane_span(block, sx))
      if (size(work) < 2 * span) then
        deallocate(work)
        allocate(work(2 * span))
      end if
      if (sx /= owned_sx) then
        call owned_cells(owned, span, sx, block(1))
        owned_sx = sx
      end if
      total = sweep_planes(storage, work, owned, span, sx, sxy, o%stencil, block(1), block(2), block(3))
    else
      total = sweep_rows(u, work, o%stencil, block(1), block(2), block(3))
    end if
  end function

  integer function element_distance(from, to)
    real(8), target, intent(in) :: from, to
    element_distance = int((transfer(c_loc(to), 0_c_intptr_t) - transfer(c_loc(from), 0_c_intptr_t)) / 8)
  end function

  real(8) function interior_sum(var)
    integer, intent(in) :: var
    if (s%updated_current(var)) then
      interior_sum = s%updated_sums(var)
    else
      interior_sum = sum(s%fields(var)%u(1:block(1), 1:block(2), 1:block(3)))
    end if
  end function

  ! Starts the global sums of every variable; finish_check (after the next exchange) checks them.
  subroutine start_check(report)
    logical, intent(in) :: report
    real(8) :: t
    integer :: var
    t = MPI_Wtime()
    do var = 1, o%num_vars
      s%sums(var) = interior_sum(var)
      s%sums(o%num_vars + var) = s%flux_out(var)
    end do
    s%reduced_sources = s%source_total
    call start_sum(s%x, s%sums)
    s%pending = .true.
    s%pending_report = report
    s%pending_step = s%step
    s%pending_spike = s%spike
    s%t_check = s%t_check + MPI_Wtime() - t
  end subroutine

  subroutine finish_check()
    real(8) :: t, error
    integer :: var
    if (.not. s%pending) return
    t = MPI_Wtime()
    s%pending = .false.
    call finish_sum(s%x)
    do var = 1, o%num_vars
      error = relative_error(s%reduced_sources(var), s%sums(var), s%sums(o%num_vars + var))
      s%checks = s%checks + 1
      s%largest_error = max(s%largest_error, error)
      if (s%pending_report .or. (.not. (error <= tolerance) .and. s%enforced)) &
        call line(report_line(s%pending_step, s%pending_spike, var, s%reduced_sources(var), s%sums(var), s%sums(o%num_vars + var)))
      if (.not. (error <= tolerance) .and. s%held .and. s%enforced) then
        s%failure = 'conservation check failed at step ' // itoa(s%pending_step) // ' of spike ' // itoa(s%pending_spike) // &
                  ', variable ' // itoa(var) // ': |source_total - gsum| / source_total = ' // trim(e_format(error, 6)) // &
                  ' exceeds the tolerance ' // trim(e_format(tolerance, 3)) // ' (--error_tol ' // itoa(o%error_tol) // ')'
        s%held = .false.
      end if
    end do
    s%t_check = s%t_check + MPI_Wtime() - t
  end subroutine

  real(8) function relative_error(source, interior, flux)
    real(8), intent(in) :: source, interior, flux
    relative_error = abs(source - (interior + flux)) / source
  end function

  ! The reference's final check of every variable.
  subroutine final_check()
    integer :: var
    real(8) :: error
    if (.not. s%held) return
    do var = 1, o%num_vars
      s%sums(var) = interior_sum(var)
      s%sums(o%num_vars + var) = s%flux_out(var)
    end do
    call start_sum(s%x, s%sums)
    call finish_sum(s%x)
    s%final_interior = s%sums(1:o%num_vars)
    if (.not. s%enforced) return
    do var = 1, o%num_vars
      error = relative_error(s%source_total(var), s%sums(var), s%sums(o%num_vars + var))
      s%largest_error = max(s%largest_error, error)
      if (.not. (error <= tolerance) .and. s%held) then
        s%failure = 'conservation check failed at the end of the run, variable ' // itoa(var) // ': relative error ' // &
                  trim(e_format(error, 6)) // ' exceeds the tolerance ' // trim(e_format(tolerance, 3)) // &
                  ' (--error_tol ' // itoa(o%error_tol) // ')'
        s%held = .false.
      end if
    end do
  end subroutine

  function report_line(at_step, at_spike, var, source, interior, flux) result(text)
    integer, intent(in) :: at_step, at_spike, var
    real(8), intent(in) :: source, interior, flux
    character(len=:), allocatable :: text
    text = 'diffusion step ' // itoa(at_step) // ' var ' // itoa(var) // ' source_total ' // g17(source) // &
           ' gsum ' // g17(interior + flux) // ' flux_out ' // g17(flux) // ' interior_sum ' // g17(interior)
    if (o%num_spikes > 1) text = text // ' spike ' // itoa(at_spike)
  end function

  subroutine summary()
    real(8) :: mine(4), low(4), avg(4), high(4), per_step, elements
    real(8), allocatable :: everyone(:, :)
    character(len=8), parameter :: phases(4) = ['total   ', 'exchange', 'compute ', 'check   ']
    integer :: var
    character(len=:), allocatable :: json, verdict
    per_step = max(s%steps_done, 1)
    mine = [s%t_loop, s%t_exchange, s%t_compute, s%t_check] / per_step
    call MPI_Reduce(mine, low, 4, MPI_DOUBLE_PRECISION, MPI_MIN, 0, MPI_COMM_WORLD)
    call MPI_Reduce(mine, high, 4, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD)
    call MPI_Reduce(mine, avg, 4, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD)
    avg = avg / ranks
    allocate(everyone(4, ranks))
    if (o%report_perf >= 2) call MPI_Gather(mine, 4, MPI_DOUBLE_PRECISION, everyone, 4, MPI_DOUBLE_PRECISION, 0, &
                                            MPI_COMM_WORLD)
    if (rank /= 0) return
    ! Side by side: the rounds' times (the slowest rank's, between barriers) over the steps.
    if (allocated(s%round_seconds)) high(1) = sum(s%round_seconds) / per_step
    elements = 0
    if (high(1) > 0) elements = real(block(1), 8) * block(2) * block(3) * ranks * o%num_vars / high(1)
    if (.not. s%enforced) then
      verdict = 'not verified (the variant does not exchange halos; largest relative error ' // &
                trim(e_format(s%largest_error, 2)) // ')'
    else if (s%held) then
      verdict = 'passed: ' // itoa(s%checks) // ' checks, largest relative error ' // trim(e_format(s%largest_error, 2)) // &
                ' (tolerance ' // trim(e_format(tolerance, 2)) // ')'
    else
      verdict = 'FAILED: ' // s%failure
      write(*, '(a)') 'gw-minighost-f: ' // s%failure
    end if
    call line(new_line('a') // 'miniGhost  variant ' // s%variant // ' (Fortran)' // new_line('a') // &
      '  ranks                ' // itoa(ranks) // ' (process grid ' // triple(process) // ')' // new_line('a') // &
      '  stencil              ' // itoa(o%stencil) // ' (' // stencil_name(o%stencil) // ')' // new_line('a') // &
      '  comm_method          ' // itoa(o%comm_method) // ' (' // comm_method_name(o%comm_method) // ')' // &
      new_line('a') // '  grid per rank        ' // triple(block) // new_line('a') // &
      '  global grid          ' // triple(global) // new_line('a') // &
      '  variables            ' // itoa(o%num_vars) // new_line('a') // &
      '  spikes x steps       ' // itoa(o%num_spikes) // ' x ' // itoa(o%num_tsteps) // new_line('a') // &
      '  time per step        ' // trim(e_format(high(1), 4)) // ' s' // new_line('a') // &
      '  mesh elements/s      ' // trim(e_format(elements, 4)) // new_line('a') // &
      '    exchange           ' // trim(e_format(avg(2), 4)) // ' s/step (average over ranks)' // new_line('a') // &
      '    compute            ' // trim(e_format(avg(3), 4)) // ' s/step' // new_line('a') // &
      '    check              ' // trim(e_format(avg(4), 4)) // ' s/step' // new_line('a') // &
      '  conservation         ' // verdict // new_line('a'))
    if (o%report_perf >= 1) then
      call line('  per step, min / avg / max over ranks:')
      do var = 1, 4
        call line('    ' // phases(var) // repeat(' ', 11) // trim(e_format(low(var), 4)) // ' / ' // &
                  trim(e_format(avg(var), 4)) // ' / ' // trim(e_format(high(var), 4)) // ' s')
      end do
    end if
    if (o%report_perf >= 2) then
      do var = 1, ranks
        call line('    rank ' // itoa(var - 1) // ': total ' // trim(e_format(everyone(1, var), 4)) // ' exchange ' // &
                  trim(e_format(everyone(2, var), 4)) // ' compute ' // trim(e_format(everyone(3, var), 4)) // &
                  ' check ' // trim(e_format(everyone(4, var), 4)) // ' s/step')
      end do
    end if
    json = '{"app":"minighost","language":"fortran","variant":"' // s%variant // '","ranks":' // itoa(ranks) // &
      ',"npx":' // itoa(process(1)) // ',"npy":' // itoa(process(2)) // ',"npz":' // itoa(process(3)) // &
      ',"stencil":' // itoa(o%stencil) // ',"stencil_name":"' // stencil_name(o%stencil) // '","comm_method":' // &
      itoa(o%comm_method) // ',"comm_method_name":"' // comm_method_name(o%comm_method) // '","scaling":' // &
      itoa(o%scaling) // ',"nx":' // itoa(block(1)) // ',"ny":' // itoa(block(2)) // ',"nz":' // itoa(block(3)) // &
      ',"global_nx":' // itoa(global(1)) // ',"global_ny":' // itoa(global(2)) // ',"global_nz":' // itoa(global(3)) // &
      ',"num_vars":' // itoa(o%num_vars) // ',"num_spikes":' // itoa(o%num_spikes) // ',"num_tsteps":' // &
      itoa(o%num_tsteps) // ',"steps":' // itoa(s%steps_done) // ',"time_per_step_s":' // trim(e_format(high(1), 6)) // &
      ',"elements_per_s":' // trim(e_format(elements, 6)) // ',"exchange_s_per_step":' // trim(e_format(avg(2), 6)) // &
      ',"compute_s_per_step":' // trim(e_format(avg(3), 6)) // ',"check_s_per_step":' // trim(e_format(avg(4), 6)) // &
      ',"verified":' // trim(merge(merge('true ', 'false', s%held), 'null ', s%enforced)) // ',"checks":' // itoa(s%checks) // &
      ',"largest_relative_error":' // trim(e_format(s%largest_error, 6)) // ',"tolerance":' // &
      trim(e_format(tolerance, 6))
    if (allocated(s%round_seconds)) then
      json = json // ',"rounds":' // itoa(size(s%round_seconds)) // ',"round_seconds":['
      do var = 1, size(s%round_seconds)
        if (var > 1) json = json // ','
        json = json // trim(e_format(s%round_seconds(var), 6))
      end do
      json = json // ']'
    end if
    json = json // ',"final_interior_sums":['
    do var = 1, o%num_vars
      if (var > 1) json = json // ','
      if (s%held) then
        json = json // g17(s%final_interior(var))
      else
        json = json // 'null'
      end if
    end do
    call line(json // ']}')
  end subroutine

  ! Rank 0's output: stdout, and the --output file.
  subroutine line(text)
    character(len=*), intent(in) :: text
    if (rank /= 0) return
    write(*, '(a)') text
    if (s%to_file) write(s%out_unit, '(a)') text
  end subroutine

  function triple(v) result(text)
    integer, intent(in) :: v(3)
    character(len=:), allocatable :: text
    text = itoa(v(1)) // ' x ' // itoa(v(2)) // ' x ' // itoa(v(3))
  end function

  ! C's %.<digits>e: 1.234568e-04.
  function e_format(value, digits) result(text)
    real(8), intent(in) :: value
    integer, intent(in) :: digits
    character(len=32) :: text
    character(len=16) :: form
    integer :: e
    write(form, '(a, i0, a, i0, a)') '(es', digits + 9, '.', digits, 'e2)'
    write(text, form) value
    text = adjustl(text)
    e = index(text, 'E')
    if (e > 0) text(e:e) = 'e'
  end function

  ! C's %.17g: 17 significant digits, trailing zeros dropped, fixed notation for exponents -4 to 16.
  function g17(value) result(text)
    real(8), intent(in) :: value
    character(len=:), allocatable :: text, digits, fraction
    character(len=32) :: buffer
    integer :: e, mark, exponent
    if (value == 0) then
      text = '0'
      if (sign(1d0, value) < 0) text = '-0'
      return
    end if
    write(buffer, '(es24.16e3)') abs(value)
    buffer = adjustl(buffer)
    mark = index(buffer, 'E')
    read(buffer(mark + 1:), *) exponent
    digits = buffer(1:1) // buffer(3:mark - 1)            ! 17 digits
    if (exponent >= -4 .and. exponent < 17) then
      if (exponent >= 0) then
        text = digits(1:exponent + 1)
        fraction = digits(exponent + 2:)
      else
        text = '0'
        fraction = repeat('0', -exponent - 1) // digits
      end if
      e = len_trim(fraction)
      do while (e > 0)
        if (fraction(e:e) /= '0') exit
        e = e - 1
      end do
      if (e > 0) text = text // '.' // fraction(1:e)
    else
      fraction = digits(2:)
      e = len(fraction)
      do while (e > 0)
        if (fraction(e:e) /= '0') exit
        e = e - 1
      end do
      text = digits(1:1)
      if (e > 0) text = text // '.' // fraction(1:e)
      text = text // 'e' // merge('-', '+', exponent < 0)
      if (abs(exponent) < 10) text = text // '0'
      text = text // itoa(abs(exponent))
    end if
    if (value < 0) text = '-' // text
  end function

  subroutine print_help()
    write(*, '(a)') 'usage: gw-minighost-f [options]', '', &
      'miniGhost (Mantevo 1.0.1) in Fortran on the ghostwire module: the options of gw-minighost', &
      '(docs/minighost.md), with these variants:', &
      '  --variant gw     every variable a ghostwire grid, one halo update of all of them', &
      '  --variant mpi    plain MPI: packed faces, MPI_Irecv / MPI_Isend [default]', &
      '  --variant commfree   no exchange: the computation alone, the bound on both (not verified', &
      '                   with more than one rank: ghost cells facing other ranks stay 0)', &
      '  --variant gw,mpi,commfree --rounds R   several side by side in one job, taking turns in R rounds', &
      '  --scaling --nx --ny --nz --ndim --num_vars --num_spikes --num_tsteps --stencil (21-24)', &
      '  --comm_method (10 BSPMA, 11 SVAF) --bc --error_tol --report_diffusion --percent_sum', &
      '  --npx --npy --npz --npdim --report_perf --debug_grid --output FILE', &
      '  --checkpoint_method --checkpoint_interval --checkpoint_file --restart_cp_num --restart_file (ignored)', &
      'At every report step rank 0 prints, per variable,', &
      '  diffusion step S var V source_total X gsum X flux_out X interior_sum X', &
      'and at the end a table and one JSON line. Exit status 1 if conservation fails, 2 for a usage error.'
  end subroutine

end program gw_minighost_f
