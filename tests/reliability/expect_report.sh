#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs a command that must fail with a sanitizer report: passes only if it exits non-zero and its
# output matches REGEX.   expect_report.sh REGEX COMMAND [ARGS...]
set -uo pipefail
regex="$1"; shift
output=$("$@" 2>&1); status=$?
echo "$output" | grep -v "PMIX ERROR" | head -60
if (( status == 0 )); then echo "expect_report.sh: FAIL: the job exited 0: the report did not fail it"; exit 1; fi
if ! grep -qE "$regex" <<< "$output"; then echo "expect_report.sh: FAIL: no report matching '$regex'"; exit 1; fi
echo "expect_report.sh: reported and failed as expected (exit status $status)"
