! SPDX-License-Identifier: BSD-3-Clause
! The ghostwire Fortran module: `use ghostwire`. A Fortran 2008 layer over the C API (ghostwire.h)
! through ISO_C_BINDING. Arrays are Fortran arrays with their own bounds; where the library thinks in
! C order (grids: dimension 0 slowest) the module reverses the order, so u(i, j, k) with i fastest is
! what the library sees. Every call takes an optional `ierr`: with it, the error code (GW_SUCCESS = 0)
! is returned and gw_error_message() tells what went wrong; without it, an error stops the program
! with the library's message. Ranks are MPI ranks (0-based), channels and notification ids 0-based as
! MPI tags; everything indexing a Fortran array (boxes, index lists, grids of an update) is 1-based.
! See docs/fortran.md.
module ghostwire
  use, intrinsic :: iso_c_binding
#ifdef GHOSTWIRE_HAVE_MPI_F08
  use mpi_f08, only: MPI_Comm
#endif
  implicit none
  private

  integer, parameter, public :: GW_SUCCESS = 0, GW_ERR_INVALID_ARGUMENT = 1, GW_ERR_OUT_OF_RANGE = 2, &
                                GW_ERR_MISMATCH = 3, GW_ERR_TIMEOUT = 4, GW_ERR_MPI = 5, GW_ERR_STATE = 6, &
                                GW_ERR_UNSUPPORTED = 7, GW_ERR_INTERNAL = 8
  ! Reductions; GW_REPLACE (the last value wins) for reverse exchanges only.
  integer, parameter, public :: GW_SUM = 0, GW_MIN = 1, GW_MAX = 2, GW_REPLACE = 3
  integer, parameter, public :: GW_SEND = 0, GW_RECEIVE = 1
  ! MPI's thread levels, as gw_world_thread_level reports them (docs/runtime.md, "Threads").
  integer, parameter, public :: GW_THREAD_SINGLE = 0, GW_THREAD_FUNNELED = 1, GW_THREAD_SERIALIZED = 2, &
                                GW_THREAD_MULTIPLE = 3
  ! Messages between nodes, one per pair of nodes or each its own (gw_plan_aggregate; docs/plans.md).
  integer, parameter, public :: GW_AGGREGATE_AUTO = 0, GW_AGGREGATE_NODE = 1, GW_AGGREGATE_OFF = 2
  ! Grid stencils: the faces only (5-, 7-point), or faces, edges and corners (9-, 27-point).
  integer, parameter, public :: GW_FACES = 0, GW_FULL = 1
  ! The number types a reverse exchange combines values as (gw_plan_reverse_exchange).
  integer, parameter, public :: GW_DOUBLE = 0, GW_FLOAT = 1, GW_INT32 = 2, GW_INT64 = 3

  type, public :: gw_world
    type(c_ptr) :: ptr = c_null_ptr
  end type
  type, public :: gw_segment
    type(c_ptr) :: ptr = c_null_ptr
  end type
  type, public :: gw_reduction
    type(c_ptr) :: ptr = c_null_ptr
  end type
  type, public :: gw_plan
    type(c_ptr) :: ptr = c_null_ptr
  end type
  ! Registered memory of a plan: the array's rank, lower bounds and shape; its address and element
  ! size, against which gw_plan_add_section places a section.
  type, public :: gw_region
    integer(c_int) :: id = -1
    integer :: rank = 0
    integer(c_int64_t) :: lower(3) = 1, extent(3) = 1
    integer(c_intptr_t) :: base = 0
    integer(c_size_t) :: element = 0
  end type
  type, public :: gw_grid
    type(c_ptr) :: ptr = c_null_ptr
    integer :: rank = 0
  end type
  type, public :: gw_halo_update
    type(c_ptr) :: ptr = c_null_ptr
  end type
  type, public :: gw_halo_handle
    type(c_ptr) :: ptr = c_null_ptr
  end type

  public :: gw_error_message
  public :: gw_world_init, gw_world_free, gw_world_rank, gw_world_size, gw_world_node, gw_world_node_count, &
            gw_world_node_rank, gw_world_node_size, gw_world_comm, gw_world_barrier, gw_world_progress, &
            gw_world_thread_level
  public :: gw_allreduce, gw_allreduce_start, gw_reduction_wait, gw_topo_cart_comm
  public :: gw_segment_create, gw_segment_free, gw_segment_size, gw_segment_allocate, gw_segment_array
  public :: gw_write_notify, gw_notify, gw_notify_test, gw_notify_wait, gw_notify_waitsome, gw_notify_reset
  public :: gw_plan_create, gw_plan_free, gw_plan_add_memory, gw_plan_add_box, gw_plan_add_section, gw_plan_add_indices, &
            gw_plan_commit, gw_plan_send, gw_plan_test_recv, gw_plan_wait_recv, gw_plan_test_send, &
            gw_plan_wait_send, gw_plan_exchange, gw_plan_start, gw_plan_finish, gw_plan_describe, &
            gw_plan_unstructured, gw_plan_partition, gw_plan_pready, gw_plan_parrived, gw_plan_exchange_share, &
            gw_plan_wait_send_partition, gw_plan_enable_reverse, gw_plan_reverse_exchange, gw_plan_reverse_start, &
            gw_plan_reverse_finish, gw_plan_aggregate, gw_plan_rebind
  public :: gw_grid_create, gw_grid_free, gw_grid_info, gw_grid_describe, gw_update_halo, gw_update_halo_start, &
            gw_halo_wait, gw_halo_update_create, gw_halo_update_free, gw_halo_update_run, gw_halo_update_start, &
            gw_halo_update_describe, gw_update_halo_shared, gw_halo_update_run_shared, gw_reverse_halo, &
            gw_halo_update_reverse_run, gw_halo_update_reverse_start

  interface gw_world_init
    module procedure world_init_integer
#ifdef GHOSTWIRE_HAVE_MPI_F08
    module procedure world_init_f08
#endif
  end interface
  interface gw_topo_cart_comm
    module procedure topo_cart_comm_integer
#ifdef GHOSTWIRE_HAVE_MPI_F08
    module procedure topo_cart_comm_f08
#endif
  end interface
  interface gw_allreduce
    module procedure allreduce_array, allreduce_scalar
  end interface
  interface gw_plan_add_indices
    module procedure plan_add_indices, plan_add_cells
  end interface
  interface gw_plan_partition
    module procedure plan_partition_count, plan_partition_elements
  end interface
#include "ghostwire_typed_interfaces.inc"

  ! The C API. The functions that share a shape are expanded from the files in c_shapes by CMake
  ! (bindings/fortran/CMakeLists.txt lists them).
  interface
