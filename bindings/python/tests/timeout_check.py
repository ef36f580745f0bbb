# SPDX-License-Identifier: BSD-3-Clause
"""A wait that times out raises ghostwire.TimeoutError in Python (GHOSTWIRE_ON_TIMEOUT=throw), and
the rank's other Python threads keep running while it waits (the GIL is released). Two ranks: rank
1 updates a halo that rank 0 never joins. Run by the CTest python.timeout.2; the job ends with
os._exit, since a collective left half done cannot be finished or destroyed cleanly.

    GHOSTWIRE_TIMEOUT=2 GHOSTWIRE_ON_TIMEOUT=throw scripts/launch -n 2 -- python3 timeout_check.py
"""
import os
import sys
import time

import ghostwire
from thread_ticker import Ticker

world = ghostwire.World()
grid = ghostwire.Grid(world, (8, 8), periodic=True)
grid.update_halo()  # together first: this update builds the plan; only the next one is left hanging
world.barrier()
if world.rank == 1:
    start = time.monotonic()
    with Ticker() as ticker:
        try:
            grid.update_halo()
            raised = None
        except ghostwire.TimeoutError as error:
            raised = error
        seconds = time.monotonic() - start
    if raised is None:
        print("timeout_check: update_halo returned although rank 0 never joined", flush=True)
    else:
        during = ticker.count_between(start + 0.2, start + seconds - 0.2)
        ok = raised.code == ghostwire.Errc.timeout and during > 50
        print(f"timeout_check: {'ok' if ok else 'FAILED'}: TimeoutError ({raised.code}) after {seconds:.1f} s, "
              f"the other thread ran {during} times meanwhile", flush=True)
        print(f"timeout_check: message: {str(raised).splitlines()[0]}", flush=True)
else:
    time.sleep(float(os.environ.get("GHOSTWIRE_TIMEOUT", "2")) + 3)
sys.stdout.flush()
os._exit(0)
