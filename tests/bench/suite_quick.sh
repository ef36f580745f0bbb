#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The main job in its smoke-test form, end to end: bench/run_suite.py --quick must succeed, print
# the closing summary with every benchmark (a column per verdict: met, tie, floor, NOT MET, not
# measured) and its time budget, and leave goals.json, report.md, the plots and meta.json's record
# of every step against its share of the budget.
#   suite_quick.sh PYTHON SOURCE_DIR BUILD_DIR OUT_DIR
set -eu
python=$1 source=$2 build=$3 out=$4
rm -rf "$out"
"$python" "$source/bench/run_suite.py" --quick --build-dir "$build" --results "$out" > "$out.log" 2>&1 || {
  cat "$out.log"; echo "suite_quick: run_suite.py failed"; exit 1; }
cat "$out.log"
folder=$(ls -d "$out"/*)
for file in goals.json report.md summary.txt latency.png halo.png dist.png heat/heat.png minighost/minighost.png; do
  [ -s "$folder/$file" ] || { echo "suite_quick: $folder/$file is missing or empty"; exit 1; }
done
for benchmark in latency bandwidth halo dist heat minighost; do
  grep -Eq "^$benchmark +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$" "$out.log" || {
    echo "suite_quick: no summary row for $benchmark"; exit 1; }
done
grep -q "^Time budget 5.0 minutes, " "$out.log" || { echo "suite_quick: no word on the time budget"; exit 1; }
"$python" -c "import json, sys
steps = json.load(open(sys.argv[1]))['budget']['steps']
assert steps and all(s['budget'] > 0 and s['seconds'] > 0 for s in steps), steps" "$folder/meta.json" || {
  echo "suite_quick: meta.json has no budget record of every step"; exit 1; }
if [ -x "$build/bench/petsc/gw-petsc-sf-bench" ]; then  # built where PETSc is
  [ -s "$folder/petsc/petsc_sf.png" ] || { echo "suite_quick: $folder/petsc/petsc_sf.png is missing or empty"; exit 1; }
  grep -Eq "^petsc +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$" "$out.log" || { echo "suite_quick: no summary row for petsc"; exit 1; }
fi
echo "suite_quick: passed"
