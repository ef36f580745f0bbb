# SPDX-License-Identifier: BSD-3-Clause
# pytest under scripts/launch: 1, 2 and 4 ranks on one node, emulated nodes and two hosts
# (gw_add_mpi_test_matrix), so the Python tests are part of scripts/test.
set(python_env "PYTHONPATH=${GHOSTWIRE_PYTHONPATH};PYTHONDONTWRITEBYTECODE=1;GHOSTWIRE_MPI_FLAVOR=${GHOSTWIRE_MPI_FLAVOR}")
set(pytest ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider --color=no ${CMAKE_CURRENT_SOURCE_DIR}/tests)
foreach(n IN ITEMS 1 2 4)
  gw_add_mpi_test(NAME python.pytest.intra.${n} RANKS ${n} PATH intra TIMEOUT 300 LABELS python
                  ENV "${python_env}" COMMAND ${pytest})
endforeach()
foreach(n IN ITEMS 2 4)
  gw_add_mpi_test(NAME python.pytest.emulated.${n} RANKS ${n} PATH emulated RPN 2 TIMEOUT 300 LABELS python
                  ENV "${python_env}" COMMAND ${pytest})
endforeach()
gw_add_mpi_test(NAME python.pytest.multihost.4 RANKS 4 PATH multihost TIMEOUT 300 LABELS python
                ENV "${python_env}" COMMAND ${pytest})
# A timed-out wait raises ghostwire.TimeoutError while the rank's other threads keep running.
gw_add_mpi_test(NAME python.timeout.2 RANKS 2 PATH intra TIMEOUT 60 LABELS python
                ENV "${python_env};GHOSTWIRE_TIMEOUT=2;GHOSTWIRE_ON_TIMEOUT=throw" PASS_REGEX "timeout_check: ok"
                COMMAND ${Python_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tests/timeout_check.py)

# Python threads on one plan (partitions) and a grid's halo filled by a team of threads.
foreach(case IN ITEMS "intra;1" "intra;2" "emulated;2" "multihost;2")
  list(GET case 0 path)
  list(GET case 1 ranks)
  set(rpn_args)
  if(path STREQUAL "emulated")
    set(rpn_args RPN 1)
  endif()
  gw_add_mpi_test(NAME python.threads.${path}.${ranks} RANKS ${ranks} THREADS 2 PATH ${path} ${rpn_args} TIMEOUT 120
                  MPICH_OVERSUBSCRIBE LABELS python threads ENV "${python_env}" PASS_REGEX "threads_check: ok"
                  COMMAND ${Python_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tests/threads_check.py)
endforeach()

# A script ending with views of an open grid alive exits cleanly: the exit handler closes it anyway.
gw_add_mpi_test(NAME python.exit_with_views.2 RANKS 2 PATH intra TIMEOUT 60 LABELS python
                ENV "${python_env}" PASS_REGEX "exit_with_views: ok"
                COMMAND ${Python_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tests/exit_with_views.py)
set_tests_properties(python.exit_with_views.2 PROPERTIES FAIL_REGULAR_EXPRESSION "ghostwire: at exit")

# The Python examples print the same checksums as the C++ and Fortran ones (examples/python).
set(examples ${PROJECT_SOURCE_DIR}/examples/python)
set(compare ${Python_EXECUTABLE} ${examples}/compare_checksums.py --launch ${GHOSTWIRE_LAUNCH}
            --mpi ${GHOSTWIRE_MPI_FLAVOR} --interpreter ${Python_EXECUTABLE})
set(example_cases)
if(TARGET heat_jacobi)
  list(APPEND example_cases "heat_jacobi|$<TARGET_FILE:heat_jacobi>,64,50|${examples}/heat_jacobi.py,64,50")
endif()
if(TARGET stencil3d)
  list(APPEND example_cases "stencil3d|$<TARGET_FILE:stencil3d>,24,10|${examples}/stencil3d.py,24,10")
endif()
if(TARGET fortran_unstructured)
  list(APPEND example_cases "unstructured|$<TARGET_FILE:fortran_unstructured>|${examples}/unstructured.py")
endif()
foreach(case IN LISTS example_cases)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 reference)
  list(GET parts 2 python)
  string(REPLACE "," ";" reference "${reference}")
  string(REPLACE "," ";" python "${python}")
  foreach(n IN ITEMS 1 2 4)
    add_test(NAME python.examples.${name}.${n}
             COMMAND ${compare} -n ${n} --reference ${reference} --python ${python})
    set_tests_properties(python.examples.${name}.${n} PROPERTIES LABELS "mpi;intra;python;examples" TIMEOUT 300
                         PROCESSORS 2 ENVIRONMENT "GHOSTWIRE_TIMEOUT=120;${python_env}"
                         PASS_REGULAR_EXPRESSION "compare_checksums: equal checksums")
  endforeach()
endforeach()

# The benchmark still runs (tiny sizes; it needs mpi4py, which Debian builds on Open MPI).
execute_process(COMMAND ${Python_EXECUTABLE} -c "import mpi4py" RESULT_VARIABLE no_mpi4py OUTPUT_QUIET ERROR_QUIET)
if(GHOSTWIRE_MPI_FLAVOR STREQUAL "openmpi" AND NOT no_mpi4py)
  # docs/python.md's first program, and the porting guide's Jacobi program on numpy arrays the
  # program owns (the checksum of examples/porting/mpi_jacobi.cpp); both use mpi4py.
  gw_add_mpi_test(NAME python.examples.first_steps.2 RANKS 2 TIMEOUT 60 LABELS python examples
                  ENV "${python_env}" PASS_REGEX "checksum 99198\\.651093"
                  COMMAND ${Python_EXECUTABLE} ${examples}/first_steps.py)
  gw_add_mpi_test(NAME python.examples.porting_jacobi.2 RANKS 2 TIMEOUT 60 LABELS python examples
                  ENV "${python_env}" PASS_REGEX "checksum 513671\\.116937"
                  COMMAND ${Python_EXECUTABLE} ${PROJECT_SOURCE_DIR}/examples/porting/jacobi_plan.py)
  gw_add_mpi_test(NAME python.bench_halo.smoke.2 RANKS 2 PATH intra TIMEOUT 120 LABELS python bench
                  ENV "${python_env}" PASS_REGEX "median us per update"
                  COMMAND ${Python_EXECUTABLE} ${PROJECT_SOURCE_DIR}/bench/python/bench_halo.py --quick)
endif()
