#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Several jobs on one machine at once, each with its own grids and plans: every job must finish
# with every value right and its checksum equal to the closed form. A shared-memory name, port or
# file two jobs both used would mix their data (each job's values carry its own tag) or fail one.
#
#   concurrent_jobs.sh LAUNCH DRIVER --jobs K --path intra|emulated [--mpi M] [--rounds N]
set -uo pipefail
launch="$1" driver="$2"; shift 2
jobs=2 path=intra mpi=openmpi rounds=20000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --jobs) jobs="$2" ;; --path) path="$2" ;; --mpi) mpi="$2" ;; --rounds) rounds="$2" ;;
    *) echo "concurrent_jobs.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pids=()
for (( j = 0; j < jobs; ++j )); do
  # Two ranks per job; the emulated path makes each rank its own node (inter-node code).
  rpn=(); [[ "$path" == emulated ]] && rpn=(--rpn 1)
  "$launch" --mpi "$mpi" --path "$path" "${rpn[@]}" -n 2 --timeout 300 -- "$driver" --tag $(( j + 1 )) --rounds "$rounds" \
    > "$dir/job$j.out" 2>&1 &
  pids+=($!)
done
fail=0
for (( j = 0; j < jobs; ++j )); do
  wait "${pids[$j]}"; status=$?
  sed -e "s/^/    job $j | /" "$dir/job$j.out" | grep -v "PMIX ERROR"
  if (( status != 0 )) || ! grep -q "job_checksum tag $(( j + 1 )): .*: ok$" "$dir/job$j.out"; then
    echo "concurrent_jobs.sh: FAIL: job $j (tag $(( j + 1 ))) exited $status without a correct checksum"
    fail=1
  fi
done
if (( fail )); then echo "concurrent_jobs.sh: FAILED"; exit 1; fi
echo "concurrent_jobs.sh: $jobs jobs on the $path path at once, every one correct"
