# SPDX-License-Identifier: BSD-3-Clause
"""ghostwire: halo exchanges over MPI shared memory and one-sided messages, from Python.

    from mpi4py import MPI            # optional: any mpi4py communicator
    import numpy, ghostwire

    world = ghostwire.World(MPI.COMM_WORLD)     # or ghostwire.World() for MPI_COMM_WORLD
    u = ghostwire.Grid(world, (1024, 1024), halo=1, dtype=numpy.float64, periodic=True)
    u.interior[:] = 1.0                         # a numpy view of the cells this rank owns
    u.update_halo()                             # u.local (ghosts included) now has the neighbours' cells
    total = u.sum()

See docs/python.md. Every failure raises ghostwire.Error (a RuntimeError) with .code, an Errc.
"""
import atexit as _atexit

from ._ghostwire import (  # noqa: F401  (the package's interface)
    Errc,
    Error,
    Grid,
    HaloHandle,
    Plan,
    TimeoutError,
    UnstructuredPlan,
    World,
    allreduce,
)
from . import _ghostwire

__all__ = ["Errc", "Error", "Grid", "HaloHandle", "Plan", "TimeoutError", "UnstructuredPlan", "World",
           "allreduce"]


def _close_everything():
    # Destroying a grid, plan or world is collective: close them all in creation order reversed (the
    # same on every rank) before the interpreter tears objects down in its own order and before
    # MPI is finalised (mpi4py and ghostwire both finalise after the atexit handlers).
    try:
        _ghostwire._close_all()
    except Error as error:  # a collective that cannot finish at exit: say so, do not hang silently
        import sys
        print(f"ghostwire: at exit: {error}", file=sys.stderr)


_atexit.register(_close_everything)
