# SPDX-License-Identifier: BSD-3-Clause
# gw_add_mpi_test(NAME name RANKS n [THREADS t] [PATH intra|emulated|multihost] [RPN k] [TIMEOUT s]
#                 [PLAIN] [LABELS ...] [PASS_REGEX re] COMMAND program args...)
# THREADS: threads per rank (scripts/launch --threads); ranks x threads count against the cores.
# PLAIN: launched as a user's plain mpirun would (scripts/launch --plain-mpi: the MPI's defaults,
# none of the script's Open MPI settings); label plain.
# Registers a CTest test that runs `program` on `n` MPI ranks through scripts/launch, so tests are
# launched exactly as the benchmarks launch programs.
set(GHOSTWIRE_LAUNCH ${PROJECT_SOURCE_DIR}/scripts/launch)

function(gw_add_mpi_test)
  cmake_parse_arguments(T "MPICH_OVERSUBSCRIBE;PLAIN" "NAME;RANKS;THREADS;PATH;RPN;TIMEOUT;PASS_REGEX"
                        "LABELS;COMMAND;ENV" ${ARGN})
  if(NOT T_PATH)
    set(T_PATH intra)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  if(T_PATH STREQUAL "multihost" AND NOT GHOSTWIRE_MPI_FLAVOR STREQUAL "openmpi")
    return()
  endif()
  # MPICH busy-waits inside its collectives without giving up the core: with more ranks than cores
  # a barrier takes ~50 ms and a shared window ~400 ms (Open MPI: ~1.6 ms and ~12 ms), so the MPICH
  # build runs the tests that fit on the machine's cores, unless a test is known to be quick
  # oversubscribed too (MPICH_OVERSUBSCRIBE: a few collectives, seconds at 4 ranks on 2 cores).
  cmake_host_system_information(RESULT gw_cores QUERY NUMBER_OF_LOGICAL_CORES)
  if(NOT T_THREADS)
    set(T_THREADS 1)
  endif()
  math(EXPR gw_hardware_threads "${T_RANKS} * ${T_THREADS}")
  if(GHOSTWIRE_MPI_FLAVOR STREQUAL "mpich" AND gw_hardware_threads GREATER gw_cores AND NOT T_MPICH_OVERSUBSCRIBE)
    return()
  endif()
  set(launch ${GHOSTWIRE_LAUNCH} --mpi ${GHOSTWIRE_MPI_FLAVOR} --path ${T_PATH} -n ${T_RANKS}
             --timeout ${T_TIMEOUT})
  if(T_RPN)
    list(APPEND launch --rpn ${T_RPN})
  endif()
  if(T_THREADS GREATER 1)
    list(APPEND launch --threads ${T_THREADS})
  endif()
  set(labels mpi ${T_PATH} ${T_LABELS})
  if(T_PLAIN)
    list(APPEND launch --plain-mpi)
    list(APPEND labels plain)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${launch} -- ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${labels}" TIMEOUT ${T_TIMEOUT}
                       PROCESSORS 2 ENVIRONMENT "GHOSTWIRE_TIMEOUT=120;${T_ENV}")
  if(T_PASS_REGEX)
    set_tests_properties(${T_NAME} PROPERTIES PASS_REGULAR_EXPRESSION "${T_PASS_REGEX}")
  endif()
endfunction()

# gw_label_long(test...): move tests to `scripts/test --long` (label long). A test this build did
# not register (multi-host under MPICH, oversubscribed launches under MPICH) is skipped.
function(gw_label_long)
  foreach(test IN LISTS ARGN)
    if(TEST ${test})
      set_property(TEST ${test} APPEND PROPERTY LABELS long)
    endif()
  endforeach()
endfunction()

# gw_add_mpi_test_matrix(NAME base COMMAND ...): the standard set of launches for a test program:
# 1, 2 and 4 ranks on one node, 2 and 4 ranks as emulated nodes of 2 (and 1), 4 ranks on two hosts.
function(gw_add_mpi_test_matrix)
  cmake_parse_arguments(T "MPICH_OVERSUBSCRIBE" "NAME;TIMEOUT" "LABELS;COMMAND;RANKS" ${ARGN})
  set(oversubscribe)
  if(T_MPICH_OVERSUBSCRIBE)
    set(oversubscribe MPICH_OVERSUBSCRIBE)
  endif()
  if(NOT T_RANKS)
    set(T_RANKS 1 2 4)
  endif()
  foreach(n IN LISTS T_RANKS)
    gw_add_mpi_test(NAME ${T_NAME}.intra.${n} RANKS ${n} PATH intra TIMEOUT ${T_TIMEOUT} ${oversubscribe}
                    LABELS ${T_LABELS} COMMAND ${T_COMMAND})
    if(n GREATER 1)
      gw_add_mpi_test(NAME ${T_NAME}.emulated.${n} RANKS ${n} PATH emulated RPN 2 TIMEOUT ${T_TIMEOUT} ${oversubscribe}
                      LABELS ${T_LABELS} COMMAND ${T_COMMAND})
    endif()
  endforeach()
  gw_add_mpi_test(NAME ${T_NAME}.emulated1.2 RANKS 2 PATH emulated RPN 1 TIMEOUT ${T_TIMEOUT}
                  LABELS ${T_LABELS} COMMAND ${T_COMMAND})
  gw_add_mpi_test(NAME ${T_NAME}.multihost.4 RANKS 4 PATH multihost TIMEOUT ${T_TIMEOUT}
                  LABELS ${T_LABELS} COMMAND ${T_COMMAND})
endfunction()