#include "ghostwire_c_functions.inc"
    function c_strlen(text) bind(c, name='strlen')
      import :: c_ptr, c_size_t
      type(c_ptr), value :: text
      integer(c_size_t) :: c_strlen
    end function
    function c_last_error_message() bind(c, name='gw_last_error_message')
      import :: c_ptr
      type(c_ptr) :: c_last_error_message
    end function
    integer(c_int) function c_report_error(code, message) bind(c, name='gw_report_error')
      import :: c_int, c_char
      integer(c_int), value :: code
      character(kind=c_char), intent(in) :: message(*)
    end function
    integer(c_int) function c_plan_partition(plan, direction, channel, neighbour, count, elements) &
        bind(c, name='gw_plan_partition')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: plan, elements
      integer(c_int), value :: direction, neighbour
      integer(c_size_t), value :: channel, count
    end function
    integer(c_int) function c_plan_pready(plan, channel, neighbour, partition) bind(c, name='gw_plan_pready')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: plan
      integer(c_size_t), value :: channel, partition
      integer(c_int), value :: neighbour
    end function
    integer(c_int) function c_plan_wait_send_partition(plan, channel, neighbour, partition) &
        bind(c, name='gw_plan_wait_send_partition')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: plan
      integer(c_size_t), value :: channel, partition
      integer(c_int), value :: neighbour
    end function
    integer(c_int) function c_plan_parrived(plan, channel, neighbour, partition, arrived) &
        bind(c, name='gw_plan_parrived')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: plan
      integer(c_size_t), value :: channel, partition
      integer(c_int), value :: neighbour
      integer(c_int), intent(out) :: arrived
    end function
    integer(c_int) function c_world_create_fortran(comm, world) bind(c, name='gw_world_create_fortran')
      import :: c_int, c_ptr
      integer(c_int), value :: comm
      type(c_ptr), intent(out) :: world
    end function
    integer(c_int) function c_allreduce_double(world, values, count, op) bind(c, name='gw_allreduce_double')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: world, values
      integer(c_size_t), value :: count
      integer(c_int), value :: op
    end function
    integer(c_int) function c_allreduce_double_start(world, values, count, op, reduction) &
        bind(c, name='gw_allreduce_double_start')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: world, values
      integer(c_size_t), value :: count
      integer(c_int), value :: op
      type(c_ptr), intent(out) :: reduction
    end function
    integer(c_int) function c_segment_create(world, bytes, notifications, segment) bind(c, name='gw_segment_create')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: world
      integer(c_size_t), value :: bytes, notifications
      type(c_ptr), intent(out) :: segment
    end function
    integer(c_int) function c_segment_peer_data(segment, rank, data) bind(c, name='gw_segment_peer_data')
      import :: c_int, c_ptr
      type(c_ptr), value :: segment
      integer(c_int), value :: rank
      type(c_ptr), intent(out) :: data
    end function
    integer(c_int) function c_segment_size_of(segment, rank, bytes) bind(c, name='gw_segment_size_of')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: segment
      integer(c_int), value :: rank
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function c_write_notify_from(source, target, destination, offset, bytes, id, value) &
        bind(c, name='gw_write_notify_from')
      import :: c_int, c_ptr, c_size_t, c_int32_t
      type(c_ptr), value :: source, destination
      integer(c_int), value :: target
      integer(c_size_t), value :: offset, bytes
      integer(c_int32_t), value :: id, value
    end function
    integer(c_int) function c_notify(target, destination, id, value) bind(c, name='gw_notify')
      import :: c_int, c_ptr, c_int32_t
      integer(c_int), value :: target
      type(c_ptr), value :: destination
      integer(c_int32_t), value :: id, value
    end function
    integer(c_int) function c_notify_waitsome(segment, first, count, id, value) bind(c, name='gw_notify_waitsome')
      import :: c_int, c_ptr, c_int32_t, c_size_t
      type(c_ptr), value :: segment
      integer(c_int32_t), value :: first
      integer(c_size_t), value :: count
      integer(c_int32_t), intent(out) :: id, value
    end function
    integer(c_int) function c_plan_create(world, neighbours, count, channels, plan) bind(c, name='gw_plan_create')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: world
      integer(c_int), intent(in) :: neighbours(*)
      integer(c_int), value :: count
      integer(c_size_t), value :: channels
      type(c_ptr), intent(out) :: plan
    end function
    integer(c_int) function c_plan_add_private_memory(plan, base, bytes, element, region) &
        bind(c, name='gw_plan_add_private_memory')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: plan, base
      integer(c_size_t), value :: bytes, element
      integer(c_int), intent(out) :: region
    end function
    integer(c_int) function c_plan_rebind(plan, region, base) bind(c, name='gw_plan_rebind')
      import :: c_int, c_ptr
      type(c_ptr), value :: plan, base
      integer(c_int), value :: region
    end function
    integer(c_int) function c_plan_add_box(plan, direction, channel, neighbour, region, start, dimensions, extents, &
                                           strides) bind(c, name='gw_plan_add_box')
      import :: c_int, c_ptr, c_size_t, c_ptrdiff_t
      type(c_ptr), value :: plan
      integer(c_int), value :: direction, neighbour, region, dimensions
      integer(c_size_t), value :: channel, start
      integer(c_size_t), intent(in) :: extents(*)
      integer(c_ptrdiff_t), intent(in) :: strides(*)
    end function
    integer(c_int) function c_plan_add_indices(plan, direction, channel, neighbour, region, count, indices) &
        bind(c, name='gw_plan_add_indices')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: plan
      integer(c_int), value :: direction, neighbour, region
      integer(c_size_t), value :: channel, count
      integer(c_size_t), intent(in) :: indices(*)
    end function
    integer(c_int) function c_plan_create_unstructured(world, owned, offset, owned_count, ghosts, ghost_count, owners, &
                                                       indices, element, plan) bind(c, name='gw_plan_create_unstructured')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: world, owned, ghosts
      integer(c_size_t), value :: offset, owned_count, ghost_count, element
      integer(c_int), intent(in) :: owners(*)
      integer(c_size_t), intent(in) :: indices(*)
      type(c_ptr), intent(out) :: plan
    end function
    integer(c_int) function c_plan_create_unstructured_aggregate(world, owned, offset, owned_count, ghosts, &
                                                                 ghost_count, owners, indices, element, mode, plan) &
        bind(c, name='gw_plan_create_unstructured_aggregate')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: world, owned, ghosts
      integer(c_size_t), value :: offset, owned_count, ghost_count, element
      integer(c_int), intent(in) :: owners(*)
      integer(c_size_t), intent(in) :: indices(*)
      integer(c_int), value :: mode
      type(c_ptr), intent(out) :: plan
    end function
    integer(c_int) function c_grid_create(world, type, dimensions, extents, process_grid, widths, periodic, stencil, &
                                          grid) bind(c, name='gw_grid_create')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: world, process_grid
      integer(c_int), value :: type, dimensions, stencil
      integer(c_int64_t), intent(in) :: extents(*), widths(*)
      integer(c_int), intent(in) :: periodic(*)
      type(c_ptr), intent(out) :: grid
    end function
    integer(c_int) function c_grid_process_grid(grid, ranks) bind(c, name='gw_grid_process_grid')
      import :: c_int, c_ptr
      type(c_ptr), value :: grid
      integer(c_int), intent(out) :: ranks(*)
    end function
    integer(c_int) function c_halo_update_reverse_start(update, op, handle) bind(c, name='gw_halo_update_reverse_start')
      import :: c_int, c_ptr
      type(c_ptr), value :: update
      integer(c_int), value :: op
      type(c_ptr) :: handle
    end function
    integer(c_int) function c_grid_update_halo_start(grid, handle) bind(c, name='gw_grid_update_halo_start')
      import :: c_int, c_ptr
      type(c_ptr), value :: grid
      type(c_ptr), intent(out) :: handle
    end function
    integer(c_int) function c_halo_update_create(grids, count, low, high, messages, update) &
        bind(c, name='gw_halo_update_create')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(in) :: grids(*)
      integer(c_size_t), value :: count
      type(c_ptr), value :: low, high
      integer(c_int), value :: messages
      type(c_ptr), intent(out) :: update
    end function
    integer(c_int) function c_topo_cart_comm(comm, dimensions, extents, periodic, local, element, method, reordered, &
                                             position) bind(c, name='gw_topo_cart_comm_fortran')
      import :: c_int, c_char
      integer(c_int), value :: comm, dimensions, element
      integer(c_int), intent(in) :: extents(*), periodic(*), local(*)
      character(kind=c_char), intent(in) :: method(*)
      integer(c_int), intent(out) :: reordered, position
    end function
    integer(c_int) function c_halo_update_start(update, handle) bind(c, name='gw_halo_update_start')
      import :: c_int, c_ptr
      type(c_ptr), value :: update
      type(c_ptr), intent(out) :: handle
    end function
    integer(c_int) function c_halo_update_start_grid(update, grid, handle) bind(c, name='gw_halo_update_start_grid')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: update
      integer(c_size_t), value :: grid
      type(c_ptr), intent(out) :: handle
    end function
  end interface

