# pytest under scripts/launch: 1, 2 and 4 ranks on one node, emulated nodes and two hosts
# (gw_add_mpi_test_matrix), so the Python tests are part of scripts/test.
set(python_env "PYTHONPATH=${GHOSTWIRE_PYTHONPATH};PYTHONDONTWRITEBYTECODE=1")
set(pytest ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/tests)
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
