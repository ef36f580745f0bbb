# SPDX-License-Identifier: BSD-3-Clause
# gw-cfdproxy tests (included by tests/cfdproxy/CMakeLists.txt). Every run goes through scripts/launch
# (gw_add_mpi_test, or with --threads T for the threaded runs), checks its ghosts against their
# owners bit for bit (--check-ghosts: exit 1 otherwise) and writes its checksums with --output into
# results/; a group's check (check_cfdproxy.py) runs after the group's runs (a CTest fixture):
#   golden.*  the original 48-domain partition (48 ranks, and whole domains on 1 and 4 ranks, and 4
#             ranks x 2 threads) against the reference code's checksums (needs ../shared; skipped
#             otherwise); the threaded run bit for bit equal to the 4 x 1 run
#   metis.*   METIS partitions at 1, 2, 3, 4, 8 ranks, emulated nodes and two hosts, gw and mpi in
#             one job, --init one and hash: the same owned-point checksums, and the flux telescopes
#   threads.* ranks x threads 1x1, 1x2, 1x4 | 2x1, 2x2 on one node, emulated nodes and two hosts |
#             4x1, every variant of the build (mpi-partitioned with MPICH) and commfree, --init hash,
#             on a generated mesh and on the F6 mesh: every checksum bit for bit the one-thread run's
#             at the same rank count, and across rank counts the metis checks
#   usage.*   bad input: a clear message and a non-zero exit, no hang
# Without the DLR-F6 data the metis and usage groups run on a generated mesh.
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(WARNING "tests/cfdproxy: no python3, gw-cfdproxy's result checks are not registered")
  return()
endif()

set(cfdproxy $<TARGET_FILE:gw-cfdproxy>)
set(cfdproxy_results ${CMAKE_CURRENT_BINARY_DIR}/results)
file(MAKE_DIRECTORY ${cfdproxy_results})
set(cfdproxy_check ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check_cfdproxy.py)
get_filename_component(cfdproxy_f6 ${PROJECT_SOURCE_DIR}/../shared/data/dlr-f6-dualgrid-lvl2-48 ABSOLUTE)
if(IS_DIRECTORY ${cfdproxy_f6})
  set(cfdproxy_mesh ${cfdproxy_f6})
else()
  message(STATUS "tests/cfdproxy: no DLR-F6 data at ${cfdproxy_f6}: the golden tests are skipped, the others "
                 "run on a generated mesh")
  set(cfdproxy_mesh generated:30000)
endif()

# cfdproxy_threads_test(NAME n RANKS r THREADS t PATH p [RPN k] COMMAND ...): gw_add_mpi_test with
# THREADS (scripts/launch --threads t sets OMP_NUM_THREADS, unbinds the ranks and makes MPI and
# OpenMP yield when ranks x threads exceed the cores); MPICH runs every case whose ranks fit on the
# cores, whatever their threads.
function(cfdproxy_threads_test)
  cmake_parse_arguments(T "" "NAME;RANKS;THREADS;PATH;RPN" "COMMAND" ${ARGN})
  cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
  if(GHOSTWIRE_MPI_FLAVOR STREQUAL "mpich" AND T_RANKS GREATER cores)
    return()
  endif()
  set(rpn)
  if(T_RPN)
    set(rpn RPN ${T_RPN})
  endif()
  # The thread-sanitizer leg (scripts/test --sanitize-threads) runs the generated mesh at 2x2.
  set(labels cfdproxy threads)
  if(T_NAME MATCHES "threads_gen_2\\.(intra|emulated)\\.2x2$")
    list(APPEND labels sanitize-threads)
  endif()
  gw_add_mpi_test(NAME ${T_NAME} RANKS ${T_RANKS} THREADS ${T_THREADS} PATH ${T_PATH} ${rpn} TIMEOUT 180
                  MPICH_OVERSUBSCRIBE LABELS ${labels} COMMAND ${T_COMMAND})
endfunction()

