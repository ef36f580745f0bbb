#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The main job with no time for any step (bench/run_suite.py --quick --budget 0.05: 3 s, less than a
# step's minimum): every step is skipped, nothing runs, and the report must still say so in every
# place: the progress lines, the "Time budget" section, the closing summary (its "not measured"
# column), goals.json and meta.json.
#   suite_budget.sh PYTHON SOURCE_DIR BUILD_DIR OUT_DIR
set -eu
python=$1 source=$2 build=$3 out=$4
rm -rf "$out"
"$python" "$source/bench/run_suite.py" --quick --only latency,heat --paths intra --budget 0.05 --no-plots \
  --build-dir "$build" --results "$out" > "$out.log" 2>&1 || {
  cat "$out.log"; echo "suite_budget: run_suite.py failed"; exit 1; }
cat "$out.log"
folder=$(ls -d "$out"/*)
fail() { echo "suite_budget: $*"; exit 1; }
grep -q "budget: run_suite: no time left in the budget; latency on intra skipped" "$out.log" || fail "no skip line"
grep -q "^Time budget: 0.1 minutes, .*; 2 of 2 steps cut short by it" "$out.log" || fail "no 'Time budget' section"
grep -Eq "^  heat on intra-2 +3s +[0-9]+s +[0-9]+s  skipped$" "$out.log" || fail "no row of the skipped heat step"
grep -q "^Time budget 0.1 minutes, .*: skipped latency on intra, heat on intra-2" "$out.log" || fail "no budget line"
grep -q "^heat: skipped, no time left in the budget" "$out.log" || fail "no word on the skipped heat"
# Every goal of the skipped launch, and the skipped driver's, counted as not measured.
goals=$("$python" -c "import sys; sys.path.insert(0, '$source/bench'); import run_suite
print(len(next(b for b in run_suite.SUITE if b.name == 'latency').goals))")
grep -Eq "^latency +0 +0 +0 +0 +$goals$" "$out.log" || fail "latency's $goals goals are not all 'not measured'"
grep -Eq "^heat +0 +0 +0 +0 +1$" "$out.log" || fail "heat is not 'not measured'"
"$python" - "$folder" <<'PY' || fail "goals.json or meta.json do not record the cut"
import json, sys
from pathlib import Path
folder = Path(sys.argv[1])
verdicts = json.loads((folder / "goals.json").read_text())
assert verdicts and all(v["status"] == "not measured" for v in verdicts), verdicts
budget = json.loads((folder / "meta.json").read_text())["budget"]
assert budget["minutes"] == 0.05 and all(step["skipped"] for step in budget["steps"]), budget
PY
echo "suite_budget: passed"
