# SPDX-License-Identifier: BSD-3-Clause
"""The Jacobi program of examples/porting/mpi_jacobi.cpp in Python: your own numpy arrays
(ghost cells included), the decomposition of an mpi4py Cartesian communicator, and a ghostwire
plan per array whose messages are boxes of the array written as numpy indices
(numpy.s_[1:-1, 0]: a column). Prints the MPI program's checksum (docs/porting.md,
docs/python.md).

    scripts/launch -n 2 -- /usr/bin/python3 examples/porting/jacobi_plan.py
"""
import numpy
from mpi4py import MPI

import ghostwire

NX, NY, STEPS = 48, 32, 20
TO_NORTH, TO_SOUTH, TO_EAST, TO_WEST = range(4)  # channels: directions of travel


class Block:
    """This rank's cells [x0, x0 + nx) x [y0, y0 + ny); arrays hold them at [1:-1, 1:-1] (y, x),
    ghost cells around. Dimension 0 of the communicator is y (walls), 1 is x (periodic)."""

    def __init__(self, cart):
        (py, px), _, (cy, cx) = cart.Get_topo()
        self.y0, self.x0 = cy * NY // py, cx * NX // px
        self.ny, self.nx = (cy + 1) * NY // py - self.y0, (cx + 1) * NX // px - self.x0
        self.south, self.north = cart.Shift(0, 1)
        self.west, self.east = cart.Shift(1, 1)

    def neighbours(self):
        """Each rank once (a periodic dimension of 1 or 2 ranks repeats them)."""
        ranks = [self.south, self.north, self.west, self.east]
        return sorted({r for r in ranks if r != MPI.PROC_NULL})


def initialise(b, u):
    y, x = numpy.mgrid[b.y0:b.y0 + b.ny, b.x0:b.x0 + b.nx]
    u[1:-1, 1:-1] = ((7 * x + 13 * y) % 17) / 16.0


def halo_plan(world, b, u):
    """The halo of one array, described once by boxes of the array itself."""
    s = numpy.s_
    plan = ghostwire.Plan(world, b.neighbours(), channels=4)
    if b.north != MPI.PROC_NULL:
        plan.add_send(TO_NORTH, b.north, u, s[b.ny, 1:-1]).add_receive(TO_SOUTH, b.north, u, s[b.ny + 1, 1:-1])
    if b.south != MPI.PROC_NULL:
        plan.add_send(TO_SOUTH, b.south, u, s[1, 1:-1]).add_receive(TO_NORTH, b.south, u, s[0, 1:-1])
    if b.east != MPI.PROC_NULL:
        plan.add_send(TO_EAST, b.east, u, s[1:-1, b.nx]).add_receive(TO_WEST, b.east, u, s[1:-1, b.nx + 1])
    if b.west != MPI.PROC_NULL:
        plan.add_send(TO_WEST, b.west, u, s[1:-1, 1]).add_receive(TO_EAST, b.west, u, s[1:-1, 0])
    plan.commit()  # collective: both sides of every message agree
    return plan


def sweep(u, unew):
    """unew = (west + east + south + north) / 4 on the owned cells."""
    unew[1:-1, 1:-1] = 0.25 * (u[1:-1, :-2] + u[1:-1, 2:] + u[:-2, 1:-1] + u[2:, 1:-1])


def checksum(b, u, cart):
    """Sum over all cells of (1 + x + NX * y) * u, on rank 0."""
    y, x = numpy.mgrid[b.y0:b.y0 + b.ny, b.x0:b.x0 + b.nx]
    return cart.reduce(float(((1.0 + x + NX * y) * u[1:-1, 1:-1]).sum()), op=MPI.SUM, root=0)


def main():
    dims = MPI.Compute_dims(MPI.COMM_WORLD.size, 2)
    cart = MPI.COMM_WORLD.Create_cart(dims, periods=[False, True])
    b = Block(cart)
    with ghostwire.World(cart) as world:  # the same ranks as cart
        u = numpy.zeros((b.ny + 2, b.nx + 2))  # your arrays; ghost cells at the walls stay 0
        unew = numpy.zeros_like(u)
        initialise(b, u)
        halo_u, halo_unew = halo_plan(world, b, u), halo_plan(world, b, unew)  # a plan per array
        for _ in range(STEPS):
            halo_u.exchange()  # u's ghost cells now hold the neighbours' edge cells
            sweep(u, unew)
            u, unew = unew, u  # the arrays trade names,
            halo_u, halo_unew = halo_unew, halo_u  # and each plan goes with its array
        total = checksum(b, u, cart)
        halo_u.close()  # collective, in the same order on every rank
        halo_unew.close()
    if cart.rank == 0:
        print(f"jacobi_plan.py: {NX} x {NY}, {STEPS} steps, {cart.size} ranks")
        print(f"checksum {total:.6f}")
    cart.Free()


if __name__ == "__main__":
    main()
