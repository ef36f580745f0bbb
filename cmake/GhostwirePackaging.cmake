# SPDX-License-Identifier: BSD-3-Clause
# `cmake --install` with a CMake package (find_package(ghostwire)) and a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS ghostwire EXPORT ghostwireTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/ghostwire DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/ghostwire)
install(EXPORT ghostwireTargets NAMESPACE ghostwire::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ghostwire)
# For a project without C and C++ (Fortran only): the MPI libraries the C++ library needs.
set(GW_CONFIG_MPI_CXX_LIBRARIES "${MPI_CXX_LIBRARIES};${MPI_C_LIBRARIES}")
configure_package_config_file(cmake/ghostwireConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ghostwireConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ghostwire)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ghostwireConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ghostwireConfig.cmake ${PROJECT_BINARY_DIR}/ghostwireConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ghostwire)

# pkg-config: the MPI flags come from the MPI this tree was built with.
list(JOIN MPI_CXX_COMPILE_OPTIONS " " GW_PC_MPI_CFLAGS)
foreach(dir IN LISTS MPI_CXX_INCLUDE_DIRS)
  string(APPEND GW_PC_MPI_CFLAGS " -I${dir}")
endforeach()
set(GW_PC_MPI_LIBS "")
foreach(lib IN LISTS MPI_CXX_LIBRARIES)
  string(APPEND GW_PC_MPI_LIBS " ${lib}")
endforeach()
# The static library's own dependencies (hwloc, Scotch: src/topo).
foreach(lib IN LISTS GHOSTWIRE_TOPO_LIBRARIES)
  string(APPEND GW_PC_MPI_LIBS " ${lib}")
endforeach()
# Relocatable: the prefix is found from the .pc file's own place, so `cmake --install --prefix`
# anywhere works.
file(RELATIVE_PATH GW_PC_PREFIX_FROM_PCDIR "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
configure_file(cmake/ghostwire.pc.in ${PROJECT_BINARY_DIR}/ghostwire.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ghostwire.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# pkg-config for Fortran programs: ghostwire-fortran (the module directory and libghostwire_fortran).
if(GHOSTWIRE_BUILD_FORTRAN)
  set(GW_PC_FORTRAN_LIBS "")
  foreach(lib IN LISTS MPI_Fortran_LIBRARIES)
    string(APPEND GW_PC_FORTRAN_LIBS " ${lib}")
  endforeach()
  configure_file(cmake/ghostwire-fortran.pc.in ${PROJECT_BINARY_DIR}/ghostwire-fortran.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/ghostwire-fortran.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
