#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Unit tests of bench/aggregation/run_aggregation_bench.py's summary table: every ratio column under
its head, also when a run restricted with --impl lacks gw-node or gw-off, and ratios that are the
medians of paired repetitions."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "aggregation"))
import run_aggregation_bench as aggregation  # noqa: E402


def record(impl, usec, launch="multihost-4", case="3d-16-27pt"):
    return {"launch": launch, "case": case, "impl": impl, "usec": sorted(usec)[len(usec) // 2],
            "usec_per_repeat": usec, "bytes_per_exchange": 4096, "messages": 4, "internode_messages": [1, 1, 1, 1]}


def table_rows(text):
    lines = text.splitlines()
    head = lines[1].split()
    table = lines[2:lines.index("")]  # the message counts and the goals follow a blank line
    rows = [line.split() for line in table]
    return head, rows


class SummaryColumns(unittest.TestCase):
    def test_every_impl_present(self):
        records = [record("gw-node", [80.0, 90.0, 70.0]), record("gw-off", [100.0, 100.0, 100.0]),
                   record("gw", [90.0, 85.0, 95.0]), record("mpi-isend", [200.0, 80.0, 140.0])]
        head, rows = table_rows(aggregation.summary(records))
        self.assertEqual(len(rows), 1)
        cells = dict(zip(head[-3:], rows[0][-3:]))
        self.assertEqual(cells["node/off"], "0.800")  # median of 0.8, 0.9, 0.7
        self.assertEqual(cells["node/mpi"], "0.500")  # paired per repetition: 0.4, 1.125, 0.5
        self.assertEqual(cells["auto/off"], "0.900")

    def test_a_run_without_gw_node_keeps_auto_off_in_its_column(self):
        records = [record("gw-off", [100.0, 100.0, 100.0]), record("gw", [90.0, 85.0, 95.0]),
                   record("mpi-isend", [120.0, 120.0, 120.0])]
        head, rows = table_rows(aggregation.summary(records))
        self.assertEqual(len(rows[0]), len(head))
        self.assertEqual(rows[0][-3:], ["-", "-", "0.900"])

    def test_a_run_without_gw_off(self):
        records = [record("gw-node", [80.0, 80.0, 80.0]), record("mpi-put", [100.0, 100.0, 100.0])]
        _, rows = table_rows(aggregation.summary(records))
        self.assertEqual(rows[0][-3:], ["-", "0.800", "-"])


if __name__ == "__main__":
    unittest.main()
