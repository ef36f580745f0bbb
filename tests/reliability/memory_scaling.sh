#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Per-rank memory stays O(neighbours x channels) as the job grows: runs memory_scaling on
# emulated nodes of 8 ranks at 16 and 64 ranks (oversubscribed on a small machine) and requires
# ghostwire's own heap per rank (the largest rank's) at 64 ranks to stay within 25% of that at 16.
# The whole heap and resident memory, which include MPI's per-peer state, are printed, not bounded.
#
#   memory_scaling.sh LAUNCH DRIVER
set -uo pipefail
launch="$1" driver="$2"
declare -A heap
for ranks in 16 64; do
  output=$("$launch" --path emulated --rpn 8 -n "$ranks" --timeout 600 -- "$driver" 2>&1)
  status=$?
  echo "$output" | grep -v "PMIX ERROR"
  line=$(echo "$output" | grep "^memory_scaling: ranks $ranks,")
  if (( status != 0 )) || [[ -z "$line" ]]; then echo "memory_scaling.sh: FAIL: the $ranks-rank run failed ($status)"; exit 1; fi
  heap[$ranks]=$(echo "$line" | sed -E 's/.*ghostwire heap per rank max ([0-9]+) .*/\1/')
done
limit=$(( heap[16] * 125 / 100 ))
echo "memory_scaling.sh: ghostwire heap per rank (largest rank): ${heap[16]} bytes at 16 ranks, ${heap[64]} bytes at 64 ranks (limit ${limit})"
if (( heap[64] > limit )); then echo "memory_scaling.sh: FAIL: per-rank memory grows with the job's size"; exit 1; fi
echo "memory_scaling.sh: per-rank memory bounded"
