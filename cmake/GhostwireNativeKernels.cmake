# Compute kernels built for this machine's vector units when the compiler can (-march=native: AVX2
# or AVX-512 instead of SSE2). -ffp-contract=off keeps every add and multiply as written (no fused
# multiply-adds), so the values stay bit-for-bit the same on any vector width. Only kernel files
# get it, and in the benchmarks the ghostwire and MPI variants of a kernel share the file, so both
# are compiled alike. Turn off for binaries that must run on other machines than the build machine.
option(GHOSTWIRE_NATIVE_KERNELS "Build the proxy apps' and benchmarks' compute kernels with -march=native" ON)
if(GHOSTWIRE_NATIVE_KERNELS)
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag("-march=native" GHOSTWIRE_HAVE_MARCH_NATIVE)
endif()

# gw_native_kernels(file...): the listed source files are kernels (see above).
function(gw_native_kernels)
  if(GHOSTWIRE_NATIVE_KERNELS AND GHOSTWIRE_HAVE_MARCH_NATIVE)
    set_source_files_properties(${ARGN} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                                PROPERTIES COMPILE_OPTIONS "-march=native;-ffp-contract=off")
  endif()
endfunction()