contains

  ! ---- errors

  ! The message of the last failed call on this thread ('' if none).
  function gw_error_message() result(message)
    character(len=:), allocatable :: message
    message = c_string(c_last_error_message())
  end function

  function c_string(text) result(string)
    type(c_ptr), intent(in) :: text
    character(len=:), allocatable :: string
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    n = int(c_strlen(text))
    allocate(character(len=n) :: string)
    call c_f_pointer(text, chars, [n])
    do i = 1, n
      string(i:i) = chars(i)
    end do
  end function

  ! Hands `code` to the caller's ierr, or stops the program with the message when there is none.
  subroutine check(code, ierr)
    integer(c_int), intent(in) :: code
    integer, intent(out), optional :: ierr
    if (present(ierr)) then
      ierr = code
    else if (code /= GW_SUCCESS) then
      error stop 'ghostwire: ' // gw_error_message()
    end if
  end subroutine

  ! A misuse found on the Fortran side: recorded as the library's last error, then as check().
  subroutine fail(code, message, ierr)
    integer, intent(in) :: code
    character(len=*), intent(in) :: message
    integer, intent(out), optional :: ierr
    call check(c_report_error(int(code, c_int), message // c_null_char), ierr)
  end subroutine

  logical function rank_ok(call, argument, given, expected, ierr)
    character(len=*), intent(in) :: call, argument
    integer, intent(in) :: given, expected
    integer, intent(out), optional :: ierr
    rank_ok = given == expected
    if (.not. rank_ok) call fail(GW_ERR_INVALID_ARGUMENT, call // ': ' // argument // ' has ' // itoa(given) // &
                                 ' value(s); expected ' // itoa(expected) // ' (one per dimension)', ierr)
  end function

  logical function contiguous_ok(call, argument, contiguous, ierr)
    character(len=*), intent(in) :: call, argument
    logical, intent(in) :: contiguous
    integer, intent(out), optional :: ierr
    contiguous_ok = contiguous
    if (.not. contiguous) call fail(GW_ERR_INVALID_ARGUMENT, call // ': ' // argument // &
                                    ' is not contiguous; pass a whole array or a contiguous section', ierr)
    if (contiguous .and. present(ierr)) ierr = GW_SUCCESS
  end function

  function itoa(value) result(text)
    integer, intent(in) :: value
    character(len=:), allocatable :: text
    character(len=24) :: buffer
    write(buffer, '(i0)') value
    text = trim(buffer)
  end function

  ! check(code, ierr), then whether the call succeeded.
  logical function succeeded(code, ierr)
    integer(c_int), intent(in) :: code
    integer, intent(out), optional :: ierr
    succeeded = code == GW_SUCCESS
    call check(code, ierr)
  end function

  ! ---- world

  ! A world over `comm` (an integer handle of the mpi module or mpif.h; MPI must be initialised).
  subroutine world_init_integer(world, comm, ierr)
    type(gw_world), intent(out) :: world
    integer, intent(in) :: comm
    integer, intent(out), optional :: ierr
    call check(c_world_create_fortran(int(comm, c_int), world%ptr), ierr)
  end subroutine

#ifdef GHOSTWIRE_HAVE_MPI_F08
  ! The same from mpi_f08's type(MPI_Comm).
  subroutine world_init_f08(world, comm, ierr)
    type(gw_world), intent(out) :: world
    type(MPI_Comm), intent(in) :: comm
    integer, intent(out), optional :: ierr
    call check(c_world_create_fortran(int(comm%MPI_VAL, c_int), world%ptr), ierr)
  end subroutine
#endif

  ! Frees the world (collective; MPI stays initialised when the program initialised it).
  subroutine gw_world_free(world, ierr)
    type(gw_world), intent(inout) :: world
    integer, intent(out), optional :: ierr
    call check(c_world_destroy(world%ptr), ierr)
  end subroutine

  subroutine gw_world_rank(world, rank, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out) :: rank
    integer, intent(out), optional :: ierr
    call check(c_world_rank(world%ptr, rank), ierr)
  end subroutine
  subroutine gw_world_size(world, size, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out) :: size
    integer, intent(out), optional :: ierr
    call check(c_world_size(world%ptr, size), ierr)
  end subroutine
  ! This rank's node (0-based) and the number of nodes.
  subroutine gw_world_node(world, node, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out) :: node
    integer, intent(out), optional :: ierr
    call check(c_world_node(world%ptr, node), ierr)
  end subroutine
  subroutine gw_world_node_count(world, count, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out) :: count
    integer, intent(out), optional :: ierr
    call check(c_world_node_count(world%ptr, count), ierr)
  end subroutine
  ! This rank's place among its node's ranks (0-based) and their number.
  subroutine gw_world_node_rank(world, node_rank, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out) :: node_rank
    integer, intent(out), optional :: ierr
    call check(c_world_node_rank(world%ptr, node_rank), ierr)
  end subroutine
  subroutine gw_world_node_size(world, node_size, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out) :: node_size
    integer, intent(out), optional :: ierr
    call check(c_world_node_size(world%ptr, node_size), ierr)
  end subroutine
  ! The world's communicator as an integer handle (mpi_f08: type(MPI_Comm) :: c; c%MPI_VAL = comm).
  subroutine gw_world_comm(world, comm, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out) :: comm
    integer, intent(out), optional :: ierr
    call check(c_world_comm_fortran(world%ptr, comm), ierr)
  end subroutine
  subroutine gw_world_barrier(world, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out), optional :: ierr
    call check(c_world_barrier(world%ptr), ierr)
  end subroutine
  subroutine gw_world_progress(world, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out), optional :: ierr
    call check(c_world_progress(world%ptr), ierr)
  end subroutine

  ! ---- topology placement (docs/topology.md)

  ! A communicator `reordered` (free it with MPI_Comm_free) whose rank p computes position p of a
  ! process grid of `processes` (Fortran order, as gw_grid_create's `processes`) placed close in the
  ! machine: neighbouring blocks of `local` cells (of `element_bytes`, default 8) share the deepest
  ! level. method: 'hierarchical' (default), 'rank_order', 'dims_blocking', 'study', 'scotch'.
  ! Collective over comm. Then gw_world_init(world, reordered) and gw_grid_create(..., processes=...).
  subroutine topo_cart_comm_integer(comm, processes, local, reordered, periodic, method, element_bytes, position, ierr)
    integer, intent(in) :: comm
    integer, intent(in) :: processes(:), local(:)
    integer, intent(out) :: reordered
    logical, intent(in), optional :: periodic(:)
    character(len=*), intent(in), optional :: method
    integer, intent(in), optional :: element_bytes
    integer, intent(out), optional :: position, ierr
    integer(c_int) :: flags(size(processes)), bytes, mine
    integer :: n
    n = size(processes)
    reordered = -1
    if (.not. rank_ok('gw_topo_cart_comm', 'local', size(local), n, ierr)) return
    flags = 0
    if (present(periodic)) then
      if (.not. rank_ok('gw_topo_cart_comm', 'periodic', size(periodic), n, ierr)) return
      flags = merge(1, 0, periodic(n:1:-1))
    end if
    bytes = 8
    if (present(element_bytes)) bytes = int(element_bytes, c_int)
    call check(c_topo_cart_comm(int(comm, c_int), int(n, c_int), int(processes(n:1:-1), c_int), flags, &
                                int(local(n:1:-1), c_int), bytes, method_name(method), reordered, mine), ierr)
    if (present(position)) position = mine
  end subroutine

  function method_name(method) result(name)
    character(len=*), intent(in), optional :: method
    character(len=:, kind=c_char), allocatable :: name
    name = 'hierarchical' // c_null_char
    if (present(method)) name = trim(method) // c_null_char
  end function

#ifdef GHOSTWIRE_HAVE_MPI_F08
  ! The same with mpi_f08's type(MPI_Comm).
  subroutine topo_cart_comm_f08(comm, processes, local, reordered, periodic, method, element_bytes, position, ierr)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: processes(:), local(:)
    type(MPI_Comm), intent(out) :: reordered
    logical, intent(in), optional :: periodic(:)
    character(len=*), intent(in), optional :: method
    integer, intent(in), optional :: element_bytes
    integer, intent(out), optional :: position, ierr
    call topo_cart_comm_integer(comm%MPI_VAL, processes, local, reordered%MPI_VAL, periodic, method, element_bytes, &
                                position, ierr)
  end subroutine
#endif

  ! ---- allreduce (real(8), in place; the same bits on every rank)

  subroutine allreduce_array(world, values, op, ierr)
    type(gw_world), intent(in) :: world
    real(c_double), intent(inout), contiguous, target :: values(:)
    integer, intent(in) :: op
    integer, intent(out), optional :: ierr
    call check(c_allreduce_double(world%ptr, first_of(values), size(values, kind=c_size_t), int(op, c_int)), ierr)
  end subroutine
  subroutine allreduce_scalar(world, value, op, ierr)
    type(gw_world), intent(in) :: world
    real(c_double), intent(inout), target :: value
    integer, intent(in) :: op
    integer, intent(out), optional :: ierr
    call check(c_allreduce_double(world%ptr, c_loc(value), 1_c_size_t, int(op, c_int)), ierr)
  end subroutine

  ! The split form: `values` (contiguous, kept alive and untouched) holds the result after
  ! gw_reduction_wait. One reduction per world at a time.
  subroutine gw_allreduce_start(world, values, op, reduction, ierr)
    type(gw_world), intent(in) :: world
    real(c_double), intent(inout), target, asynchronous :: values(:)
    integer, intent(in) :: op
    type(gw_reduction), intent(out) :: reduction
    integer, intent(out), optional :: ierr
    type(c_ptr) :: base
    if (.not. contiguous_ok('gw_allreduce_start', 'values', is_contiguous(values), ierr)) return
    base = c_null_ptr
    if (size(values) > 0) base = c_loc(values)
    call check(c_allreduce_double_start(world%ptr, base, size(values, kind=c_size_t), int(op, c_int), reduction%ptr), ierr)
  end subroutine
  subroutine gw_reduction_wait(reduction, ierr)
    type(gw_reduction), intent(inout) :: reduction
    integer, intent(out), optional :: ierr
    call check(c_reduction_wait(reduction%ptr), ierr)
  end subroutine

  function first_of(values) result(base)
    real(c_double), intent(in), contiguous, target :: values(:)
    type(c_ptr) :: base
    base = c_null_ptr
    if (size(values) > 0) base = c_loc(values)
  end function

  ! ---- segments

  ! A Segment of `bytes` bytes on every rank (collective), with `notifications` notification ids
  ! (default 0). gw_segment_array views it as arrays.
  subroutine gw_segment_create(segment, world, bytes, notifications, ierr)
    type(gw_segment), intent(out) :: segment
    type(gw_world), intent(in) :: world
    integer(c_int64_t), intent(in) :: bytes
    integer, intent(in), optional :: notifications
    integer, intent(out), optional :: ierr
    integer(c_size_t) :: count
    count = 0
    if (present(notifications)) count = int(notifications, c_size_t)
    call check(c_segment_create(world%ptr, int(bytes, c_size_t), count, segment%ptr), ierr)
  end subroutine
  subroutine gw_segment_free(segment, ierr)
    type(gw_segment), intent(inout) :: segment
    integer, intent(out), optional :: ierr
    call check(c_segment_destroy(segment%ptr), ierr)
  end subroutine
  ! Bytes of this rank's segment, or of rank `rank`'s.
  subroutine gw_segment_size(segment, bytes, rank, ierr)
    type(gw_segment), intent(in) :: segment
    integer(c_int64_t), intent(out) :: bytes
    integer, intent(in), optional :: rank
    integer, intent(out), optional :: ierr
    integer(c_size_t) :: size
    integer(c_int) :: code
    code = segment_bytes(segment, rank, size)
    bytes = int(size, c_int64_t)
    call check(code, ierr)
  end subroutine

  ! Bytes of this rank's segment or of rank `rank`'s.
  integer(c_int) function segment_bytes(segment, rank, bytes)
    type(gw_segment), intent(in) :: segment
    integer, intent(in), optional :: rank
    integer(c_size_t), intent(out) :: bytes
    interface
      integer(c_int) function c_segment_size(segment, bytes) bind(c, name='gw_segment_size')
        import :: c_int, c_ptr, c_size_t
        type(c_ptr), value :: segment
        integer(c_size_t), intent(out) :: bytes
      end function
    end interface
    bytes = 0
    if (present(rank)) then
      segment_bytes = c_segment_size_of(segment%ptr, int(rank, c_int), bytes)
    else
      segment_bytes = c_segment_size(segment%ptr, bytes)
    end if
  end function

  ! Where the view of gw_segment_array starts (c_null_ptr: a peer on another node), checked against
  ! the segment's size; lo gets the lower bounds.
  logical function segment_view(call, segment, shape, lower, rank, offset, element, dims, base, lo, ierr)
    character(len=*), intent(in) :: call
    type(gw_segment), intent(in) :: segment
    integer, intent(in) :: shape(:)
    integer, intent(in), optional :: lower(:), rank, offset
    integer(c_size_t), intent(in) :: element
    integer, intent(in) :: dims
    type(c_ptr), intent(out) :: base
    integer, intent(out) :: lo(dims)
    integer, intent(out), optional :: ierr
    integer(c_size_t) :: bytes, first
    integer(c_int) :: code
    segment_view = .false.
    base = c_null_ptr
    if (.not. rank_ok(call, 'shape', size(shape), dims, ierr)) return
    lo = 1
    if (present(lower)) then
      if (.not. rank_ok(call, 'lower', size(lower), dims, ierr)) return
      lo = lower
    end if
    if (any(shape < 0)) then
      call fail(GW_ERR_INVALID_ARGUMENT, call // ': shape has a negative extent', ierr)
      return
    end if
    first = 0
    if (present(offset)) first = int(offset, c_size_t) * element
    code = segment_bytes(segment, rank, bytes)
    if (.not. succeeded(code, ierr)) return
    if (first + product(int(shape, c_size_t)) * element > bytes) then
      call fail(GW_ERR_OUT_OF_RANGE, call // ': shape and offset need ' // &
                itoa(int(first + product(int(shape, c_size_t)) * element)) // ' bytes but the segment has ' // &
                itoa(int(bytes)), ierr)
      return
    end if
    if (present(rank)) then
      code = c_segment_peer_data(segment%ptr, int(rank, c_int), base)
    else
      code = c_segment_data(segment%ptr, base)
    end if
    if (.not. succeeded(code, ierr)) return
    if (c_associated(base)) base = transfer(transfer(base, 0_c_intptr_t) + int(first, c_intptr_t), base)
    segment_view = .true.
  end function

  ! ---- notified writes

  subroutine write_notify_from(base, count, element, target, segment, offset, id, value, ierr)
    type(c_ptr), intent(in) :: base
    integer(c_size_t), intent(in) :: count, element
    integer, intent(in) :: target, offset, id, value
    type(gw_segment), intent(in) :: segment
    integer, intent(out), optional :: ierr
    call check(c_write_notify_from(base, int(target, c_int), segment%ptr, int(offset, c_size_t) * element, &
                                   count * element, int(id, c_int32_t), int(value, c_int32_t)), ierr)
  end subroutine
  ! Sets notification `id` of rank `target`'s `segment` to `value` (nonzero), without data.
  subroutine gw_notify(target, segment, id, value, ierr)
    integer, intent(in) :: target, id, value
    type(gw_segment), intent(in) :: segment
    integer, intent(out), optional :: ierr
    call check(c_notify(int(target, c_int), segment%ptr, int(id, c_int32_t), int(value, c_int32_t)), ierr)
  end subroutine
  ! The value of notification `id`, reset to 0; value = 0 when it is not set.
  subroutine gw_notify_test(segment, id, value, ierr)
    type(gw_segment), intent(in) :: segment
    integer, intent(in) :: id
    integer, intent(out) :: value
    integer, intent(out), optional :: ierr
    call check(c_notify_test(segment%ptr, int(id, c_int32_t), value), ierr)
  end subroutine
  ! Waits until notification `id` is set: its value, reset to 0.
  subroutine gw_notify_wait(segment, id, value, ierr)
    type(gw_segment), intent(in) :: segment
    integer, intent(in) :: id
    integer, intent(out) :: value
    integer, intent(out), optional :: ierr
    call check(c_notify_wait(segment%ptr, int(id, c_int32_t), value), ierr)
  end subroutine
  ! Waits for any of notifications first .. first+count-1: its id and value (reset to 0).
  subroutine gw_notify_waitsome(segment, first, count, id, value, ierr)
    type(gw_segment), intent(in) :: segment
    integer, intent(in) :: first, count
    integer, intent(out) :: id, value
    integer, intent(out), optional :: ierr
    call check(c_notify_waitsome(segment%ptr, int(first, c_int32_t), int(count, c_size_t), id, value), ierr)
  end subroutine
  ! Clears notification `id`; old_value gets what it held.
  subroutine gw_notify_reset(segment, id, old_value, ierr)
    type(gw_segment), intent(in) :: segment
    integer, intent(in) :: id
    integer, intent(out) :: old_value
    integer, intent(out), optional :: ierr
    call check(c_notify_reset(segment%ptr, int(id, c_int32_t), old_value), ierr)
  end subroutine

  ! ---- plans

  ! A plan with these neighbours (ranks; symmetric) and `channels` message slots per neighbour.
  subroutine gw_plan_create(plan, world, neighbours, channels, ierr)
    type(gw_plan), intent(out) :: plan
    type(gw_world), intent(in) :: world
    integer, intent(in) :: neighbours(:), channels
    integer, intent(out), optional :: ierr
    integer(c_int) :: list(max(1, size(neighbours)))
    list = 0
    list(1:size(neighbours)) = neighbours
    call check(c_plan_create(world%ptr, list, int(size(neighbours), c_int), int(channels, c_size_t), plan%ptr), ierr)
  end subroutine
  ! Frees the plan (collective once committed).
  subroutine gw_plan_free(plan, ierr)
    type(gw_plan), intent(inout) :: plan
    integer, intent(out), optional :: ierr
    call check(c_plan_destroy(plan%ptr), ierr)
  end subroutine

  subroutine add_memory(plan, base, extents, element, lower, region, ierr)
    type(gw_plan), intent(in) :: plan
    type(c_ptr), intent(in) :: base
    integer, intent(in) :: extents(:)
    integer(c_size_t), intent(in) :: element
    integer, intent(in), optional :: lower(:)
    type(gw_region), intent(out) :: region
    integer, intent(out), optional :: ierr
    integer :: dims
    dims = size(extents)
    region%rank = dims
    region%extent(1:dims) = extents
    region%base = address_of(base)
    region%element = element
    if (present(lower)) then
      if (.not. rank_ok('gw_plan_add_memory', 'lower', size(lower), dims, ierr)) return
      region%lower(1:dims) = lower
    end if
    call check(c_plan_add_private_memory(plan%ptr, base, product(int(extents, c_size_t)) * element, element, &
                                         region%id), ierr)
  end subroutine

  ! The region's array is `base` from now on (gw_plan_rebind's typed procedures check its shape).
  subroutine rebind(plan, region, base, extents, element, ierr)
    type(gw_plan), intent(in) :: plan
    type(gw_region), intent(inout) :: region
    type(c_ptr), intent(in) :: base
    integer, intent(in) :: extents(:)
    integer(c_size_t), intent(in) :: element
    integer, intent(out), optional :: ierr
    integer :: code
    if (size(extents) /= region%rank .or. element /= region%element .or. &
        any(int(extents, c_int64_t) /= region%extent(1:min(size(extents), 3)))) then
      call fail(GW_ERR_INVALID_ARGUMENT, 'gw_plan_rebind: the array''s shape or kind differs from the region''s', ierr)
      return
    end if
    code = c_plan_rebind(plan%ptr, region%id, base)
    if (code == GW_SUCCESS) region%base = address_of(base)
    call check(code, ierr)
  end subroutine

  ! Appends the box array(lower(1):upper(1), ..., lower(r):upper(r)) of the region's array to the send
  ! (GW_SEND) or receive (GW_RECEIVE) message of (channel, neighbour), in array element order (the
  ! first index fastest). Both sides must give the same number of elements.
  subroutine gw_plan_add_box(plan, direction, channel, neighbour, region, lower, upper, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: direction, channel, neighbour
    type(gw_region), intent(in) :: region
    integer, intent(in) :: lower(:), upper(:)
    integer, intent(out), optional :: ierr
    integer(c_size_t) :: extents(3), start
    integer(c_ptrdiff_t) :: strides(3)
    integer :: d, r
    r = region%rank
    if (.not. rank_ok('gw_plan_add_box', 'lower', size(lower), r, ierr)) return
    if (.not. rank_ok('gw_plan_add_box', 'upper', size(upper), r, ierr)) return
    do d = 1, r
      if (lower(d) < region%lower(d) .or. upper(d) > region%lower(d) + region%extent(d) - 1 .or. &
          upper(d) < lower(d) - 1) then
        call fail(GW_ERR_OUT_OF_RANGE, 'gw_plan_add_box: lower:upper = ' // itoa(lower(d)) // ':' // itoa(upper(d)) // &
                  ' in dimension ' // itoa(d) // ' is outside the array''s bounds ' // itoa(int(region%lower(d))) // &
                  ':' // itoa(int(region%lower(d) + region%extent(d) - 1)), ierr)
        return
      end if
    end do
    start = 0
    do d = r, 1, -1
      strides(d) = int(product(region%extent(1:d - 1)), c_ptrdiff_t)
      extents(d) = int(upper(d) - lower(d) + 1, c_size_t)
      start = start + int(lower(d) - region%lower(d), c_size_t) * int(strides(d), c_size_t)
    end do
    call check(c_plan_add_box(plan%ptr, int(direction, c_int), int(channel, c_size_t), int(neighbour, c_int), &
                              region%id, start, int(r, c_int), extents, strides), ierr)
  end subroutine

  ! The box that a section of the region's array occupies, from the section's own addresses: its
  ! first element and the distance in bytes between neighbours in each dimension (step), its
  ! extents. Checked against the region's memory and element size, then appended as
  ! gw_plan_add_box appends a box.
  subroutine add_section_box(plan, direction, channel, neighbour, region, first, step, extents, element, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: direction, channel, neighbour
    type(gw_region), intent(in) :: region
    integer(c_intptr_t), intent(in) :: first, step(:)
    integer, intent(in) :: extents(:)
    integer(c_size_t), intent(in) :: element
    integer, intent(out), optional :: ierr
    integer(c_size_t) :: box_extents(3), start
    integer(c_ptrdiff_t) :: box_strides(3)
    integer(c_intptr_t) :: low, high, bytes, size_of
    integer :: d, dims
    if (element /= region%element) then
      call fail(GW_ERR_INVALID_ARGUMENT, 'gw_plan_add_section: the section''s elements have ' // itoa(int(element)) // &
                ' bytes, the region''s array''s ' // itoa(int(region%element)) // &
                ' (a section of another array, or a region not from gw_plan_add_memory?)', ierr)
      return
    end if
    dims = size(extents)
    box_extents = 1
    box_strides = 1
    start = 0
    if (all(extents > 0)) then
      size_of = int(element, c_intptr_t)
      low = first
      high = first
      do d = 1, dims
        if (step(d) < 0) low = low + (extents(d) - 1) * step(d)
        if (step(d) > 0) high = high + (extents(d) - 1) * step(d)
      end do
      bytes = product(region%extent(1:region%rank)) * size_of
      if (low < region%base .or. high + size_of > region%base + bytes) then
        call fail(GW_ERR_OUT_OF_RANGE, 'gw_plan_add_section: the section lies outside the region''s array ' // &
                  '(a section of another array?)', ierr)
        return
      end if
      if (modulo(first - region%base, size_of) /= 0 .or. any(modulo(step, size_of) /= 0)) then
        call fail(GW_ERR_INVALID_ARGUMENT, 'gw_plan_add_section: the section does not fall on the region''s ' // &
                  'elements', ierr)
        return
      end if
      start = int((first - region%base) / size_of, c_size_t)
      do d = 1, dims
        if (extents(d) > 1) box_strides(d) = int(step(d) / size_of, c_ptrdiff_t)
      end do
    end if
    box_extents(1:dims) = int(extents, c_size_t)
    call check(c_plan_add_box(plan%ptr, int(direction, c_int), int(channel, c_size_t), int(neighbour, c_int), &
                              region%id, start, int(dims, c_int), box_extents, box_strides), ierr)
  end subroutine

  integer(c_intptr_t) function address_of(pointer)
    type(c_ptr), intent(in) :: pointer
    address_of = transfer(pointer, 0_c_intptr_t)
  end function

  ! Appends the elements at these positions of the region's array (1-based, array element order:
  ! for a rank-1 array with lower bound 1, its indices).
  subroutine plan_add_indices(plan, direction, channel, neighbour, region, indices, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: direction, channel, neighbour
    type(gw_region), intent(in) :: region
    integer, intent(in) :: indices(:)
    integer, intent(out), optional :: ierr
    integer(c_size_t) :: list(max(1, size(indices)))
    integer :: bad(1)
    if (size(indices) > 0) then
      bad = maxloc(merge(1, 0, indices < 1 .or. indices > product(region%extent(1:region%rank))))
      if (indices(bad(1)) < 1 .or. indices(bad(1)) > product(region%extent(1:region%rank))) then
        call fail(GW_ERR_OUT_OF_RANGE, 'gw_plan_add_indices: indices(' // itoa(bad(1)) // ') = ' // &
                  itoa(indices(bad(1))) // ' is outside the array''s 1:' // &
                  itoa(int(product(region%extent(1:region%rank)))), ierr)
        return
      end if
    end if
    list = 0
    list(1:size(indices)) = int(indices - 1, c_size_t)
    call check(c_plan_add_indices(plan%ptr, int(direction, c_int), int(channel, c_size_t), int(neighbour, c_int), &
                                  region%id, size(indices, kind=c_size_t), list), ierr)
  end subroutine

  ! The same by subscripts: cells(:, n) is the n-th element's index in each dimension of the array.
  subroutine plan_add_cells(plan, direction, channel, neighbour, region, cells, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: direction, channel, neighbour
    type(gw_region), intent(in) :: region
    integer, intent(in) :: cells(:, :)
    integer, intent(out), optional :: ierr
    integer :: positions(size(cells, 2)), n, d, stride
    if (.not. rank_ok('gw_plan_add_indices', 'cells(:, n)', size(cells, 1), region%rank, ierr)) return
    do n = 1, size(cells, 2)
      positions(n) = 1
      stride = 1
      do d = 1, region%rank
        if (cells(d, n) < region%lower(d) .or. cells(d, n) >= region%lower(d) + region%extent(d)) then
          call fail(GW_ERR_OUT_OF_RANGE, 'gw_plan_add_indices: cells(' // itoa(d) // ', ' // itoa(n) // ') = ' // &
                    itoa(cells(d, n)) // ' is outside the array''s bounds ' // itoa(int(region%lower(d))) // ':' // &
                    itoa(int(region%lower(d) + region%extent(d) - 1)), ierr)
          return
        end if
        positions(n) = positions(n) + (cells(d, n) - int(region%lower(d))) * stride
        stride = stride * int(region%extent(d))
      end do
    end do
    call plan_add_indices(plan, direction, channel, neighbour, region, positions, ierr)
  end subroutine

  ! Before commit, on both sides: the message of (channel, neighbour) in `direction` (GW_SEND or
  ! GW_RECEIVE) cut into `count` partitions as equal as can be, or into partitions of elements(i)
  ! elements each, in message order.
  subroutine plan_partition_count(plan, direction, channel, neighbour, count, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: direction, channel, neighbour, count
    integer, intent(out), optional :: ierr
    call check(c_plan_partition(plan%ptr, int(direction, c_int), int(channel, c_size_t), int(neighbour, c_int), &
                                int(count, c_size_t), c_null_ptr), ierr)
  end subroutine
  subroutine plan_partition_elements(plan, direction, channel, neighbour, elements, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: direction, channel, neighbour
    integer, intent(in) :: elements(:)
    integer, intent(out), optional :: ierr
    integer(c_size_t), allocatable, target :: counts(:)
    if (any(elements < 0)) then
      call fail(GW_ERR_INVALID_ARGUMENT, "gw_plan_partition: a negative element count", ierr)
      return
    end if
    counts = int(elements, c_size_t)
    call check(c_plan_partition(plan%ptr, int(direction, c_int), int(channel, c_size_t), int(neighbour, c_int), &
                                int(size(counts), c_size_t), c_loc(counts)), ierr)
  end subroutine
  ! Partition `partition` (0-based, as channels) of the message to `neighbour` is final: send it.
  ! Any thread, one per partition (docs/plans.md, "Threads").
  subroutine gw_plan_pready(plan, channel, neighbour, partition, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: channel, neighbour, partition
    integer, intent(out), optional :: ierr
    call check(c_plan_pready(plan%ptr, int(channel, c_size_t), int(neighbour, c_int), int(partition, c_size_t)), ierr)
  end subroutine
  ! Until the receiver has the last message of partition `partition`: its data may change again.
  subroutine gw_plan_wait_send_partition(plan, channel, neighbour, partition, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: channel, neighbour, partition
    integer, intent(out), optional :: ierr
    call check(c_plan_wait_send_partition(plan%ptr, int(channel, c_size_t), int(neighbour, c_int), &
                                          int(partition, c_size_t)), ierr)
  end subroutine
  ! arrived: partition `partition` of the message from `neighbour` is in the receive layout.
  subroutine gw_plan_parrived(plan, channel, neighbour, partition, arrived, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: channel, neighbour, partition
    logical, intent(out) :: arrived
    integer, intent(out), optional :: ierr
    integer(c_int) :: flag
    flag = 0
    call check(c_plan_parrived(plan%ptr, int(channel, c_size_t), int(neighbour, c_int), int(partition, c_size_t), &
                               flag), ierr)
    arrived = flag /= 0
  end subroutine
  ! Thread `thread` (0-based) of a team of `threads` does its share of one exchange.
  subroutine gw_plan_exchange_share(plan, thread, threads, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: thread, threads
    integer, intent(out), optional :: ierr
    call check(c_plan_exchange_share(plan%ptr, int(thread, c_size_t), int(threads, c_size_t)), ierr)
  end subroutine
  subroutine gw_world_thread_level(world, level, ierr)
    type(gw_world), intent(in) :: world
    integer, intent(out) :: level
    integer, intent(out), optional :: ierr
    integer(c_int) :: value
    value = 0
    call check(c_world_thread_level(world%ptr, value), ierr)
    level = int(value)
  end subroutine

  ! Collective: checks that both sides of every slot agree.
  subroutine gw_plan_commit(plan, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(out), optional :: ierr
    call check(c_plan_commit(plan%ptr), ierr)
  end subroutine
  subroutine gw_plan_send(plan, channel, neighbour, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: channel, neighbour
    integer, intent(out), optional :: ierr
    call check(c_plan_send(plan%ptr, int(channel, c_size_t), int(neighbour, c_int)), ierr)
  end subroutine
  subroutine gw_plan_wait_recv(plan, channel, neighbour, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: channel, neighbour
    integer, intent(out), optional :: ierr
    call check(c_plan_wait_recv(plan%ptr, int(channel, c_size_t), int(neighbour, c_int)), ierr)
  end subroutine
  subroutine gw_plan_wait_send(plan, channel, neighbour, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: channel, neighbour
    integer, intent(out), optional :: ierr
    call check(c_plan_wait_send(plan%ptr, int(channel, c_size_t), int(neighbour, c_int)), ierr)
  end subroutine
  subroutine gw_plan_test_recv(plan, channel, neighbour, done, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: channel, neighbour
    logical, intent(out) :: done
    integer, intent(out), optional :: ierr
    integer(c_int) :: flag
    flag = 0
    call check(c_plan_test_recv(plan%ptr, int(channel, c_size_t), int(neighbour, c_int), flag), ierr)
    done = flag /= 0
  end subroutine
  subroutine gw_plan_test_send(plan, channel, neighbour, done, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: channel, neighbour
    logical, intent(out) :: done
    integer, intent(out), optional :: ierr
    integer(c_int) :: flag
    flag = 0
    call check(c_plan_test_send(plan%ptr, int(channel, c_size_t), int(neighbour, c_int), flag), ierr)
    done = flag /= 0
  end subroutine
  ! Every slot (or every slot of one channel): returns with every ghost cell filled.
  subroutine gw_plan_exchange(plan, channel, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in), optional :: channel
    integer, intent(out), optional :: ierr
    if (present(channel)) then
      call check(c_plan_exchange_channel(plan%ptr, int(channel, c_size_t)), ierr)
    else
      call check(c_plan_exchange(plan%ptr), ierr)
    end if
  end subroutine
  ! Before gw_plan_commit, the same on every rank: the plan's messages between nodes combined into one
  ! per pair of nodes (GW_AGGREGATE_NODE), each its own (GW_AGGREGATE_OFF), or by the automatic rule
  ! (GW_AGGREGATE_AUTO); without the call GHOSTWIRE_AGGREGATE decides. docs/plans.md, "One message per
  ! pair of nodes".
  subroutine gw_plan_aggregate(plan, mode, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: mode
    integer, intent(out), optional :: ierr
    call check(c_plan_aggregate(plan%ptr, int(mode, c_int)), ierr)
  end subroutine
  ! The reverse exchange (docs/plans.md, "Reverse exchange"): every receive layout's values go back to
  ! their sender and are combined (op: GW_SUM, GW_MIN, GW_MAX or GW_REPLACE) into the elements they
  ! came from, as values of `type` (GW_DOUBLE, GW_FLOAT, GW_INT32 or GW_INT64), in a fixed order.
  ! gw_plan_enable_reverse on every rank, before gw_plan_commit or (collectively) after it.
  subroutine gw_plan_enable_reverse(plan, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(out), optional :: ierr
    call check(c_plan_enable_reverse(plan%ptr), ierr)
  end subroutine
  subroutine gw_plan_reverse_exchange(plan, op, type, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: op, type
    integer, intent(out), optional :: ierr
    call check(c_plan_reverse_exchange(plan%ptr, int(op, c_int), int(type, c_int)), ierr)
  end subroutine
  subroutine gw_plan_reverse_start(plan, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(out), optional :: ierr
    call check(c_plan_reverse_start(plan%ptr), ierr)
  end subroutine
  subroutine gw_plan_reverse_finish(plan, op, type, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in) :: op, type
    integer, intent(out), optional :: ierr
    call check(c_plan_reverse_finish(plan%ptr, int(op, c_int), int(type, c_int)), ierr)
  end subroutine
  ! gw_plan_exchange in two halves, to overlap with computation.
  subroutine gw_plan_start(plan, channel, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in), optional :: channel
    integer, intent(out), optional :: ierr
    if (present(channel)) then
      call check(c_plan_start_channel(plan%ptr, int(channel, c_size_t)), ierr)
    else
      call check(c_plan_start(plan%ptr), ierr)
    end if
  end subroutine
  subroutine gw_plan_finish(plan, channel, ierr)
    type(gw_plan), intent(in) :: plan
    integer, intent(in), optional :: channel
    integer, intent(out), optional :: ierr
    if (present(channel)) then
      call check(c_plan_finish_channel(plan%ptr, int(channel, c_size_t)), ierr)
    else
      call check(c_plan_finish(plan%ptr), ierr)
    end if
  end subroutine
  ! The plan's slots: neighbours, bytes, paths.
  subroutine gw_plan_describe(plan, text, ierr)
    type(gw_plan), intent(in) :: plan
    character(len=:), allocatable, intent(out) :: text
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: buffer(65536)
    integer(c_int) :: code
    code = c_plan_describe(plan%ptr, buffer, int(size(buffer), c_size_t))
    call describe_text(code, buffer, text, ierr)
  end subroutine

  subroutine describe_text(code, buffer, text, ierr)
    integer(c_int), intent(in) :: code
    character(kind=c_char), intent(in), target :: buffer(:)
    character(len=:), allocatable, intent(out) :: text
    integer, intent(out), optional :: ierr
    text = ''
    if (code == GW_SUCCESS) text = c_string(c_loc(buffer))
    call check(code, ierr)
  end subroutine

  subroutine make_unstructured(plan, world, segment, owned, owned_count, ghosts, ghost_count, owners, indices, &
                               element, ierr, aggregate)
    type(gw_plan), intent(out) :: plan
    type(gw_world), intent(in) :: world
    type(gw_segment), intent(in) :: segment
    type(c_ptr), intent(in) :: owned, ghosts
    integer(c_size_t), intent(in) :: owned_count, ghost_count, element
    integer, intent(in) :: owners(:), indices(:)
    integer, intent(out), optional :: ierr
    integer, intent(in), optional :: aggregate
    type(c_ptr) :: base
    integer(c_intptr_t) :: offset
    integer(c_int) :: owner_list(max(1, size(owners)))
    integer(c_size_t) :: index_list(max(1, size(indices)))
    if (size(owners) /= int(ghost_count) .or. size(indices) /= int(ghost_count)) then
      call fail(GW_ERR_INVALID_ARGUMENT, 'gw_plan_unstructured: owners has ' // itoa(size(owners)) // &
                ' and indices ' // itoa(size(indices)) // ' values but ghosts has ' // itoa(int(ghost_count)) // &
                ' elements; expected one owner and one index per ghost', ierr)
      return
    end if
    if (any(indices < 1)) then
      call fail(GW_ERR_OUT_OF_RANGE, 'gw_plan_unstructured: indices are 1-based; one is below 1', ierr)
      return
    end if
    if (.not. succeeded(c_segment_data(segment%ptr, base), ierr)) return
    offset = transfer(owned, 0_c_intptr_t) - transfer(base, 0_c_intptr_t)
    if (c_associated(owned) .and. (offset < 0 .or. .not. c_associated(base))) then
      call fail(GW_ERR_INVALID_ARGUMENT, 'gw_plan_unstructured: owned does not lie in segment', ierr)
      return
    end if
    if (.not. c_associated(owned)) offset = 0
    owner_list = 0
    index_list = 0
    owner_list(1:size(owners)) = owners
    index_list(1:size(indices)) = int(indices - 1, c_size_t)
    if (present(aggregate)) then
      call check(c_plan_create_unstructured_aggregate(world%ptr, segment%ptr, int(offset, c_size_t), owned_count, &
                                                      ghosts, ghost_count, owner_list, index_list, element, &
                                                      int(aggregate, c_int), plan%ptr), ierr)
    else
      call check(c_plan_create_unstructured(world%ptr, segment%ptr, int(offset, c_size_t), owned_count, ghosts, &
                                            ghost_count, owner_list, index_list, element, plan%ptr), ierr)
    end if
  end subroutine

  ! ---- grids

  ! Creates the C grid from Fortran-order arguments (reversed here: the library's dimension 0 is
  ! Fortran's last).
  logical function create_grid(grid, world, type, dims, extents, halo, periodic, processes, stencil, ierr)
    type(gw_grid), intent(out) :: grid
    type(gw_world), intent(in) :: world
    integer, intent(in) :: type, dims
    integer, intent(in) :: extents(:)
    integer, intent(in), optional :: halo(:), processes(:), stencil
    logical, intent(in), optional :: periodic(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: c_extents(dims), c_widths(dims)
    integer(c_int) :: c_periodic(dims), c_stencil
    integer(c_int), target :: c_processes(dims)
    type(c_ptr) :: process_grid
    create_grid = .false.
    if (.not. rank_ok('gw_grid_create', 'extents', size(extents), dims, ierr)) return
    c_extents = int(extents(dims:1:-1), c_int64_t)
    c_widths = 0
    if (present(halo)) then
      if (size(halo) == 1) then
        c_widths = int(halo(1), c_int64_t)
      else
        if (.not. rank_ok('gw_grid_create', 'halo', size(halo), dims, ierr)) return
        c_widths = int(halo(dims:1:-1), c_int64_t)
      end if
    end if
    c_periodic = 0
    if (present(periodic)) then
      if (size(periodic) == 1) then
        c_periodic = merge(1, 0, periodic(1))
      else
        if (.not. rank_ok('gw_grid_create', 'periodic', size(periodic), dims, ierr)) return
        c_periodic = merge(1, 0, periodic(dims:1:-1))
      end if
    end if
    process_grid = c_null_ptr
    if (present(processes)) then
      if (.not. rank_ok('gw_grid_create', 'processes', size(processes), dims, ierr)) return
      c_processes = int(processes(dims:1:-1), c_int)
      process_grid = c_loc(c_processes)
    end if
    c_stencil = GW_FACES
    if (present(stencil)) c_stencil = int(stencil, c_int)
    grid%rank = dims
    create_grid = succeeded(c_grid_create(world%ptr, int(type, c_int), int(dims, c_int), c_extents, process_grid, &
                                          c_widths, c_periodic, c_stencil, grid%ptr), ierr)
  end function

  ! The block of gw_grid_create's array: its ghost corner, the whole padded block's shape (Fortran
  ! order), the array's lower bounds and extents (ghosts included).
  subroutine grid_block(grid, corner, whole, lower, sizes)
    type(gw_grid), intent(in) :: grid
    type(c_ptr), intent(out) :: corner
    integer, intent(out) :: whole(grid%rank), lower(grid%rank), sizes(grid%rank)
    integer(c_int64_t) :: stride(grid%rank), local(grid%rank), width(grid%rank), shift
    type(c_ptr) :: data
    integer(c_int) :: code
    integer :: n, k
    n = grid%rank
    code = c_grid_data(grid%ptr, data)
    code = c_grid_strides(grid%ptr, stride)
    code = c_grid_local_extents(grid%ptr, local)
    code = c_grid_halo_widths(grid%ptr, width)
    ! Fortran dimension k is the library's dimension n+1-k (1-based here).
    shift = 0
    do k = 1, n
      lower(k) = 1 - int(width(n + 1 - k))
      sizes(k) = int(local(n + 1 - k) + 2 * width(n + 1 - k))
      shift = shift + width(n + 1 - k) * stride(n + 1 - k)
      if (k < n) then
        whole(k) = int(stride(n - k) / stride(n + 1 - k))
      else
        whole(k) = sizes(k)
      end if
    end do
    if (any(local == 0)) then
      whole = 0
      sizes = 0
      lower = 1
      corner = c_null_ptr
      return
    end if
    corner = transfer(transfer(data, 0_c_intptr_t) - int(shift * element_bytes(grid), c_intptr_t), data)
  end subroutine

  integer function element_bytes(grid)
    type(gw_grid), intent(in) :: grid
    interface
      integer(c_int) function c_grid_type(grid, type) bind(c, name='gw_grid_type')
        import :: c_int, c_ptr
        type(c_ptr), value :: grid
        integer(c_int), intent(out) :: type
      end function
    end interface
    integer(c_int) :: type
    element_bytes = 8
    if (c_grid_type(grid%ptr, type) == GW_SUCCESS) then
      if (type == GW_FLOAT .or. type == GW_INT32) element_bytes = 4
    end if
  end function

  ! The grid's geometry, Fortran order: global extents, this rank's owned cells (local 1..n(k)), the
  ! offset (global index = offset + local index), the halo widths, the ranks per dimension.
  subroutine gw_grid_info(grid, extents, local_extents, offset, halo, processes, ierr)
    type(gw_grid), intent(in) :: grid
    integer, intent(out), optional :: extents(:), local_extents(:), offset(:), halo(:), processes(:)
    integer, intent(out), optional :: ierr
    integer(c_int64_t) :: values(3)
    integer(c_int) :: ranks(3), code
    integer :: n
    n = grid%rank
    code = GW_SUCCESS
    if (present(extents)) call get(c_grid_extents(grid%ptr, values), extents, 'extents')
    if (present(local_extents)) call get(c_grid_local_extents(grid%ptr, values), local_extents, 'local_extents')
    if (present(offset)) call get(c_grid_offset(grid%ptr, values), offset, 'offset')
    if (present(halo)) call get(c_grid_halo_widths(grid%ptr, values), halo, 'halo')
    if (present(processes) .and. code == GW_SUCCESS) then
      code = c_grid_process_grid(grid%ptr, ranks)
      if (code == GW_SUCCESS .and. size(processes) /= n) &
        code = c_report_error(int(GW_ERR_INVALID_ARGUMENT, c_int), 'gw_grid_info: processes has ' // &
                              itoa(size(processes)) // ' elements; expected ' // itoa(n) // c_null_char)
      if (code == GW_SUCCESS) processes = int(ranks(n:1:-1))
    end if
    call check(code, ierr)
  contains
    subroutine get(status, out, name)
      integer(c_int), intent(in) :: status
      integer, intent(out) :: out(:)
      character(len=*), intent(in) :: name
      if (code /= GW_SUCCESS) return
      code = status
      if (code == GW_SUCCESS .and. size(out) /= n) &
        code = c_report_error(int(GW_ERR_INVALID_ARGUMENT, c_int), 'gw_grid_info: ' // name // ' has ' // &
                              itoa(size(out)) // ' elements; expected ' // itoa(n) // c_null_char)
      if (code == GW_SUCCESS) out = int(values(n:1:-1))
    end subroutine
  end subroutine

  ! Frees the grid (collective); its array pointer dangles afterwards.
  subroutine gw_grid_free(grid, ierr)
    type(gw_grid), intent(inout) :: grid
    integer, intent(out), optional :: ierr
    call check(c_grid_destroy(grid%ptr), ierr)
  end subroutine
  subroutine gw_grid_describe(grid, text, ierr)
    type(gw_grid), intent(in) :: grid
    character(len=:), allocatable, intent(out) :: text
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: buffer(65536)
    call describe_text(c_grid_describe(grid%ptr, buffer, int(size(buffer), c_size_t)), buffer, text, ierr)
  end subroutine
  ! Fills the grid's ghost cells from its neighbours (collective).
  subroutine gw_update_halo(grid, ierr)
    type(gw_grid), intent(in) :: grid
    integer, intent(out), optional :: ierr
    call check(c_grid_update_halo(grid%ptr), ierr)
  end subroutine
  ! The reverse: every ghost cell gw_update_halo fills is combined (op, default GW_SUM) into the cell
  ! it mirrors, in a fixed order (collective).
  subroutine gw_reverse_halo(grid, op, ierr)
    type(gw_grid), intent(in) :: grid
    integer, intent(in), optional :: op
    integer, intent(out), optional :: ierr
    call check(c_grid_reverse_halo(grid%ptr, int(op_or_sum(op), c_int)), ierr)
  end subroutine
  ! gw_update_halo by a team of threads (an OpenMP parallel region): every thread calls it with its own
  ! thread = omp_get_thread_num() and threads = omp_get_num_threads(); it returns on every thread once
  ! every ghost cell is filled.
  subroutine gw_update_halo_shared(grid, thread, threads, ierr)
    type(gw_grid), intent(in) :: grid
    integer, intent(in) :: thread, threads
    integer, intent(out), optional :: ierr
    call check(c_grid_update_halo_shared(grid%ptr, int(thread, c_size_t), int(threads, c_size_t)), ierr)
  end subroutine
  subroutine gw_halo_update_run_shared(update, thread, threads, ierr)
    type(gw_halo_update), intent(in) :: update
    integer, intent(in) :: thread, threads
    integer, intent(out), optional :: ierr
    call check(c_halo_update_run_shared(update%ptr, int(thread, c_size_t), int(threads, c_size_t)), ierr)
  end subroutine
  ! The split form: gw_halo_wait(handle) finishes it. Meanwhile do not write the owned cells the
  ! neighbours read (within the halo width of the block's faces) nor read the ghost cells.
  subroutine gw_update_halo_start(grid, handle, ierr)
    type(gw_grid), intent(in) :: grid
    type(gw_halo_handle), intent(out) :: handle
    integer, intent(out), optional :: ierr
    call check(c_grid_update_halo_start(grid%ptr, handle%ptr), ierr)
  end subroutine
  subroutine gw_halo_wait(handle, ierr)
    type(gw_halo_handle), intent(inout) :: handle
    integer, intent(out), optional :: ierr
    call check(c_halo_wait(handle%ptr), ierr)
  end subroutine

  ! One update of several grids of the same extents and process grid. depth_low(:, g), depth_high(:, g):
  ! the ghost layers to fill below and above grid g's block per dimension (Fortran order; a negative
  ! depth_low(1, g): the whole halo; both absent: every grid's whole halo). per_variable: one message
  ! per grid, which can then be updated alone (default: one message per neighbour for all).
  subroutine gw_halo_update_create(update, grids, depth_low, depth_high, per_variable, ierr)
    type(gw_halo_update), intent(out) :: update
    type(gw_grid), intent(in) :: grids(:)
    integer, intent(in), optional :: depth_low(:, :), depth_high(:, :)
    logical, intent(in), optional :: per_variable
    integer, intent(out), optional :: ierr
    type(c_ptr) :: handles(max(1, size(grids)))
    integer(c_int64_t), target :: low(3, max(1, size(grids))), high(3, max(1, size(grids)))
    type(c_ptr) :: low_ptr, high_ptr
    integer(c_int) :: messages
    integer :: g, n
    handles = c_null_ptr
    low_ptr = c_null_ptr
    high_ptr = c_null_ptr
    do g = 1, size(grids)
      handles(g) = grids(g)%ptr
    end do
    if (present(depth_low) .neqv. present(depth_high)) then
      call fail(GW_ERR_INVALID_ARGUMENT, 'gw_halo_update_create: give depth_low and depth_high together', ierr)
      return
    end if
    if (present(depth_low)) then
      if (size(depth_low, 2) /= size(grids) .or. size(depth_high, 2) /= size(grids) .or. &
          size(depth_low, 1) < maxval([(grids(g)%rank, g = 1, size(grids))]) .or. &
          size(depth_high, 1) /= size(depth_low, 1)) then
        call fail(GW_ERR_INVALID_ARGUMENT, 'gw_halo_update_create: depth_low and depth_high must be shaped ' // &
                  '(dimensions, number of grids)', ierr)
        return
      end if
      low = 0
      high = 0
      do g = 1, size(grids)
        n = grids(g)%rank
        ! C order, row g; a negative first Fortran value marks the whole halo (C's first value).
        low(1:n, g) = int(depth_low(n:1:-1, g), c_int64_t)
        high(1:n, g) = int(depth_high(n:1:-1, g), c_int64_t)
        if (depth_low(1, g) < 0) low(1, g) = -1
      end do
      low_ptr = c_loc(low)
      high_ptr = c_loc(high)
    end if
    messages = 0
    if (present(per_variable)) messages = merge(1, 0, per_variable)
    call check(c_halo_update_create(handles, size(grids, kind=c_size_t), low_ptr, high_ptr, messages, update%ptr), ierr)
  end subroutine
  subroutine gw_halo_update_free(update, ierr)
    type(gw_halo_update), intent(inout) :: update
    integer, intent(out), optional :: ierr
    call check(c_halo_update_destroy(update%ptr), ierr)
  end subroutine
  ! Every grid, or grid `grid` alone (1-based position in the grids given; per_variable only).
  subroutine gw_halo_update_run(update, grid, ierr)
    type(gw_halo_update), intent(in) :: update
    integer, intent(in), optional :: grid
    integer, intent(out), optional :: ierr
    if (present(grid)) then
      call check(c_halo_update_run_grid(update%ptr, int(grid - 1, c_size_t)), ierr)
    else
      call check(c_halo_update_run(update%ptr), ierr)
    end if
  end subroutine
  subroutine gw_halo_update_start(update, handle, grid, ierr)
    type(gw_halo_update), intent(in) :: update
    type(gw_halo_handle), intent(out) :: handle
    integer, intent(in), optional :: grid
    integer, intent(out), optional :: ierr
    if (present(grid)) then
      call check(c_halo_update_start_grid(update%ptr, int(grid - 1, c_size_t), handle%ptr), ierr)
    else
      call check(c_halo_update_start(update%ptr, handle%ptr), ierr)
    end if
  end subroutine
  ! The reverse update of every grid, each combined as its type (op, default GW_SUM).
  subroutine gw_halo_update_reverse_run(update, op, ierr)
    type(gw_halo_update), intent(in) :: update
    integer, intent(in), optional :: op
    integer, intent(out), optional :: ierr
    call check(c_halo_update_reverse_run(update%ptr, int(op_or_sum(op), c_int)), ierr)
  end subroutine
  subroutine gw_halo_update_reverse_start(update, handle, op, ierr)
    type(gw_halo_update), intent(in) :: update
    type(gw_halo_handle), intent(out) :: handle
    integer, intent(in), optional :: op
    integer, intent(out), optional :: ierr
    call check(c_halo_update_reverse_start(update%ptr, int(op_or_sum(op), c_int), handle%ptr), ierr)
  end subroutine
  integer function op_or_sum(op)
    integer, intent(in), optional :: op
    op_or_sum = GW_SUM
    if (present(op)) op_or_sum = op
  end function
  subroutine gw_halo_update_describe(update, text, ierr)
    type(gw_halo_update), intent(in) :: update
    character(len=:), allocatable, intent(out) :: text
    integer, intent(out), optional :: ierr
    character(kind=c_char) :: buffer(65536)
    call describe_text(c_halo_update_describe(update%ptr, buffer, int(size(buffer), c_size_t)), buffer, text, ierr)
  end subroutine

#include "ghostwire_typed_procedures.inc"

end module ghostwire