# cfdproxy_run(GROUP g NAME n RANKS r [THREADS t] [PATH p] [RPN k] ARGS ...): one run in group g.
function(cfdproxy_run)
  cmake_parse_arguments(R "" "GROUP;NAME;RANKS;THREADS;PATH;RPN" "ARGS" ${ARGN})
  if(NOT R_PATH)
    set(R_PATH intra)
  endif()
  set(rpn)
  if(R_RPN)
    set(rpn RPN ${R_RPN})
  endif()
  set(test cfdproxy.${R_GROUP}.${R_NAME})
  set(file ${cfdproxy_results}/${R_GROUP}.${R_NAME}.txt)
  if(R_THREADS)
    cfdproxy_threads_test(NAME ${test} RANKS ${R_RANKS} THREADS ${R_THREADS} PATH ${R_PATH} ${rpn}
                          COMMAND ${cfdproxy} --threads ${R_THREADS} --check-ghosts --output ${file} ${R_ARGS})
  else()
    gw_add_mpi_test(NAME ${test} RANKS ${R_RANKS} PATH ${R_PATH} ${rpn} TIMEOUT 180 LABELS cfdproxy
                    COMMAND ${cfdproxy} --check-ghosts --output ${file} ${R_ARGS})
  endif()
  if(TEST ${test})  # multihost needs Open MPI; MPICH runs what fits on the cores
    set_tests_properties(${test} PROPERTIES FIXTURES_SETUP cfdproxy.${R_GROUP})
    set_property(GLOBAL APPEND PROPERTY cfdproxy_files_${R_GROUP} ${file})
  endif()
endfunction()

# cfdproxy_check(GROUP g NAME n MODE m [OPTIONS ...] [ALSO g2 ...]): a check of group g's files
# (and groups g2...'s) after their runs.
function(cfdproxy_check)
  cmake_parse_arguments(C "" "GROUP;NAME;MODE" "OPTIONS;ALSO" ${ARGN})
  set(files)
  set(fixtures)
  foreach(group IN ITEMS ${C_GROUP} ${C_ALSO})
    get_property(group_files GLOBAL PROPERTY cfdproxy_files_${group})
    if(group_files)
      list(APPEND files ${group_files})
      list(APPEND fixtures cfdproxy.${group})
    endif()
  endforeach()
  if(NOT files)
    return()
  endif()
  add_test(NAME cfdproxy.${C_GROUP}.${C_NAME} COMMAND ${cfdproxy_check} ${C_MODE} ${C_OPTIONS} ${files})
  set_tests_properties(cfdproxy.${C_GROUP}.${C_NAME} PROPERTIES FIXTURES_REQUIRED "${fixtures}" LABELS cfdproxy)
endfunction()

# cfdproxy_equal(GROUP g BASE name): every run of group g but `name` bit for bit equal to run `name`.
function(cfdproxy_equal)
  cmake_parse_arguments(E "" "GROUP;BASE" "" ${ARGN})
  get_property(files GLOBAL PROPERTY cfdproxy_files_${E_GROUP})
  set(base ${cfdproxy_results}/${E_GROUP}.${E_BASE}.txt)
  if(NOT base IN_LIST files)
    return()
  endif()
  list(REMOVE_ITEM files ${base})
  if(NOT files)
    return()
  endif()
  add_test(NAME cfdproxy.${E_GROUP}.equal COMMAND ${cfdproxy_check} equal --base ${base} ${files})
  set_tests_properties(cfdproxy.${E_GROUP}.equal PROPERTIES FIXTURES_REQUIRED cfdproxy.${E_GROUP}
                       LABELS "cfdproxy;threads")
endfunction()

set(reference ${CMAKE_CURRENT_SOURCE_DIR}/reference_checksums.txt)
if(IS_DIRECTORY ${cfdproxy_f6})
  # The reference ran its 48 domains on 48 ranks (oversubscribed here; Open MPI only).
  cfdproxy_run(GROUP golden48 NAME original.48 RANKS 48
               ARGS --mesh ${cfdproxy_f6} --partition original --init one --iterations 1 --variant gw,mpi)
  cfdproxy_check(GROUP golden48 NAME check MODE expect OPTIONS --values ${reference} --halo)
  foreach(n IN ITEMS 1 4)
    cfdproxy_run(GROUP golden NAME original.${n} RANKS ${n}
                 ARGS --mesh ${cfdproxy_f6} --partition original --init one --iterations 2 --variant gw,mpi)
  endforeach()
  cfdproxy_run(GROUP golden NAME original.4x2 RANKS 4 THREADS 2
               ARGS --mesh ${cfdproxy_f6} --partition original --init one --iterations 2 --variant gw,mpi)
  cfdproxy_check(GROUP golden NAME check MODE expect OPTIONS --values ${reference})
  if(TEST cfdproxy.golden.original.4x2)
    add_test(NAME cfdproxy.golden.threads COMMAND ${cfdproxy_check} equal --base
             ${cfdproxy_results}/golden.original.4.txt ${cfdproxy_results}/golden.original.4x2.txt)
    set_tests_properties(cfdproxy.golden.threads PROPERTIES FIXTURES_REQUIRED cfdproxy.golden LABELS "cfdproxy;threads")
  endif()
