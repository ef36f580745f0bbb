# SPDX-License-Identifier: BSD-3-Clause
"""A second Python thread that notes the time every millisecond: how the tests see that a ghostwire
wait released the GIL (the ticks go on while the main thread waits)."""
import threading
import time


class Ticker:
    def __init__(self):
        self.ticks = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run)

    def _run(self):
        while not self._stop.is_set():
            self.ticks.append(time.monotonic())
            time.sleep(0.001)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def count_between(self, start, end):
        """Ticks strictly between two monotonic times."""
        return sum(1 for t in self.ticks if start < t < end)
