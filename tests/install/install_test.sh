#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the build tree into a fresh prefix, then builds two consumers against it: one with
# find_package(ghostwire), one with pkg-config alone, and runs both.
#   install_test.sh BUILD_DIR SOURCE_DIR MPI_CXX_COMPILER
set -euo pipefail
build="$1" source="$2" mpicxx="$3"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix/install" >/dev/null
cmake -S "$source/consumer" -B "$prefix/consumer" -DCMAKE_PREFIX_PATH="$prefix/install" \
      -DMPI_CXX_COMPILER="$mpicxx" >/dev/null
cmake --build "$prefix/consumer" >/dev/null
"$source/../../scripts/launch" -n 1 -- "$prefix/consumer/consumer"
export PKG_CONFIG_PATH="$prefix/install/lib/pkgconfig:$prefix/install/lib64/pkgconfig"
cc $(pkg-config --cflags ghostwire) "$source/consumer/consumer_c.c" -o "$prefix/consumer_c" $(pkg-config --libs ghostwire)
"$source/../../scripts/launch" -n 1 -- "$prefix/consumer_c"
