#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of bench/goals.py: the interval of a median, and every verdict a goal can get."""
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

    def test_round_trip_through_json(self):
        verdicts = [goals.judge("heat", "h", "r", [0.90] * 9, 0.95, at_least=True, floor_text="f",
                                floor_ratios=[0.92] * 9, versus_floor=[0.98] * 9),
                    goals.judge("b", "h", "r", [1.0, 1.1], 1.2, at_least=False, headline=True),
                    goals.judge("c", "h", "r", [0.95] * 9, 0.9, at_least=False, floor_text="f",
                                floor_ratios=[0.93] * 9, versus_floor=[0.99] * 9, floor_bound=1.0)]
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "goals.json"
            goals.write(path, verdicts)
            self.assertEqual(goals.read(path), verdicts)
        self.assertEqual(goals.counts(verdicts), {"met": 1, "tie": 0, "floor": 2, "NOT MET": 0})


if __name__ == "__main__":
    unittest.main()
