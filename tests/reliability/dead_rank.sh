#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One rank of a job dies (or hangs) in the middle of an exchange: checks that the job ends within
# the wait timeout, non-zero, with the mechanism that was expected to end it, and that nothing the
# job created is left in /dev/shm.
#
#   dead_rank.sh LAUNCH DRIVER --path P --mpi M -n N --fault kill|stop|throw --api plan|grid
#                --ended-by launcher|ghostwire|ghostwire-all
#
# Which mechanism ends the survivors (docs/RELIABILITY.md, "A rank dies"):
#   launcher       the launcher sees the death (SIGKILL, or SIGABRT from an uncaught exception) and
#                  kills the other ranks at once: mpirun's "noticed that process rank V ... exited
#                  on signal S", MPICH's "KILLED BY SIGNAL: S"; no survivor reaches ghostwire's wait
#                  timeout.
#   ghostwire      the victim hangs (SIGSTOP, alive to the launcher): the first survivor whose wait
#                  times out prints ghostwire's diagnostic (the rank and slot it waited for) and
#                  exits 124, after which the launcher kills the rest.
#   ghostwire-all  Open MPI told to keep the job after a death (OMPI_MCA_orte_enable_recovery=1):
#                  every survivor ends by its own wait timeout with the diagnostic. Open MPI's
#                  mpirun then exits 0 in this mode, so the survivors' status is checked from their
#                  own report ("survivor ended by ghostwire's timeout", printed before _Exit(124)).
set -uo pipefail
launch="$1" driver="$2"; shift 2
path=intra mpi=openmpi ranks=4 fault=kill api=plan ended_by=launcher
while [[ $# -gt 0 ]]; do
  case "$1" in
    --path) path="$2" ;; --mpi) mpi="$2" ;; -n) ranks="$2" ;; --fault) fault="$2" ;; --api) api="$2" ;;
    --ended-by) ended_by="$2" ;;
    *) echo "dead_rank.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
timeout_s=5
victim=$(( ranks - 1 ))
export GHOSTWIRE_TIMEOUT=$timeout_s GHOSTWIRE_ON_TIMEOUT=throw
[[ "$ended_by" == ghostwire-all ]] && export OMPI_MCA_orte_enable_recovery=1
fail=0
problem() { echo "dead_rank.sh: FAIL: $*"; fail=1; }

before=$(mktemp); output=$(mktemp)
trap 'rm -f "$before" "$output"' EXIT
ls /dev/shm | sort > "$before"
start_ms=$(( $(date +%s%N) / 1000000 ))
"$launch" --mpi "$mpi" --path "$path" -n "$ranks" --timeout 60 -- "$driver" --fault "$fault" --api "$api" \
  --victim "$victim" > "$output" 2>&1
status=$?
elapsed_ms=$(( $(date +%s%N) / 1000000 - start_ms ))
elapsed="$(( elapsed_ms / 1000 )).$(printf %03d $(( elapsed_ms % 1000 )))"
sed -e 's/^/    | /' "$output" | grep -v "PMIX ERROR" | cut -c1-300
echo "dead_rank.sh: $fault of rank $victim ($api, $path, $mpi, $ranks ranks): launcher exit status $status after ${elapsed} s, expected to be ended by: $ended_by"

grep -q "rank $victim injects '$fault'" "$output" || problem "the victim never reached the fault"
# Within the wait timeout plus the launcher's start-up and tear-down (the launch limit is 60 s).
(( elapsed_ms < (timeout_s + 25) * 1000 )) || problem "the job took ${elapsed} s (wait timeout ${timeout_s} s)"
diagnostic="rank ([0-9]+) \\(node [0-9]+, node rank [0-9]+\\) timed out after $timeout_s s waiting for .*(message [0-9]+) on channel [0-9]+ with rank [0-9]+ of plan [0-9]+"
survivors=$(grep -cE "survivor ended by ghostwire's timeout: ghostwire: $diagnostic" "$output")
case "$ended_by" in
  launcher)
    (( status != 0 )) || problem "the launcher returned 0"
    case "$fault" in kill) signal=9 ;; *) signal=6 ;; esac
    grep -qE "noticed that process rank $victim .* exited on signal $signal|KILLED BY SIGNAL: $signal" "$output" ||
      problem "no launcher report of rank $victim's signal $signal"
    (( survivors == 0 )) || problem "$survivors survivors reached ghostwire's timeout; expected the launcher to end them first"
    ;;
  ghostwire)
    (( status != 0 )) || problem "the launcher returned 0"
    (( survivors >= 1 )) || problem "no survivor printed ghostwire's timeout diagnostic naming a rank and slot"
    ;;
  ghostwire-all)
    (( survivors == ranks - 1 )) || problem "$survivors of $(( ranks - 1 )) survivors printed ghostwire's timeout diagnostic"
    for (( r = 0; r < ranks; ++r )); do
      (( r == victim )) && continue
      grep -qE "rank $r survivor ended by ghostwire's timeout: ghostwire: rank $r " "$output" || problem "rank $r did not end by its wait timeout"
    done
    ;;
  *) echo "dead_rank.sh: unknown --ended-by $ended_by" >&2; exit 2 ;;
esac
if [[ "$ended_by" != launcher ]]; then
  # A part of a message combined per pair of nodes names the ranks that pack, send and receive the
  # whole: a rank on another node sees the victim among those that pack.
  grep -qE "timed out after $timeout_s s waiting for .*( with rank $victim of plan|packed by ranks? ([0-9]+, )*$victim\b|(sent|received) by rank $victim\b)" \
    "$output" || problem "no survivor's diagnostic names rank $victim"
fi

# Shared memory: the names the job mapped (announced by every rank) and anything else carrying
# the job's Open MPI id must be gone. ghostwire's Segments are MPI shared windows (Open MPI:
# /dev/shm/osc_sm.HOST.JOBID.*, unlinked once every rank has mapped them; MPICH: unlinked at once).
mapped=$(grep -oE "maps shm:.*" "$output" | sed 's/^maps shm://' | tr ' ' '\n' | grep . | sort -u)
left=""
for name in $mapped; do [[ -e "$name" ]] && left+=" $name"; done
jobs=$(echo "$mapped" | sed -nE 's|^/dev/shm/vader_segment\.[^.]+\.[0-9]+\.([0-9a-f]+)\.[0-9]+$|\1|p' | sort -u)
for job in $jobs; do
  for name in $(comm -13 "$before" <(ls /dev/shm | sort) | grep -F ".$job." ); do left+=" /dev/shm/$name"; done
done
if [[ -n "$left" ]]; then problem "left in /dev/shm:$left"; else echo "dead_rank.sh: nothing of the job left in /dev/shm (checked:$(echo $mapped) and names with job id ${jobs:-none})"; fi

(( fail )) && { echo "dead_rank.sh: FAILED"; exit 1; }
echo "dead_rank.sh: ended as expected"
