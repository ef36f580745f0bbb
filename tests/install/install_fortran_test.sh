#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the build tree into a fresh prefix, then builds a Fortran consumer against it twice: with
# find_package(ghostwire) (a Fortran-only CMake project) and with pkg-config's ghostwire-fortran
# flags alone, and runs both.
#   install_fortran_test.sh BUILD_DIR SOURCE_DIR MPI_Fortran_COMPILER MPI_FLAVOR
set -euo pipefail
build="$1" source="$2" mpif90="$3" flavor="$4"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
launch="$source/../../scripts/launch"
cmake --install "$build" --prefix "$prefix/install" >/dev/null
cmake -S "$source/consumer_fortran" -B "$prefix/consumer" -DCMAKE_PREFIX_PATH="$prefix/install" \
      -DMPI_Fortran_COMPILER="$mpif90" >/dev/null
cmake --build "$prefix/consumer" >/dev/null
"$launch" --mpi "$flavor" -n 2 -- "$prefix/consumer/consumer_fortran"
export PKG_CONFIG_PATH="$prefix/install/lib/pkgconfig:$prefix/install/lib64/pkgconfig"
"$mpif90" $(pkg-config --cflags ghostwire-fortran) "$source/consumer_fortran/consumer.f90" -o "$prefix/consumer_pc" \
          $(pkg-config --libs ghostwire-fortran)
"$launch" --mpi "$flavor" -n 1 -- "$prefix/consumer_pc" | sed 's/^consumer_fortran:/consumer_fortran (pkg-config):/'
