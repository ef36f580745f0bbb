# SPDX-License-Identifier: BSD-3-Clause
# gw-cfdproxy tests (included by tests/cfdproxy/CMakeLists.txt). Every run goes through
# gw_add_mpi_test (scripts/launch), checks its ghosts against their owners bit for bit
# (--check-ghosts: exit 1 otherwise) and writes its checksums with --output into results/; a
# group's check (check_cfdproxy.py) runs after the group's runs (a CTest fixture):
#   golden.*  the original 48-domain partition (48 ranks, and whole domains on 1 and 4 ranks)
#             against the reference code's checksums (needs ../shared; skipped otherwise)
#   metis.*   METIS partitions at 1, 2, 3, 4, 8 ranks, emulated nodes and two hosts, gw and mpi in
#             one job, --init one and hash: the same owned-point checksums, and the flux telescopes
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

# cfdproxy_run(GROUP g NAME n RANKS r [PATH p] [RPN k] ARGS ...): one run in group g.
function(cfdproxy_run)
  cmake_parse_arguments(R "" "GROUP;NAME;RANKS;PATH;RPN" "ARGS" ${ARGN})
  if(NOT R_PATH)
    set(R_PATH intra)
  endif()
  set(rpn)
  if(R_RPN)
    set(rpn RPN ${R_RPN})
  endif()
  set(test cfdproxy.${R_GROUP}.${R_NAME})
  set(file ${cfdproxy_results}/${R_GROUP}.${R_NAME}.txt)
  gw_add_mpi_test(NAME ${test} RANKS ${R_RANKS} PATH ${R_PATH} ${rpn} TIMEOUT 180 LABELS cfdproxy
                  COMMAND ${cfdproxy} --check-ghosts --output ${file} ${R_ARGS})
  if(TEST ${test})  # multihost needs Open MPI; MPICH runs what fits on the cores
    set_tests_properties(${test} PROPERTIES FIXTURES_SETUP cfdproxy.${R_GROUP})
    set_property(GLOBAL APPEND PROPERTY cfdproxy_files_${R_GROUP} ${file})
  endif()
endfunction()

# cfdproxy_check(GROUP g NAME n MODE m [OPTIONS ...]): a check of group g's files after its runs.
function(cfdproxy_check)
  cmake_parse_arguments(C "" "GROUP;NAME;MODE" "OPTIONS" ${ARGN})
  get_property(files GLOBAL PROPERTY cfdproxy_files_${C_GROUP})
  if(NOT files)
    return()
  endif()
  add_test(NAME cfdproxy.${C_GROUP}.${C_NAME} COMMAND ${cfdproxy_check} ${C_MODE} ${C_OPTIONS} ${files})
  set_tests_properties(cfdproxy.${C_GROUP}.${C_NAME} PROPERTIES FIXTURES_REQUIRED cfdproxy.${C_GROUP}
                       LABELS cfdproxy)
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
  cfdproxy_check(GROUP golden NAME check MODE expect OPTIONS --values ${reference})
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
cfdproxy_run(GROUP commfree NAME intra.2 RANKS 2
             ARGS --mesh ${cfdproxy_mesh} --init hash --iterations 1 --variant commfree)
cfdproxy_check(GROUP commfree NAME check MODE commfree)

# cfdproxy_usage(NAME n RANKS r REGEX re ARGS ...): the message must match, and (a second test) the
# run must fail: CTest cannot check output and exit status in one test.
function(cfdproxy_usage)
  cmake_parse_arguments(U "" "NAME;RANKS;REGEX" "ARGS" ${ARGN})
  gw_add_mpi_test(NAME cfdproxy.usage.${U_NAME} RANKS ${U_RANKS} TIMEOUT 60 LABELS cfdproxy PASS_REGEX "${U_REGEX}"
                  COMMAND ${cfdproxy} ${U_ARGS})
  gw_add_mpi_test(NAME cfdproxy.usage.${U_NAME}.fails RANKS ${U_RANKS} TIMEOUT 60 LABELS cfdproxy
                  COMMAND ${cfdproxy} ${U_ARGS})
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