endif()

foreach(init IN ITEMS one hash)
  set(args --mesh ${cfdproxy_mesh} --partition metis --init ${init} --iterations 2 --variant gw,mpi)
  foreach(n IN ITEMS 1 2 3 4 8)
    cfdproxy_run(GROUP metis_${init} NAME intra.${n} RANKS ${n} ARGS ${args})
  endforeach()
  cfdproxy_run(GROUP metis_${init} NAME emulated1.2 RANKS 2 PATH emulated RPN 1 ARGS ${args})
  cfdproxy_run(GROUP metis_${init} NAME emulated.4 RANKS 4 PATH emulated RPN 2 ARGS ${args})
  cfdproxy_run(GROUP metis_${init} NAME multihost.2 RANKS 2 PATH multihost ARGS ${args})
  cfdproxy_run(GROUP metis_${init} NAME multihost.4 RANKS 4 PATH multihost ARGS ${args})
  cfdproxy_check(GROUP metis_${init} NAME check MODE agree)
endforeach()
if(IS_DIRECTORY ${cfdproxy_f6})
  cfdproxy_check(GROUP metis_one NAME reference MODE expect OPTIONS --values ${reference})
endif()
# Threads: per mesh, groups by rank count; within a group every run equals the one-thread run bit for
# bit (whatever the path: the partition and the sums are the same), and across the groups the metis
# checks hold. The generated mesh is small (fast); the F6 one skips the emulated 2x1 and multihost 2x1.
set(cfdproxy_thread_variants gw,mpi,commfree)
if(GHOSTWIRE_MPI_FLAVOR STREQUAL "mpich")
  set(cfdproxy_thread_variants gw,mpi,mpi-partitioned,commfree)
endif()
set(cfdproxy_thread_meshes gen generated:20000)
if(IS_DIRECTORY ${cfdproxy_f6})
  list(APPEND cfdproxy_thread_meshes f6 ${cfdproxy_f6})
endif()
while(cfdproxy_thread_meshes)
  list(POP_FRONT cfdproxy_thread_meshes tag mesh)
  set(args --mesh ${mesh} --partition metis --init hash --iterations 2 --variant ${cfdproxy_thread_variants})
  foreach(threads IN ITEMS 1 2 4)
    cfdproxy_run(GROUP threads_${tag}_1 NAME intra.1x${threads} RANKS 1 THREADS ${threads} ARGS ${args})
  endforeach()
  foreach(path IN ITEMS intra emulated multihost)
    foreach(threads IN ITEMS 1 2)
      if(tag STREQUAL "f6" AND threads EQUAL 1 AND NOT path STREQUAL "intra")
        continue()
      endif()
      set(rpn)
      if(path STREQUAL "emulated")
        set(rpn RPN 1)
      endif()
      cfdproxy_run(GROUP threads_${tag}_2 NAME ${path}.2x${threads} RANKS 2 THREADS ${threads} PATH ${path} ${rpn}
                   ARGS ${args})
    endforeach()
  endforeach()
  cfdproxy_run(GROUP threads_${tag}_4 NAME intra.4x1 RANKS 4 THREADS 1 ARGS ${args})
  cfdproxy_equal(GROUP threads_${tag}_1 BASE intra.1x1)
  cfdproxy_equal(GROUP threads_${tag}_2 BASE intra.2x1)
  cfdproxy_check(GROUP threads_${tag}_1 NAME agree MODE agree ALSO threads_${tag}_2 threads_${tag}_4)
endwhile()

cfdproxy_run(GROUP commfree NAME intra.2 RANKS 2
             ARGS --mesh ${cfdproxy_mesh} --init hash --iterations 1 --variant commfree)
cfdproxy_check(GROUP commfree NAME check MODE commfree)

