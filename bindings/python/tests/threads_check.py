# SPDX-License-Identifier: BSD-3-Clause
"""Python threads driving one plan (docs/python.md, "Threads"): a World at MPI_THREAD_MULTIPLE, a ring
plan whose message is cut into partitions, each partition readied (pready) and received (parrived)
by the thread that owns it and checked at once; then a grid's halo filled by a team of threads
(update_halo_shared). Every value carries rank, partition and round, so a stale or misplaced one
shows. Run by the CTest python.threads.*:

    scripts/launch -n 2 --threads 2 -- python3 threads_check.py
"""
import sys
import threading

import numpy

import ghostwire

THREADS = 3
SIZES = [7, 1, 12, 4]  # elements per partition: 24 in all, uneven
ROUNDS = 40

world = ghostwire.World(thread_level="multiple")
if world.thread_level != "multiple":
    print(f"threads_check: skipped, MPI provides {world.thread_level}", flush=True)
    print("threads_check: ok", flush=True)
    sys.exit(0)
rank, size = world.rank, world.size
right, left = (rank + 1) % size, (rank - 1) % size
total = sum(SIZES)
first = numpy.cumsum([0] + SIZES)
data = numpy.zeros(2 * total)  # every other element is sent: a sparse message
ghosts = numpy.full(total, -1.0)
plan = ghostwire.Plan(world, sorted({right, left}), channels=1)
plan.add_send(0, right, data, list(range(0, 2 * total, 2))).add_receive(0, left, ghosts, list(range(total)))
plan.partition_send(0, right, SIZES).partition_receive(0, left, SIZES)
plan.commit()
assert plan.send_partitions(0, right) == len(SIZES)


def value(owner, round_, i):
    return 1e6 * round_ + 1e3 * owner + i


failures = []


def drive(thread):
    mine = range(thread, len(SIZES), THREADS)
    for round_ in range(1, ROUNDS + 1):
        for k in mine:
            plan.wait_send(0, right, k)
            for i in range(first[k], first[k + 1]):
                data[2 * i] = value(rank, round_, i)
            plan.pready(0, right, k)
        for k in mine:
            while not plan.parrived(0, left, k):
                pass
            got = ghosts[first[k]:first[k + 1]].tolist()
            want = [value(left, round_, i) for i in range(first[k], first[k + 1])]
            if got != want:
                failures.append(f"rank {rank} round {round_} partition {k}: {got} != {want}")
                return
    for k in mine:
        plan.wait_send(0, right, k)


team = [threading.Thread(target=drive, args=(t,)) for t in range(THREADS)]
for t in team:
    t.start()
for t in team:
    t.join()
plan.close()

grid = ghostwire.Grid(world, (12, 10), halo=1, periodic=True)
barrier = threading.Barrier(THREADS)


def update(thread):
    for round_ in range(1, 6):
        if thread == 0:
            grid.interior[...] = round_ * 1000 + rank
        barrier.wait()
        grid.update_halo_shared(thread, THREADS)
        barrier.wait()


team = [threading.Thread(target=update, args=(t,)) for t in range(THREADS)]
for t in team:
    t.start()
for t in team:
    t.join()
reference = ghostwire.Grid(world, (12, 10), halo=1, periodic=True)
reference.interior[...] = 5 * 1000 + rank
reference.update_halo()
if not numpy.array_equal(grid.local, reference.local):
    failures.append(f"rank {rank}: the grid filled by threads differs from the one filled by update_halo")
reference.close()
grid.close()

if failures:
    print("threads_check: FAILED\n" + "\n".join(failures[:5]), flush=True)
    sys.exit(1)
print("threads_check: ok", flush=True)
world.close()
