# SPDX-License-Identifier: BSD-3-Clause
# Compute kernels built for this machine's vector units when the compiler can (-march=native: AVX2
# or AVX-512 instead of SSE2). -ffp-contract=off keeps every add and multiply as written (no fused
# multiply-adds), so the values stay bit-for-bit the same on any vector width. Vectors of 256 bits
# even where AVX-512 exists: a stencil's loads at j-1 and j+1 are never all aligned, and on AMD Zen
# 4 (GCC 12 tunes it as Zen 3 and picks 512 bits) every misaligned 64-byte access splits across
# two cache lines; 256-bit vectors split half as often and measured faster for every variant (the
# Jacobi benchmark's inner cells at 1024^2, 2 ranks: 310 -> 267 us for the Grid, 265 -> 258 for the
# MPI arrays; full rows 255 -> 229). Only kernel files
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
                                PROPERTIES COMPILE_OPTIONS "-march=native;-mprefer-vector-width=256;-ffp-contract=off")
  endif()
endfunction()
