! SPDX-License-Identifier: BSD-3-Clause
! heat.f90 with OpenMP threads inside each rank (docs/fortran.md, "Threads"): every thread updates
! its columns of the block and takes its share of the halo update (gw_update_halo_shared). MPI is
! initialised at MPI_THREAD_MULTIPLE, since the threads' shares may travel between nodes. The
! checksum is heat.f90's at any ranks x threads.
program heat_threads
  use mpi_f08
  use omp_lib
  use ghostwire
  implicit none
  type(gw_world) :: world
  type(gw_grid) :: grid
  real(8), pointer :: u(:, :)
  real(8), allocatable :: new(:, :)
  integer :: n(2), offset(2), i, j, step, rank, provided, level, thread, threads, first, last
  real(8) :: checksum

  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided)
  call gw_world_init(world, MPI_COMM_WORLD)
  call gw_world_thread_level(world, level)
  call gw_grid_create(grid, world, u, [200, 120], halo=[1], periodic=[.true., .true.])
  call gw_grid_info(grid, local_extents=n, offset=offset)
  do j = 1, n(2)
    do i = 1, n(1)
      u(i, j) = offset(1) + i + 1000 * (offset(2) + j)
    end do
  end do
  allocate(new(n(1), n(2)))
  !$omp parallel private(thread, threads, first, last, step, i, j)
  thread = omp_get_thread_num()
  threads = omp_get_num_threads()
  first = n(2) * thread / threads + 1              ! this thread's columns (contiguous in memory)
  last = n(2) * (thread + 1) / threads
  do step = 1, 100
    call gw_update_halo_shared(grid, thread, threads)   ! every ghost cell filled, on every thread
    do j = first, last
      do i = 1, n(1)
        new(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
    !$omp barrier
    u(1:n(1), first:last) = new(1:n(1), first:last)
    !$omp barrier
  end do
  !$omp end parallel
  checksum = sum(new)
  call gw_allreduce(world, checksum, GW_SUM)
  call gw_world_rank(world, rank)
  if (rank == 0) then
    write(*, '(a, i0, a)') 'heat_threads: ', omp_get_max_threads(), ' thread(s) per rank'
    if (level /= GW_THREAD_MULTIPLE .and. provided /= MPI_THREAD_MULTIPLE) &
      write(*, '(a)') 'heat_threads: MPI gives less than MPI_THREAD_MULTIPLE: only node peers may be threaded'
    write(*, '(a, f0.3)') 'heat: checksum ', checksum
  end if
  call gw_grid_free(grid)
  call gw_world_free(world)
  call MPI_Finalize()
end program