# cfdproxy_usage(NAME n RANKS r REGEX re [ENV var=value...] ARGS ...): the message must match, and (a
# second test) the run must fail: CTest cannot check output and exit status in one test.
function(cfdproxy_usage)
  cmake_parse_arguments(U "" "NAME;RANKS;REGEX" "ARGS;ENV" ${ARGN})
  gw_add_mpi_test(NAME cfdproxy.usage.${U_NAME} RANKS ${U_RANKS} TIMEOUT 60 LABELS cfdproxy PASS_REGEX "${U_REGEX}"
                  ENV ${U_ENV} COMMAND ${cfdproxy} ${U_ARGS})
  gw_add_mpi_test(NAME cfdproxy.usage.${U_NAME}.fails RANKS ${U_RANKS} TIMEOUT 60 LABELS cfdproxy
                  ENV ${U_ENV} COMMAND ${cfdproxy} ${U_ARGS})
  if(TEST cfdproxy.usage.${U_NAME}.fails)
    set_tests_properties(cfdproxy.usage.${U_NAME}.fails PROPERTIES WILL_FAIL TRUE)
  endif()
endfunction()

cfdproxy_usage(NAME missing_mesh RANKS 2 ARGS --mesh ${CMAKE_CURRENT_BINARY_DIR}/no-such-mesh/dualgrid
               REGEX "no-such-mesh/dualgrid_domain_0_lvl_<L>: missing file")
cfdproxy_usage(NAME original_divisor RANKS 5 ARGS --mesh generated:2000 --partition original
               REGEX "--partition original: 5 ranks do not divide the mesh's 48 domains")
cfdproxy_usage(NAME variant RANKS 1 ARGS --variant gw,nope REGEX "--variant: unknown variant 'nope'")
cfdproxy_usage(NAME init RANKS 1 ARGS --init zero REGEX "--init: expected one or hash, got 'zero'")
cfdproxy_usage(NAME iterations RANKS 1 ARGS --iterations 0 REGEX "--iterations: expected an integer >= 1, got '0'")
cfdproxy_usage(NAME unknown_option RANKS 1 ARGS --bogus REGEX "unknown option '--bogus'")
cfdproxy_usage(NAME threads RANKS 1 ARGS --threads 0 REGEX "--threads: expected an integer >= 1, got '0'")
cfdproxy_usage(NAME omp_num_threads RANKS 1 ENV OMP_NUM_THREADS=many ARGS --mesh generated:2000
               REGEX "OMP_NUM_THREADS: expected a thread count >= 1, got 'many'")
if(NOT GHOSTWIRE_MPI_FLAVOR STREQUAL "mpich")
  cfdproxy_usage(NAME partitioned_needs_mpi4 RANKS 1 ARGS --variant gw,mpi-partitioned
                 REGEX "--variant: mpi-partitioned needs MPI-4 partitioned communication.*MPICH build")
endif()
if(IS_DIRECTORY ${cfdproxy_f6})
  # A copy of the data with one domain file cut short (links to the others).
  set(truncated ${CMAKE_CURRENT_BINARY_DIR}/truncated-mesh)
  file(MAKE_DIRECTORY ${truncated})
  file(GLOB domain_files ${cfdproxy_f6}/dualgrid_domain_*_lvl_2)
  foreach(f IN LISTS domain_files)
    get_filename_component(name ${f} NAME)
    if(NOT name STREQUAL "dualgrid_domain_5_lvl_2")  # that one the setup test writes, cut short
      file(CREATE_LINK ${f} ${truncated}/${name} SYMBOLIC)
    endif()
  endforeach()
  add_test(NAME cfdproxy.truncated_mesh.setup
           COMMAND ${Python3_EXECUTABLE} -c "import sys; open(sys.argv[2], 'wb').write(open(sys.argv[1], 'rb').read(100000))"
                   ${cfdproxy_f6}/dualgrid_domain_5_lvl_2 ${truncated}/dualgrid_domain_5_lvl_2)
  set_tests_properties(cfdproxy.truncated_mesh.setup PROPERTIES FIXTURES_SETUP cfdproxy.truncated LABELS cfdproxy)
  cfdproxy_usage(NAME truncated_mesh RANKS 2 ARGS --mesh ${truncated}
                 REGEX "dualgrid_domain_5_lvl_2: truncated NetCDF file")
  foreach(t IN ITEMS cfdproxy.usage.truncated_mesh cfdproxy.usage.truncated_mesh.fails)
    set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED cfdproxy.truncated)
  endforeach()
endif()
