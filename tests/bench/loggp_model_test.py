#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of bench/model/loggp_model.py: its message counts against the aggregation driver's
and against counts derived by hand, and its formulas at parameters whose answer is known."""
import itertools
import math
import sys
import unittest
from pathlib import Path

bench = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(bench / "model"))
sys.path.insert(0, str(bench / "aggregation"))
import loggp_model as model  # noqa: E402
import run_aggregation_bench as aggregation  # noqa: E402

ZERO = {"L": 0.0, "o": 0.0, "g": 0.0, "G": 0.0}


def check_traffic(case, launch):
    """Every node's traffic of one of the aggregation driver's points."""
    _, ranks, rpn = model.CHECK_LAUNCHES[launch]
    dims = model.common.dims_create(ranks, 2 if case.startswith("2d") else 3)
    coords = list(itertools.product(*[range(n) for n in dims]))
    node_of = {c: r // rpn for r, c in enumerate(coords)}
    box = [int(case.split("-")[1]) // n for n in dims]
    return [model.node_traffic(dims, box, case.endswith("27pt"), node_of.__getitem__,
                               [c for c in coords if node_of[c] == node]) for node in range(ranks // rpn)]


class Counts(unittest.TestCase):
    def test_the_drivers_points_have_the_drivers_counts(self):
        for launch, (_, ranks, rpn) in model.CHECK_LAUNCHES.items():
            for case in aggregation.CASES.split(","):
                nodes = check_traffic(case, launch)
                pairs, rank_pairs = aggregation.node_pairs(case, ranks, rpn)
                self.assertEqual(sum(len(t["pairs"]) for t in nodes), pairs, (launch, case))
                self.assertEqual(sum(r["m"] for t in nodes for r in t["ranks"].values()), rank_pairs, (launch, case))

    def test_an_interior_node_of_the_projection(self):
        rows = model.project({"tcp": dict(ZERO, g=1.0), "node-peer": ZERO})
        for row in rows:
            block = model.PROJECTED_BLOCKS[row["ranks_per_node"]]
            # Sends to node peers: for each of the 26 offsets, the ranks whose neighbour stays inside the block.
            intra = sum(math.prod(b - abs(s) for b, s in zip(block, d)) for d in model.offsets(3, True))
            self.assertEqual(row["node_messages_off"], 26 * row["ranks_per_node"] - intra)
            self.assertEqual(row["node_messages_combined"], 26)
            # Only a gap per message at the node: the ratio is the ratio of message counts.
            self.assertAlmostEqual(row["ratio"], 26 / row["node_messages_off"])


class Formulas(unittest.TestCase):
    def test_latency_alone_costs_the_combined_path_two_handovers(self):
        traffic = check_traffic("3d-32-27pt", "multihost-4")[0]
        load = model.hosted(traffic, lambda other: other)
        off, node = model.exchange_times(traffic, load, dict(ZERO, L=10.0), dict(ZERO, L=1.0), 1.0)
        self.assertAlmostEqual(off, 11.0)   # L_x + L_i (the node peer's message)
        self.assertAlmostEqual(node, 13.0)  # and a hand-over on each side

    def test_oversubscription_scales_every_term(self):
        traffic = check_traffic("2d-256-h1", "emulated-8x2")[0]
        load = model.hosted(traffic, lambda other: other)
        x, i = {"L": 3.0, "o": 1.0, "g": 1.0, "G": 0.01}, {"L": 0.5, "o": 0.1, "g": 0.1, "G": 0.001}
        one = model.exchange_times(traffic, load, x, i, 1.0)
        four = model.exchange_times(traffic, load, x, i, 4.0)
        self.assertAlmostEqual(four[0], 4 * one[0])
        self.assertAlmostEqual(four[1], 4 * one[1])

    def test_fit(self):
        fitted = model.fit("t", {"latency": {8: 20.0, 64: 21.0}, "bandwidth": {8: 4.0, 32768: 40.0, 262144: 271.0}})
        self.assertEqual(fitted["o"], 4.0)
        self.assertEqual(fitted["L"], 12.0)
        self.assertAlmostEqual(fitted["G"], 231.0 / (262144 - 32768))


if __name__ == "__main__":
    unittest.main()
