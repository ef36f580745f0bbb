"""A wait that times out raises ghostwire.TimeoutError in Python (GHOSTWIRE_ON_TIMEOUT=throw), and
the rank's other Python threads keep running while it waits (the GIL is released). Two ranks: rank
1 updates a halo that rank 0 never joins. Run by the CTest python.timeout.2; the job ends with
os._exit, since a collective left half done cannot be finished or destroyed cleanly.

    GHOSTWIRE_TIMEOUT=2 GHOSTWIRE_ON_TIMEOUT=throw scripts/launch -n 2 -- python3 timeout_check.py
"""
import os
import sys
import threading
import time

import ghostwire

world = ghostwire.World()
grid = ghostwire.Grid(world, (8, 8), periodic=True)
grid.update_halo()  # together: the first update builds the plan (MPI collectives, not timed waits)
world.barrier()
if world.rank == 1:
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    start = time.monotonic()
    try:
        grid.update_halo()
        print("timeout_check: update_halo returned although rank 0 never joined", flush=True)
    except ghostwire.TimeoutError as error:
        seconds = time.monotonic() - start
        stop.set()
        thread.join()
        during = sum(1 for t in ticks if start + 0.2 < t < start + seconds - 0.2)
        ok = error.code == ghostwire.Errc.timeout and during > 50
        print(f"timeout_check: {'ok' if ok else 'FAILED'}: TimeoutError ({error.code}) after {seconds:.1f} s, "
              f"the other thread ran {during} times meanwhile", flush=True)
        print(f"timeout_check: message: {str(error).splitlines()[0]}", flush=True)
else:
    time.sleep(float(os.environ.get("GHOSTWIRE_TIMEOUT", "2")) + 3)
sys.stdout.flush()
os._exit(0)
