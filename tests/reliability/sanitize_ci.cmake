# SPDX-License-Identifier: BSD-3-Clause
# The sanitizer leg's CI set (scripts/test --sanitize, label sanitize-ci): every library layer under
# ASan + LSan + UBSan at 2 ranks, on one node and across emulated nodes and hosts, sized so the
# sanitized build plus these tests fit in about 12 minutes on 2 cores. It reuses the test programs
# with smaller arguments; tests/runtime, halo, dist ... hold the full matrix, which
# scripts/test --sanitize --full runs. Left out here, besides the matrix's 3, 4 and 8-rank runs: the
# two 65,536-slot plan tests (83 s and 54 s under ASan), the staggered-grid cases (40 s) and the
# topology mapping tests (2 minutes, and their "10,000 ranks under a second" timing cannot hold under
# ASan).
set(sanitize_ci_targets runtime_tests c_api_test halo_tests plan_c_test plan_aggregate_test plan_stress dist_tests grid_c_test
    dist_pattern_tests job_checksum soak sanitizer_probe)
add_custom_target(sanitize-ci)
add_dependencies(sanitize-ci ${sanitize_ci_targets})

set(slow_plan_tests "PlanApi.SixtyFiveThousandSlots:PlanApi.ManySlotsDestroyedWithAnUnreceivedLargeMessage")
# name | path | ranks | ranks per node (0: the path's default) | environment | command and arguments
set(sanitize_ci_tests
    "runtime.intra.2|intra|2|0||$<TARGET_FILE:runtime_tests>"
    "runtime.emulated.2|emulated|2|1||$<TARGET_FILE:runtime_tests>"
    "runtime.multihost.rma.2|multihost|2|0|GHOSTWIRE_TRANSPORT=rma|$<TARGET_FILE:runtime_tests>"
    "c_api.intra.2|intra|2|0||$<TARGET_FILE:c_api_test>"
    "halo.intra.2|intra|2|0||$<TARGET_FILE:halo_tests>|--gtest_filter=-${slow_plan_tests}"
    "halo.emulated.2|emulated|2|1||$<TARGET_FILE:halo_tests>|--gtest_filter=-${slow_plan_tests}"
    "halo.multihost.2|multihost|2|0||$<TARGET_FILE:halo_tests>|--gtest_filter=-${slow_plan_tests}"
    "halo_c.intra.2|intra|2|0||$<TARGET_FILE:plan_c_test>"
    "halo_aggregate.intra.3|intra|3|0||$<TARGET_FILE:plan_aggregate_test>"
    "halo_stress.emulated.aggregated.2|emulated|2|1|GHOSTWIRE_AGGREGATE=node|$<TARGET_FILE:plan_stress>|--rounds|200|--dimensions|2"
    "halo_stress.intra.2|intra|2|0||$<TARGET_FILE:plan_stress>|--rounds|1000|--dimensions|3"
    "halo_stress.pushed.2|intra|2|0|GHOSTWIRE_INTRA_PATH=pushed|$<TARGET_FILE:plan_stress>|--rounds|1000|--dimensions|2|--all-shared|1"
    "halo_stress.emulated.rma.2|emulated|2|1|GHOSTWIRE_TRANSPORT=rma|$<TARGET_FILE:plan_stress>|--rounds|200|--dimensions|2"
    "halo_stress.multihost.2|multihost|2|0||$<TARGET_FILE:plan_stress>|--rounds|200|--dimensions|2"
    "dist.intra.2|intra|2|0||$<TARGET_FILE:dist_tests>|--gtest_filter=-Cases/Staggered.*"
    "dist.emulated.2|emulated|2|1||$<TARGET_FILE:dist_tests>|--gtest_filter=-Cases/Staggered.*"
    "grid_c.intra.2|intra|2|0||$<TARGET_FILE:grid_c_test>"
    "concurrent_job.intra.2|intra|2|0||$<TARGET_FILE:job_checksum>|--tag|1|--rounds|500"
    "soak.unstructured.emulated.2|emulated|2|1||$<TARGET_FILE:soak>|--kind|unstructured|--exchanges|20000|--warmup|1000|--limit-kib|65536|--heap-limit-bytes|16777216")
foreach(case IN LISTS sanitize_ci_tests)
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 path)
  list(GET fields 2 ranks)
  list(GET fields 3 rpn)
  list(GET fields 4 env)
  list(SUBLIST fields 5 -1 command)
  set(rpn_args)
  if(NOT rpn STREQUAL "0")
    set(rpn_args RPN ${rpn})
  endif()
  gw_add_mpi_test(NAME sanitize.${name} RANKS ${ranks} PATH ${path} ${rpn_args} TIMEOUT 600 LABELS sanitize sanitize-ci
                  ENV ${env} COMMAND ${command})
endforeach()

# Host-only programs.
foreach(program IN ITEMS dist_pattern_tests)
  add_test(NAME sanitize.${program} COMMAND $<TARGET_FILE:${program}>)
  set_tests_properties(sanitize.${program} PROPERTIES LABELS "sanitize;sanitize-ci" TIMEOUT 600)
endforeach()
