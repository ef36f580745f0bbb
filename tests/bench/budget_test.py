#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of the time budget: the suite's shares of it (bench/run_suite.py SuiteBudget), a
driver's plan of rounds within its share (bench_common.Budget), ending a streamed job at a round's
end (Heat's RoundWatch, bench_common.stream_job), what a cut run records and says (budget.json, the
summary), and the goals of a cut run: not measured where too few pairs are left."""
import io
import json
import math
import re
import sys
import tempfile
import time
import unittest
from contextlib import redirect_stdout
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH / "heat"))
sys.path.insert(0, str(BENCH / "petsc"))
import bench_common  # noqa: E402
import goals  # noqa: E402
import run_heat_bench as heat  # noqa: E402
import run_petsc_bench as petsc  # noqa: E402
import run_suite  # noqa: E402


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def quiet(function, *args, **kwargs):
    with redirect_stdout(io.StringIO()) as out:
        result = function(*args, **kwargs)
    return result, out.getvalue()


class SuiteShares(unittest.TestCase):
    def budget(self, seconds, expected, report=10.0):
        clock = FakeClock()
        steps = [run_suite.StepTime(f"step {k}", e) for k, e in enumerate(expected)]
        return run_suite.SuiteBudget(seconds, steps, report_seconds=report, clock=clock), clock

    def test_shares_in_proportion_to_the_expected_seconds(self):
        budget, clock = self.budget(110.0, [10.0, 30.0, 60.0])
        first, _ = quiet(budget.begin)
        self.assertAlmostEqual(first.budget, 10.0)  # (110 - 10) x 10 / 100
        clock.now += 10.0
        budget.end(first, clock.now - 10.0)
        second, _ = quiet(budget.begin)
        self.assertAlmostEqual(second.budget, 30.0)

    def test_a_step_that_overran_leaves_less_to_the_later_ones(self):
        budget, clock = self.budget(110.0, [10.0, 30.0, 60.0])
        first, _ = quiet(budget.begin)
        clock.now += 28.0  # 18 s over its share
        budget.end(first, clock.now - 28.0)
        second, _ = quiet(budget.begin)
        self.assertAlmostEqual(second.budget, (100.0 - 28.0) * 30 / 90)
        clock.now += second.budget
        budget.end(second, clock.now - second.budget)
        third, _ = quiet(budget.begin)
        # The last step gets exactly what is left: the run ends within its budget.
        self.assertAlmostEqual(28.0 + second.budget + third.budget, 100.0)
        self.assertTrue(first.over)
        self.assertFalse(second.over)
        # Two steps took 52 s against their expected 40: the rest is estimated at that pace.
        self.assertAlmostEqual(budget.pace(), (28.0 + second.budget) / 40.0)

    def test_one_that_finished_early_leaves_more(self):
        budget, clock = self.budget(110.0, [10.0, 30.0, 60.0])
        first, _ = quiet(budget.begin)
        clock.now += 2.0
        budget.end(first, clock.now - 2.0)
        second, _ = quiet(budget.begin)
        self.assertAlmostEqual(second.budget, 98.0 * 30 / 90)

    def test_a_small_share_takes_the_minimum_from_the_later_steps(self):
        budget, clock = self.budget(110.0, [1.0, 30.0, 69.0])
        first, _ = quiet(budget.begin)
        self.assertEqual((first.budget, first.skipped), (run_suite.MIN_STEP_SECONDS, False))

    def test_no_time_left_skips_the_step(self):
        budget, clock = self.budget(110.0, [10.0, 30.0, 60.0])
        first, _ = quiet(budget.begin)
        clock.now += 99.0
        budget.end(first, clock.now - 99.0)
        second, said = quiet(budget.begin)
        self.assertTrue(second.skipped)
        self.assertIn("budget: run_suite: no time left in the budget; step 1 skipped", said)
        self.assertEqual(second.cut, ["skipped: 1 s left for it"])

    def test_the_progress_line_is_honest(self):
        budget, clock = self.budget(700.0, [100.0, 200.0, 300.0], report=15.0)
        first, said = quiet(budget.begin)
        self.assertIn("[1/3] step 0, budget 1:54  (0:00 so far, about 10:15 left)", said)  # 600 s + the report
        clock.now += 200.0  # twice as long as expected: the rest too, but no longer than the budget
        budget.end(first, clock.now - 200.0)
        _, said = quiet(budget.begin)
        self.assertIn("(3:20 so far, about 8:20 left)", said)  # 485 s left in the budget + 15 s

    def test_the_record_and_the_summary_section(self):
        budget, clock = self.budget(110.0, [10.0, 30.0])
        step, _ = quiet(budget.begin)
        step.cut.append("gw-bench halo --deadline 9.0 s cut this run short: 2d-2048-h2 6 of 11 repetitions")
        clock.now += 30.0  # its share was 25 s: (110 - 10) x 10 / 40
        budget.end(step, clock.now - 30.0)
        record = budget.record()
        self.assertEqual(json.loads(json.dumps(record))["steps"][0]["seconds"], 30.0)
        self.assertTrue(record["steps"][0]["over"])
        text = run_suite.budget_section(record, 0.2)
        self.assertIn("Time budget: 1.8 minutes, 0.2 taken; 1 of 2 steps cut short by it", text)
        self.assertRegex(text, r"step 0 +10s +25s +30s  cut  over its budget")
        self.assertIn("2d-2048-h2 6 of 11 repetitions", text)
        self.assertIn("cut short step 0", run_suite.budget_line(record, 0.2))


class DriverPlan(unittest.TestCase):
    def test_without_a_budget_everything_runs(self):
        budget = bench_common.Budget("t", None)
        self.assertEqual(budget.plan(11, 1.0, 1.0, 1000.0), (11, math.inf))

    def test_rounds_within_the_share(self):
        clock = FakeClock()
        budget = bench_common.Budget("t", 105.0, reserve=5.0, clock=clock)
        budget.done(10.0, 10.0)  # a job measured at the model's pace
        # 100 s left; this job expected 1 + 10 x 2 = 21 s of 21 + 29: its share is 42 s, so all 10.
        self.assertEqual(budget.plan(10, 2.0, 1.0, 29.0)[0], 10)
        # The same job among 21 + 79 s of work: 21 s, all 10 again; among 21 + 179: 10.5 s, 4 rounds.
        self.assertEqual(budget.plan(10, 2.0, 1.0, 79.0)[0], 10)
        self.assertEqual(budget.plan(10, 2.0, 1.0, 179.0)[0], 4)

    def test_before_any_job_the_model_alone_cuts_nothing(self):
        # The model says 21 + 179 s of work for 100 s: it may be twice too slow (minighost's was),
        # so the first job runs whole; once it took half its model's time, the rest fit too.
        clock = FakeClock()
        budget = bench_common.Budget("t", 105.0, reserve=5.0, clock=clock)
        self.assertEqual(budget.plan(10, 2.0, 1.0, 179.0)[0], 10)
        budget.done(21.0, 10.5)
        clock.now += 10.5
        self.assertEqual(budget.plan(10, 2.0, 1.0, 158.0)[0], 10)
        # Had it taken its model's time, the next job would be cut to its share.
        slow = bench_common.Budget("t", 105.0, reserve=5.0, clock=FakeClock())
        slow.plan(10, 2.0, 1.0, 179.0)
        slow.done(21.0, 21.0)
        slow.clock.now += 21.0
        self.assertLess(slow.plan(10, 2.0, 1.0, 158.0)[0], 10)

    def test_the_pace_measured_cuts_the_later_jobs(self):
        clock = FakeClock()
        budget = bench_common.Budget("t", 105.0, reserve=5.0, clock=clock)
        budget.done(20.0, 30.0)  # 1.5 times the model: a slow phase
        clock.now += 30.0
        # 70 s left, all of it for this job: 70 / 1.5 = 46.7 model seconds, 1 + 22 x 2 of them.
        self.assertEqual(budget.plan(30, 2.0, 1.0, 0.0)[0], 22)
        # A key that ran before is planned by its own pace.
        budget.done(10.0, 10.0, key="fast")
        self.assertEqual(budget.plan(30, 2.0, 1.0, 0.0, key="fast")[0], 30)

    def test_no_room_for_the_minimum_skips_the_job(self):
        clock = FakeClock()
        budget = bench_common.Budget("t", 10.0, reserve=2.0, clock=clock)
        clock.now += 7.5
        self.assertEqual(budget.plan(5, 1.0, 1.0, 0.0)[0], 0)   # 0.5 s left: not even one round
        self.assertEqual(budget.plan(5, 0.1, 0.1, 0.0)[0], 4)
        self.assertEqual(budget.plan(5, 0.1, 0.1, 0.0, keep=5)[0], 4)  # what fits: tables, if no verdicts

    def test_a_goal_job_keeps_its_pairs_at_the_later_jobs_cost(self):
        clock = FakeClock()
        budget = bench_common.Budget("t", 105.0, reserve=5.0, clock=clock)
        budget.done(10.0, 10.0)  # a job measured at the model's pace
        # 100 s left, this job's share 10 s: 4 of its 11 rounds, too few for a verdict (goals.py
        # MIN_PAIRS); it takes 5 from the time left instead.
        self.assertEqual(budget.plan(11, 2.0, 1.0, 207.0)[0], 4)
        rounds, allowed = budget.plan(11, 2.0, 1.0, 207.0, keep=goals.MIN_PAIRS)
        self.assertEqual((rounds, allowed), (5, 11.0))
        self.assertEqual(budget.plan(3, 2.0, 1.0, 1000.0, keep=goals.MIN_PAIRS)[0], 3)  # asked for fewer: all

    def test_a_budget_far_too_small_measures_the_first_jobs(self):
        # 8 s left for 16 jobs of at least 1.1 s: each share (0.5 s) holds no round, but the first
        # jobs take one round each from the time left, and the last ones are skipped; not every
        # other job, as shares alone would have it once the skipped ones left their time over.
        clock = FakeClock()
        budget = bench_common.Budget("t", 10.0, reserve=2.0, clock=clock)
        ran = []
        budget.done(1.0, 1.0)  # a job measured at the model's pace
        for job in range(16):
            rounds, _ = budget.plan(3, 0.1, 1.0, 1.3 * (15 - job))
            ran.append(rounds)
            clock.now += 1.0 + 0.1 * rounds if rounds else 0.0
            if rounds:
                budget.done(1.0 + 0.1 * rounds, 1.0 + 0.1 * rounds)
        self.assertEqual(ran, [1] * 7 + [0] * 9)
        self.assertAlmostEqual(budget.reserve, 2.0)
        self.assertAlmostEqual(bench_common.Budget("t", 5.0).reserve, 1.0)  # a fifth of a small budget

    def test_what_a_cut_run_records_and_says(self):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder)
            budget = bench_common.Budget("run_x_bench", 60.0)
            _, said = quiet(budget.cut, "intra-2 1024x1024", 9, 13, "runs per point")
            self.assertEqual(said, "budget: run_x_bench: the time budget (60 s) cut intra-2 1024x1024: 9 of 13 runs "
                                   "per point\n")
            quiet(budget.skip, "multihost-2 1024x1024", goals="issue 4's goals", goal_where="multihost-2, 1024^2")
            budget.save(out)
            bench_common.Budget("run_x_bench", 30.0).save(out)  # a second run into the folder, nothing cut
            bench_common.Budget("run_x_bench", None).save(out)  # no budget: nothing recorded
            self.assertEqual(len(json.loads((out / "budget.json").read_text())), 2)
            lines = bench_common.budget_lines(out)
            self.assertEqual(lines[1:], ["  intra-2 1024x1024: 9 of 13 runs per point",
                                         "  multihost-2 1024x1024: skipped, no time left"])
            self.assertIn("Cut short by the time budget (run_x_bench: 60 s", lines[0])
            self.assertEqual(bench_common.skipped_goals(out), [("multihost-2, 1024^2", "issue 4's goals")])
            # Where a later job measured the point after all, no "not measured" beside its verdict.
            measured = goals.judge("heat", "multihost-2, 1024^2", "r", [1.0] * 5, 1.0, at_least=True)
            self.assertEqual(goals.not_measured_where_skipped("heat", bench_common.skipped_goals(out), [measured],
                                                              at_least=True), [])
            [skipped] = goals.not_measured_where_skipped("heat", bench_common.skipped_goals(out), [], at_least=True)
            # No bound: the skipped point's goals were never set up, so none is printed.
            self.assertEqual(skipped.line(), "  goal not measured: multihost-2, 1024^2: issue 4's goals: no paired "
                                             "repeats measured")
            text, _ = quiet(bench_common.write_report, "run_x_bench", out, "x.jsonl", [{"a": 1}],
                            lambda r: "the table", lambda r, o: None)
            self.assertTrue(text.startswith("the table\n\nCut short by the time budget"))


class StreamedJob(unittest.TestCase):
    def test_ended_when_asked(self):
        seen = []

        def on_line(line):
            seen.append(line.strip())
            return line.strip() == "b"
        began = time.monotonic()
        status, ended = bench_common.stream_job(["sh", "-c", "echo a; echo b; sleep 30; echo c"], on_line)
        self.assertTrue(ended)
        self.assertNotEqual(status, 0)
        self.assertEqual(seen, ["a", "b"])
        self.assertLess(time.monotonic() - began, 10)

    def test_ended_at_the_deadline(self):
        began = time.monotonic()
        status, ended = bench_common.stream_job(["sh", "-c", "sleep 30"], lambda line: False,
                                                deadline=time.monotonic() + 0.3)
        self.assertTrue(ended)
        self.assertLess(time.monotonic() - began, 10)

    def test_a_job_that_ends_itself(self):
        status, ended = bench_common.stream_job(["sh", "-c", "echo a; exit 3"], lambda line: False,
                                                deadline=time.monotonic() + 30)
        self.assertEqual((status, ended), (3, False))


class HeatRounds(unittest.TestCase):
    def test_the_job_ends_at_the_round_that_leaves_no_room(self):
        clock = FakeClock()
        watch = heat.RoundWatch(configs=2, allowed=9.0, clock=clock)
        clock.now += 2.0  # calibration
        self.assertEqual(watch.add({"run": 1, "variant": "a"}), ([], False))
        clock.now += 1.5
        done, stop = watch.add({"run": 1, "variant": "b"})
        self.assertEqual(len(done), 2)   # a round is written when complete
        self.assertFalse(stop)           # 3.5 s so far, a round ~3 s (1.5 x 2): 6.5 < 9
        clock.now += 1.5
        watch.add({"run": 2, "variant": "a"})
        clock.now += 1.5
        done, stop = watch.add({"run": 2, "variant": "b"})
        self.assertTrue(stop)            # 6.5 s so far + 3 s > 9: end the job here
        self.assertEqual(watch.complete_rounds(), 2)
        self.assertEqual(watch.add({"run": 3, "variant": "a"}), ([], False))  # after the end: ignored

    def test_the_goal_launch_keeps_its_pairs(self):
        # The same rounds, but a goal's job keeps 3: it goes on past its share (the later jobs and
        # the driver's hard end at its budget take the difference).
        clock = FakeClock()
        watch = heat.RoundWatch(configs=1, allowed=2.0, keep=3, clock=clock)
        stops = []
        for run in range(1, 5):
            clock.now += 1.5
            stops.append(watch.add({"run": run})[1])
        self.assertEqual(stops, [False, False, True, False])
        self.assertEqual(watch.complete_rounds(), 3)


class CutGoals(unittest.TestCase):
    def halo(self):
        return next(b for b in run_suite.SUITE if b.name == "halo-reverse")

    def record(self, case, impl, repeats, asked=9):
        return {"bench": "halo", "case": case, "impl": impl, "launch": "intra", "usec": 1.0,
                "usec_per_repeat": repeats, "repeats": len(repeats), "repeats_asked": asked}

    def test_too_few_repetitions_left_are_not_measured(self):
        bench = self.halo()
        records = [self.record("2d-512-h1", "gw", [1.0] * 3), self.record("2d-512-h1", "mpi-persistent", [2.0] * 3),
                   self.record("2d-512-h2", "gw", [1.0] * 6), self.record("2d-512-h2", "mpi-persistent", [2.0] * 6)]
        verdicts = {v.where: v for v in run_suite.judge_goals(bench, records, {"intra"})}
        self.assertEqual(verdicts["intra, 2d-512-h1"].status, goals.NOT_MEASURED)
        self.assertEqual(verdicts["intra, 2d-512-h2"].status, "met")
        # The cases the deadline left out: their goals are not measured, not silently gone.
        self.assertEqual(verdicts["intra, unstructured"].status, goals.NOT_MEASURED)
        self.assertEqual(len(verdicts), len(bench.goals))
        # Without a cut, missing cases are not goals of this run (e.g. --cases).
        self.assertEqual(len(run_suite.judge_goals(bench, records)), 2)

    def test_goals_whose_implementations_are_not_built_stay_out(self):
        bench = next(b for b in run_suite.SUITE if b.name == "halo")
        records = [{**self.record("2d-512-h1", impl, [1.0] * 11, 11), "bench": "halo"}
                   for impl in ("gw", "mpi-isend", "raw")]
        verdicts = run_suite.judge_goals(bench, records, {"intra"})
        self.assertFalse([v for v in verdicts if "peer" in v.text])  # no PETSc or GA in this build


class PrintedRatios(unittest.TestCase):
    def test_petsc_floor_above_ghostwire(self):
        # ghostwire below the pack floor in most rounds, basic just above it: the ratio of
        # differences is negative; the line says so in words and shows only plain ratios.
        gw = {k: 9.0 + 0.1 * k for k in range(9)}
        floor = {k: 10.0 for k in range(9)}
        basic = {k: 11.0 for k in range(9)}
        verdict = goals.judge("petsc-sf", "intra-2, 3-D dof 4 n=128", "ghostwire / basic",
                              goals.paired_ratios(gw, basic), 0.6, False, unit="paired rounds")
        petsc.judge_beyond_floor(verdict, gw, basic, "pack-floor", floor)
        line = verdict.line()
        self.assertEqual(verdict.status, "floor")
        self.assertNotRegex(line, re.compile(r"(?<![\w.])-\d"))
        self.assertIn("the pack-floor measured above ghostwire itself in 9 of 9 pairs (ghostwire / pack-floor = "
                      "0.940): ghostwire reaches it", line)

    def test_summary_tables_show_no_impossible_ratio(self):
        # A Heat point whose commfree median is zero (a broken run): no "inf" in the ratio rows.
        records = [{"launch": "intra-2", "rows": 512, "bx": 16, "variant": v, "mupdates_per_s": rate, "run": 1,
                    "runs": 1} for v, rate in (("gw-pipelined", 10.0), ("commfree", 0.0), ("mpi-blocking", 8.0))]
        text = heat.summary(records)
        self.assertNotRegex(text, r"inf|nan|(?<![\w.])-\d")


if __name__ == "__main__":
    unittest.main()
