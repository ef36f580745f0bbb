# SPDX-License-Identifier: BSD-3-Clause
"""An unstructured exchange: G mesh nodes in blocks over the ranks, each node reading two others far
away (g - 5 and g + 7 around the ring). Each rank lists the nodes it needs but does not own (its
ghosts) with their owners and their place in the owner's block; one plan fetches them. The same
computation and checksum as examples/fortran/unstructured.f90 (nodes numbered from 1 as there).

    scripts/launch -n 4 -- /usr/bin/python3 examples/python/unstructured.py
"""
import ghostwire

G = 240
REACH = (-5, 7)


def main():
    world = ghostwire.World()
    per_rank = G // world.size
    first = world.rank * per_rank + 1  # my nodes: first .. first + per_rank - 1

    def mine(node):
        return first <= node < first + per_rank

    def around(node, reach):
        return (node + reach - 1) % G + 1

    # The ghosts: every node my nodes read that another rank owns, each once.
    needed = []
    for node in range(first, first + per_rank):
        for reach in REACH:
            other = around(node, reach)
            if not mine(other) and other not in needed:
                needed.append(other)
    owners = [(node - 1) // per_rank for node in needed]
    indices = [node - 1 - owner * per_rank for node, owner in zip(needed, owners)]  # 0-based

    plan = ghostwire.UnstructuredPlan(world, per_rank, owners, indices)
    plan.owned[:] = [float(node) ** 2 for node in range(first, first + per_rank)]
    plan.exchange()

    owned, ghosts = plan.owned, plan.ghosts
    position = {node: i for i, node in enumerate(needed)}

    def value_of(node):
        return owned[node - first] if mine(node) else ghosts[position[node]]

    total = 0.0
    for node in range(first, first + per_rank):
        for reach in REACH:
            total += value_of(around(node, reach))
    total = ghostwire.allreduce(world, total, "sum")
    if world.rank == 0:
        print(f"unstructured: checksum {total:.1f} ({world.size} ranks)")
    del owned, ghosts, value_of  # the views first: close() refuses while a view of the plan is alive
    plan.close()
    world.close()


if __name__ == "__main__":
    main()
