#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's from-source install, run as written: its install commands (the sh block after the
# README's "install commands" marker) configure, build and install the library with tests, apps and
# benchmarks off into $HOME/opt/ghostwire (here HOME is a scratch folder and the build folder lies
# there too), then its two ways of using it: an outside CMake project (find_package) and an
# outside Makefile (pkg-config), each built and run on 2 ranks.
#   readme_install_test.sh SOURCE_DIR [LAUNCHER...]
# LAUNCHER: a compiler launcher for C and C++ (the build tree's: ccache over its cache), handed to
# CMake through its environment variables, so the README's commands run unchanged.
set -euo pipefail
source_dir="$(cd "$1" && pwd)"
shift
if (( $# )); then
  CMAKE_CXX_COMPILER_LAUNCHER="$(IFS=';'; echo "$*")"
  export CMAKE_CXX_COMPILER_LAUNCHER CMAKE_C_COMPILER_LAUNCHER="$CMAKE_CXX_COMPILER_LAUNCHER"
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
launch="$source_dir/scripts/launch"

# The commands between the marker and the end of the first sh block after it.
commands="$(awk '/<!-- install commands/ {found = 1; next}
                 found && /^```sh/ {inside = 1; next}
                 inside && /^```/ {exit}
                 inside {print}' "$source_dir/README.md")"
[[ -n "$commands" ]] || { echo "readme_install_test: no install commands found in README.md" >&2; exit 1; }
grep -q -- "-B build" <<<"$commands" || { echo "readme_install_test: the commands build no 'build' folder" >&2; exit 1; }
echo "== the README's install commands:"
echo "$commands"
# As a user would, from the top of the source tree, but with the build folder in the scratch one.
commands="${commands//-B build/-B $scratch/build}"
commands="${commands//--build build/--build $scratch/build}"
commands="${commands//--install build/--install $scratch/build}"
(cd "$source_dir" && HOME="$scratch" bash -euo pipefail -c "$commands") >"$scratch/install.log" 2>&1 ||
  { tail -40 "$scratch/install.log"; echo "readme_install_test: the README's install commands failed" >&2; exit 1; }
prefix="$scratch/opt/ghostwire"
[[ -f "$prefix/include/ghostwire/ghostwire.hpp" ]] || { echo "readme_install_test: nothing installed in $prefix" >&2; exit 1; }
for unwanted in gw-bench gw-heat; do
  if find "$scratch/build" -name "$unwanted" -type f | grep -q .; then
    echo "readme_install_test: the library-only build built $unwanted" >&2; exit 1
  fi
done

cp -r "$source_dir/tests/install/consumer" "$scratch/cmake-project"
cmake -S "$scratch/cmake-project" -B "$scratch/cmake-project/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$scratch/cmake-project/build" >/dev/null
"$launch" -n 2 -- "$scratch/cmake-project/build/consumer" | sed 's/^consumer:/consumer (find_package):/'

cp -r "$source_dir/tests/install/consumer" "$scratch/make-project"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s -C "$scratch/make-project" >/dev/null
"$launch" -n 2 -- "$scratch/make-project/consumer" | sed 's/^consumer:/consumer (pkg-config Makefile):/'
"$launch" -n 2 -- "$scratch/make-project/consumer_c"
