#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of bench/goals.py: the interval of a median, every verdict a goal can get (not measured
too: too few pairs where the run asked for more), and goal lines that print ratios only where both
sides are positive times."""
import math
import re
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import goals  # noqa: E402


class MedianInterval(unittest.TestCase):
    def test_small_samples_use_the_whole_range(self):
        self.assertEqual(goals.median_interval([3.0, 1.0, 2.0]), (2.0, 1.0, 3.0))
        self.assertEqual(goals.median_interval([5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 7.0, 8.0]), (4.5, 1.0, 8.0))

    def test_order_statistics(self):
        # n = 9: P(B(9, 1/2) <= 1) = 1.95% <= 2.5% < P(B <= 2), so x(2) .. x(8).
        self.assertEqual(goals.median_interval([float(v) for v in range(1, 10)]), (5.0, 2.0, 8.0))
        # n = 15: x(4) .. x(12).
        self.assertEqual(goals.median_interval([float(v) for v in range(15, 0, -1)]), (8.0, 4.0, 12.0))


class Judge(unittest.TestCase):
    def test_met_and_not_met_for_time_ratios(self):
        met = goals.judge("b", "here", "gw / mpi", [0.8, 0.9, 1.1], 1.0, at_least=False)
        self.assertEqual(met.status, "met")
        self.assertEqual(met.pairs, 3)
        missed = goals.judge("b", "here", "gw / mpi", [1.2] * 9, 1.0, at_least=False)
        self.assertEqual(missed.status, "NOT MET")

    def test_tie_when_the_interval_reaches_the_bound(self):
        tie = goals.judge("b", "here", "gw / mpi", [0.97, 0.98, 0.99, 0.99, 0.99, 1.0, 1.0, 1.01, 1.02], 1.0,
                          at_least=True)
        self.assertEqual(tie.status, "tie")
        self.assertIn("not resolved", tie.line())
        # The same ratios, but all of them below the bound and the median more than the
        # machine's reproducibility away: not a tie.
        self.assertEqual(goals.judge("b", "h", "r", [0.9, 0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.96, 0.96], 1.0,
                                     at_least=True).status, "NOT MET")
        # A tight interval below the bound, but the median within the reproducibility: a tie.
        near = 1.0 - goals.REPRODUCIBILITY / 2
        self.assertEqual(goals.judge("b", "h", "r", [near] * 15, 1.0, at_least=True).status, "tie")
        self.assertEqual(goals.judge("b", "h", "r", [1.0 + goals.REPRODUCIBILITY * 2] * 15, 1.0,
                                     at_least=False).status, "NOT MET")

    def test_floor(self):
        # The goal variant misses 0.95 of commfree, the floor misses it too, and the variant is
        # within 5% of the floor: judged against the floor.
        floor = goals.judge("heat", "h", "gw-pipelined / commfree", [0.90] * 9, 0.95, at_least=True,
                            floor_text="commfree-rows / commfree", floor_ratios=[0.92] * 9, versus_floor=[0.98] * 9)
        self.assertEqual(floor.status, "floor")
        self.assertIn("floor commfree-rows / commfree = 0.920", floor.line())
        # A floor within the reproducibility of the bound leaves no room either.
        near = goals.judge("heat", "h", "r", [0.90] * 9, 0.95, at_least=True, floor_text="f",
                           floor_ratios=[0.955] * 9, versus_floor=[0.96] * 9)
        self.assertEqual(near.status, "floor")
        # A floor that meets the bound with room to spare leaves the goal standing.
        standing = goals.judge("heat", "h", "r", [0.90] * 9, 0.95, at_least=True, floor_text="f",
                               floor_ratios=[0.99] * 9, versus_floor=[0.93] * 9)
        self.assertEqual(standing.status, "NOT MET")
        # At the floor and within the reproducibility of the bound from it: the run cannot tell.
        at_floor_tie = goals.judge("halo", "h", "gw / best MPI", [1.31] * 15, 1.0, at_least=False, floor_text="f",
                                   floor_ratios=[1.30] * 15, versus_floor=[1.01] * 15)
        self.assertEqual(at_floor_tie.status, "tie")
        # Far from the floor as well: not met.
        far = goals.judge("heat", "h", "r", [0.80] * 9, 0.95, at_least=True, floor_text="f",
                          floor_ratios=[0.92] * 9, versus_floor=[0.87] * 9)
        self.assertEqual(far.status, "NOT MET")

    def test_floor_with_its_own_bound(self):
        # A speed-up goal (time ratio at most 1/1.1) whose floor, no exchange at all, is itself above
        # the bound: the variant is judged against the floor at 1.0 (as fast as no exchange).
        def judge(versus, floor_bound=1.0):
            return goals.judge("cloverleaf", "h", "best gw / mpi", [0.95] * 9, 1 / 1.1, at_least=False,
                               floor_text="commfree / mpi", floor_ratios=[0.93] * 9, versus_floor=[versus] * 9,
                               floor_bound=floor_bound)
        self.assertEqual(judge(0.99).status, "floor")
        self.assertIn("(judged at most 1.00)", judge(0.99).line())
        self.assertEqual(judge(1.02).status, "tie")
        self.assertEqual(judge(1.08).status, "NOT MET")
        # Without its own bound the floor is held to the goal's, which no variant reaches here.
        self.assertEqual(judge(0.99, floor_bound=None).status, "NOT MET")

    def test_nothing_to_judge(self):
        self.assertIsNone(goals.judge("b", "h", "r", [], 1.0, at_least=True))
        self.assertEqual(goals.paired_ratios({0: 2.0, 1: 3.0, 2: 1.0}, {0: 1.0, 2: 2.0}), [2.0, 0.5])

    def test_ratios_of_positive_values_only(self):
        # A zero, negative, infinite or NaN time is no measurement to divide by or into.
        top = {0: 2.0, 1: -1.0, 2: math.nan, 3: math.inf, 4: 1.0, 5: 3.0}
        bottom = {0: 1.0, 1: 2.0, 2: 1.0, 3: 1.0, 4: 0.0, 5: -3.0}
        self.assertEqual(goals.paired_ratios(top, bottom), [2.0])
        self.assertIsNone(goals.paired_median({0: -1.0}, {0: 1.0}))
        self.assertEqual(goals.plain_ratio(3.0, 2.0), 1.5)
        for top, bottom in ((1.0, 0.0), (-1.0, 2.0), (1.0, math.nan), (math.inf, 1.0), (None, 1.0)):
            self.assertIsNone(goals.plain_ratio(top, bottom), (top, bottom))
        # Non-positive ratios never reach a verdict or a floor.
        verdict = goals.judge("b", "h", "r", [0.9, -0.5, math.nan, 0.8, 0.85], 1.0, at_least=False)
        self.assertEqual((verdict.pairs, verdict.status), (3, "met"))
        floored = goals.judge("b", "h", "gw / mpi", [1.3] * 9, 1.0, at_least=False, floor_text="f",
                              floor_ratios=[-2.0, math.inf, 1.2, 1.25, 1.3], versus_floor=[math.nan, -1.0, 1.0, 1.01])
        self.assertEqual(floored.floor.ratio, 1.25)
        self.assertEqual(floored.floor.versus, 1.005)


class NotMeasured(unittest.TestCase):
    def test_too_few_of_the_pairs_asked_for(self):
        # A cut run: 4 of 11 pairs give no ~95% interval (the whole range holds the median with
        # 87.5%), so no verdict, whatever the ratios say.
        cut = goals.judge("halo", "intra, 2d-512-h1", "gw / raw", [2.0, 2.1, 2.2, 2.3], 1.5, at_least=False, planned=11)
        self.assertEqual(cut.status, goals.NOT_MEASURED)
        line = cut.line()
        self.assertIn("goal not measured: intra, 2d-512-h1: gw / raw: only 4 of 11 paired repeats measured", line)
        self.assertIn(f"fewer than the {goals.MIN_PAIRS}", line)
        self.assertNotIn("2.1", line)  # no median, no interval: nothing that reads as a verdict
        self.assertIn("not measured", cut.ratio_text())
        # MIN_PAIRS of them are enough.
        self.assertEqual(goals.judge("h", "w", "r", [2.0] * goals.MIN_PAIRS, 1.5, at_least=False, planned=11).status,
                         "NOT MET")

    def test_a_design_with_few_pairs_keeps_its_verdicts(self):
        # Asked for 3 and measured 3: judged as before (the goal's design, not a cut).
        self.assertEqual(goals.judge("c", "w", "r", [0.9, 0.95, 0.97], 1.0, at_least=False, planned=3).status, "met")
        self.assertEqual(goals.judge("c", "w", "r", [0.9, 0.95], 1.0, at_least=False, planned=3).status,
                         goals.NOT_MEASURED)
        self.assertEqual(goals.judge("c", "w", "r", [0.9], 1.0, at_least=False).status, "met")

    def test_no_pairs_at_all(self):
        self.assertIsNone(goals.judge("b", "h", "r", [], 1.0, at_least=True))
        none = goals.judge("b", "h", "r", [], 1.0, at_least=True, planned=7, unit="paired runs")
        self.assertEqual((none.status, none.ratio, none.pairs), (goals.NOT_MEASURED, None, 0))
        self.assertIn("no paired runs of 7 measured", none.line())
        skipped = goals.not_measured("heat", "intra-2, 1024^2", "issue 4's goals", 1.0, at_least=True)
        self.assertEqual(skipped.line(), "  goal not measured: intra-2, 1024^2: issue 4's goals: no paired repeats "
                                         "measured (at least 1.00)")
        self.assertEqual(goals.counts([none, skipped])[goals.NOT_MEASURED], 2)
        self.assertIn("0 NOT MET, 2 not measured", goals.summary_line([none, skipped]))


# A number printed with a minus sign: no ratio of times can be negative.
NEGATIVE = re.compile(r"(?<![\w.])-\d")


class FloorBeyond(unittest.TestCase):
    """bench/petsc judges some goals beyond a floor by a ratio of differences, (gw - floor) /
    (basic - floor): negative where the floor took longer than ghostwire itself."""

    def floor(self, versus, low, high, below=0, pairs=9, plain=1.1):
        return goals.Floor("pack-floor / basic", 0.7, versus, low, high, 0.6, kind="beyond", plain=plain,
                           below=below, pairs=pairs)

    def test_floor_above_the_variant_is_said_in_words(self):
        verdict = goals.judge("petsc-sf", "intra-2, 3-D dof 4 n=16", "ghostwire / basic", [0.75] * 9, 0.6,
                              at_least=False)
        verdict.floor, verdict.status = self.floor(-1.479, -6.603, 0.596, below=7, plain=0.93), "floor"
        line = verdict.line()
        self.assertNotRegex(line, NEGATIVE)
        self.assertNotIn("ghostwire / floor =", line)
        self.assertIn("the pack-floor measured above ghostwire itself in 7 of 9 pairs "
                      "(ghostwire / pack-floor = 0.930): ghostwire reaches it", line)

    def test_an_interval_reaching_below_the_floor(self):
        line = goals.Floor.describe(self.floor(0.35, -0.2, 0.8, below=2), "ghostwire")
        self.assertNotRegex(line, NEGATIVE)
        self.assertIn("ghostwire's time beyond the pack-floor = 0.350 of basic's beyond it "
                      "[from below the floor to 0.800; below it in 2 of 9 pairs]", line)
        self.assertIn("[0.100-0.800]", goals.Floor.describe(self.floor(0.35, 0.1, 0.8), "ghostwire"))

    def test_plain_floor(self):
        floor = goals.Floor("commfree-rows / commfree", 0.92, 0.98, 0.95, 1.01)
        self.assertEqual(floor.describe("gw-pipelined"),
                         "floor commfree-rows / commfree = 0.920, gw-pipelined / floor = 0.980 [0.950-1.010]")


class RoundTrip(unittest.TestCase):
    def test_round_trip_through_json(self):
        verdicts = [goals.judge("heat", "h", "r", [0.90] * 9, 0.95, at_least=True, floor_text="f",
                                floor_ratios=[0.92] * 9, versus_floor=[0.98] * 9),
                    goals.judge("b", "h", "r", [1.0, 1.1], 1.2, at_least=False, headline=True),
                    goals.judge("c", "h", "r", [0.95] * 9, 0.9, at_least=False, floor_text="f",
                                floor_ratios=[0.93] * 9, versus_floor=[0.99] * 9, floor_bound=1.0),
                    goals.judge("d", "h", "r", [0.5, 0.6], 0.9, at_least=False, planned=11),
                    goals.not_measured("e", "h", "r", 1.0, at_least=True)]
        verdicts[0].floor.kind, verdicts[0].floor.plain, verdicts[0].floor.below = "beyond", 0.9, 3
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "goals.json"
            goals.write(path, verdicts)
            self.assertEqual(goals.read(path), verdicts)
        self.assertEqual(goals.counts(verdicts), {"met": 1, "tie": 0, "floor": 2, "NOT MET": 0, "not measured": 2})


if __name__ == "__main__":
    unittest.main()
