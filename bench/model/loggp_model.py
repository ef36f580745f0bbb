#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A LogGP model of a halo exchange with and without one message per pair of nodes
(docs/plans.md, "One message per pair of nodes"; its measurements: docs/history.md).

Measures its parameters on this machine with gw-bench (latency and bandwidth, 2 ranks, per path:
node peers, emulated nodes, two hosts over TCP), checks the model against every point the
aggregation driver measured (bench/aggregation: its newest results folder, or --check DIR), and
projects a 3-D 27-point exchange at 24, 64 and 128 ranks per node on 384 nodes.

  bench/model/loggp_model.py                      # measure (about 1 minute), check, project
  bench/model/loggp_model.py --params FILE        # reuse measured parameters (params.json)
  bench/model/loggp_model.py --report DIR         # print a results folder's summary again

The model (usec per exchange, the slowest rank; L latency, o overhead per message, g gap per
message, G gap per byte; x: the inter-node path, i: node peers):
  each its own message:  L_x + max( max_r[intra_r + 2 m_r o_x + b_r G_x],  M g_x + B G_x )
  combined per node pair: L_x + 2 L_i + max( max_r[intra_r + 2(m_r o_i + b_r G_i) + host_r],  P g_x + B G_x )
  intra_r = L_i + c_r o_i + d_r G_i (messages to node peers), host_r = 2 k_r o_x + h_r G_x (the
  k_r combined messages of h_r bytes rank r sends); m_r, b_r: rank r's inter-node messages and
  bytes; M, B, P: the node's inter-node messages, bytes and pairs of nodes. With more ranks than
  cores on the machine every term is multiplied by ranks / cores (the checks run 4 and 8 ranks on 2).
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_common as common  # noqa: E402

PROGRAM = "loggp_model"
# parameter set -> (scripts/launch path, ranks per emulated node, gw-bench implementation)
PATHS = {
    "node-peer": ("intra", None, "gw"),
    "emulated": ("emulated", 1, "gw-p2p"),
    "tcp": ("multihost", None, "gw-p2p"),
}
SIZES = [8, 64, 512, 4096, 32768, 262144]
VALUE_BYTES = 8  # the cases' values are doubles, halos one cell wide
# The aggregation driver's launches: name -> (inter-node parameter set, ranks, ranks per node)
CHECK_LAUNCHES = {
    "emulated-4x2": ("emulated", 4, 2),
    "emulated-8x2": ("emulated", 8, 2),
    "emulated-8x4": ("emulated", 8, 4),
    "multihost-4": ("tcp", 4, 2),
}
PROJECTED_NODES = (8, 8, 6)  # 384 nodes
PROJECTED_BLOCKS = {24: (4, 3, 2), 64: (4, 4, 4), 128: (8, 4, 4)}  # ranks per node as a block
PROJECTED_BOXES = [16, 32, 64]  # cells per rank along each axis


# ---- parameters ----------------------------------------------------------------------------------

def measure(opts, out_dir: Path) -> dict:
    program = Path(opts.build_dir) / "bench" / "gw-bench"
    if not program.exists():
        sys.exit(f"{PROGRAM}: {program} is missing: build it first (scripts/setup --bench)")
    sizes = ",".join(str(s) for s in SIZES)
    raw: dict[str, dict[str, dict[int, float]]] = {}
    with open(out_dir / "log.txt", "a") as log:
        for name, (path, rpn, impl) in PATHS.items():
            for bench in ("latency", "bandwidth"):
                command = [str(common.LAUNCH), "--mpi", "openmpi", "--path", path, "-n", "2", "--timeout", "300"]
                command += (["--rpn", str(rpn)] if rpn else []) + ["--", str(program), bench, "--impl", impl,
                                                                   "--sizes", sizes, "--min-time", str(opts.seconds),
                                                                   "--repeats", str(opts.repeats), "--format", "json"]
                print(f"== {name}: {bench}", flush=True)
                done = common.run_logged(command, log, False)
                records = [r for r in map(common.parse_json_line, done.stdout.splitlines())
                           if r and r.get("bench") == bench]
                if done.returncode != 0 or not records:
                    sys.exit(f"{PROGRAM}: gw-bench {bench} on {name} failed (see {log.name})")
                raw.setdefault(name, {})[bench] = {r["bytes"]: r["usec"] for r in records}
    return {name: fit(name, benches) for name, benches in raw.items()} | {"measured": raw}


def fit(name: str, benches: dict[str, dict[int, float]]) -> dict:
    """LogGP from a ping-pong and a stream: o = g = the streamed time per smallest message (on
    this machine a message's cost is the processor's work: nothing overlaps it); L = the one-way
    latency less both overheads; G = the streamed time per byte between the two largest sizes."""
    latency, stream = benches["latency"], benches["bandwidth"]
    small, large = min(stream), sorted(stream)[-2:]
    g = stream[small]
    G = max(0.0, (stream[large[1]] - stream[large[0]]) / (large[1] - large[0]))
    return {"L": max(0.0, latency[min(latency)] - 2 * g), "o": g, "g": g, "G": G}


# ---- geometry ------------------------------------------------------------------------------------

def offsets(dimensions: int, diagonal: bool):
    for d in itertools.product((-1, 0, 1), repeat=dimensions):
        if any(d) and (diagonal or sum(map(abs, d)) == 1):
            yield d


def message_bytes(box, d) -> int:
    return VALUE_BYTES * math.prod(1 if step else extent for step, extent in zip(d, box))


def node_traffic(dims, box, diagonal: bool, node_of, ranks) -> dict:
    """The sends of `ranks` (coordinates on one node) to their neighbours on a non-periodic grid of
    `dims` ranks: per rank its intra and inter messages and bytes; per node pair its bytes and parts."""
    per_rank, pairs, sizes = {}, {}, []
    for coord in ranks:
        me = node_of(coord)
        t = {"c": 0, "d": 0, "m": 0, "b": 0}
        for d in offsets(len(dims), diagonal):
            other = tuple(x + s for x, s in zip(coord, d))
            if any(x < 0 or x >= n for x, n in zip(other, dims)):
                continue
            size = message_bytes(box, d)
            sizes.append(size)
            if node_of(other) == me:
                t["c"] += 1
                t["d"] += size
            else:
                t["m"] += 1
                t["b"] += size
                pair = pairs.setdefault(node_of(other), {"bytes": 0, "ranks": set()})
                pair["bytes"] += size
                pair["ranks"].add(coord)
        per_rank[coord] = t
    return {"ranks": per_rank, "pairs": pairs, "sizes": sizes}


def hosted(traffic: dict, node_index) -> dict:
    """Combined messages and bytes each rank sends, hosts picked as ghostwire picks them (among
    the ranks with a part, by the other node's number; one channel)."""
    load = {}
    for other, pair in traffic["pairs"].items():
        ranks = sorted(pair["ranks"])
        host = ranks[node_index(other) % len(ranks)]
        k, h = load.get(host, (0, 0))
        load[host] = (k + 1, h + pair["bytes"])
    return load


# ---- the model -----------------------------------------------------------------------------------

def exchange_times(traffic: dict, load: dict, x: dict, i: dict, slowdown: float) -> tuple[float, float]:
    """(each its own message, combined per node pair) in usec, the slowest rank of the node."""
    ranks = traffic["ranks"]
    M = sum(t["m"] for t in ranks.values())
    B = sum(t["b"] for t in ranks.values())
    P = len(traffic["pairs"])

    def intra(t):
        return (i["L"] if t["c"] else 0.0) + t["c"] * i["o"] + t["d"] * i["G"]

    between = x["L"] if M else 0.0
    off = between + max(max(intra(t) + 2 * t["m"] * x["o"] + t["b"] * x["G"] for t in ranks.values()),
                        M * x["g"] + B * x["G"])
    handovers = 2 * i["L"] if M else 0.0

    def combined(coord, t):
        k, h = load.get(coord, (0, 0))
        return intra(t) + 2 * (t["m"] * i["o"] + t["b"] * i["G"]) + 2 * k * x["o"] + h * x["G"]

    node = between + handovers + max(max(combined(c, t) for c, t in ranks.items()), P * x["g"] + B * x["G"])
    return off * slowdown, node * slowdown


def check_case(case: str, launch: str, params: dict, cores: int) -> tuple[float, float, float]:
    """Model times of one of the aggregation driver's points, and its bytes per message."""
    inter, ranks, rpn = CHECK_LAUNCHES[launch]
    dimensions = 2 if case.startswith("2d") else 3
    extent = int(case.split("-")[1])
    dims = common.dims_create(ranks, dimensions)
    box = [extent // n for n in dims]
    coords = list(itertools.product(*[range(n) for n in dims]))  # row-major, as MPI_Cart_create
    node_of = {c: r // rpn for r, c in enumerate(coords)}
    diagonal = case.endswith("27pt")
    worst, sizes = (0.0, 0.0), []
    for node in range(ranks // rpn):
        mine = [c for c in coords if node_of[c] == node]
        traffic = node_traffic(dims, box, diagonal, node_of.__getitem__, mine)
        times = exchange_times(traffic, hosted(traffic, lambda other: other), params[inter], params["node-peer"],
                               max(1.0, ranks / cores))
        worst = max(worst[0], times[0]), max(worst[1], times[1])
        sizes += traffic["sizes"]
    return worst[0], worst[1], statistics.mean(sizes)


def project(params: dict) -> list[dict]:
    rows = []
    for rpn, block in PROJECTED_BLOCKS.items():
        dims = [n * b for n, b in zip(PROJECTED_NODES, block)]
        centre = tuple(n // 2 for n in PROJECTED_NODES)  # an interior node: 26 neighbouring nodes

        def node_of(coord):
            return tuple(c // b for c, b in zip(coord, block))

        def node_index(node):
            return (node[0] * PROJECTED_NODES[1] + node[1]) * PROJECTED_NODES[2] + node[2]

        mine = [tuple(n * b + o for n, b, o in zip(centre, block, offset))
                for offset in itertools.product(*[range(b) for b in block])]
        for extent in PROJECTED_BOXES:
            traffic = node_traffic(dims, [extent] * 3, True, node_of, mine)
            load = hosted(traffic, node_index)
            off, node = exchange_times(traffic, load, params["tcp"], params["node-peer"], 1.0)
            # A network whose interface adds no gap per message (only the processors' overhead):
            # what combining gains without the node's message rate as the bottleneck.
            free_off, free_node = exchange_times(traffic, load, dict(params["tcp"], g=0.0), params["node-peer"], 1.0)
            ranks = traffic["ranks"].values()
            rows.append({"ranks_per_node": rpn, "box": extent, "node_messages_off": sum(t["m"] for t in ranks),
                         "node_messages_combined": len(traffic["pairs"]),
                         "node_bytes": sum(t["b"] for t in ranks), "usec_off": off, "usec_combined": node,
                         "ratio": node / off, "ratio_without_gap": free_node / free_off if free_off else 1.0})
    return rows


# ---- report --------------------------------------------------------------------------------------

def check(params: dict, check_dir: Path | None, cores: int) -> list[dict]:
    if check_dir is None:
        return []
    measured: dict[tuple, dict[str, float]] = {}
    for r in common.load_records(check_dir / "aggregation.jsonl", "launch"):
        if r["launch"] in CHECK_LAUNCHES and r["impl"] in ("gw-node", "gw-off"):
            measured.setdefault((r["launch"], r["case"]), {})[r["impl"]] = r["usec"]
    rows = []
    for (launch, case), got in sorted(measured.items()):
        if len(got) < 2:
            continue
        off, node, size = check_case(case, launch, params, cores)
        rows.append({"launch": launch, "case": case, "bytes_per_message": size, "measured_off": got["gw-off"],
                     "model_off": off, "measured_combined": got["gw-node"], "model_combined": node,
                     "measured_ratio": got["gw-node"] / got["gw-off"], "model_ratio": node / off})
    return rows


def summary(result: dict) -> str:
    lines = [f"parameters (usec, usec per byte), measured with gw-bench on {result['machine']}:",
             f"{'path':<10} {'L':>8} {'o':>8} {'g':>8} {'G':>10}"]
    for name in PATHS:
        p = result["params"][name]
        lines.append(f"{name:<10} {p['L']:>8.2f} {p['o']:>8.2f} {p['g']:>8.2f} {p['G']:>10.5f}")
    rows = result["check"]
    if rows:
        lines += ["", f"check against {result['check_dir']} (usec per exchange; ratio = combined / each its own):",
                  f"{'launch':<13} {'case':<12} {'B/msg':>6} {'off':>8} {'model':>8} {'combined':>9} {'model':>8}"
                  f" {'ratio':>6} {'model':>6}  direction"]
        for r in rows:
            same = (r["measured_ratio"] > 1) == (r["model_ratio"] > 1)
            lines.append(f"{r['launch']:<13} {r['case']:<12} {r['bytes_per_message']:>6.0f} {r['measured_off']:>8.1f}"
                         f" {r['model_off']:>8.1f} {r['measured_combined']:>9.1f} {r['model_combined']:>8.1f}"
                         f" {r['measured_ratio']:>6.2f} {r['model_ratio']:>6.2f}  {'same' if same else 'OPPOSITE'}")
        for kind in ("emulated", "multihost"):
            mine = [r for r in rows if r["launch"].startswith(kind)]
            if not mine:
                continue
            same = sum((r["measured_ratio"] > 1) == (r["model_ratio"] > 1) for r in mine)
            errors = [abs(math.log(r[f"model_{k}"] / r[f"measured_{k}"])) for r in mine for k in ("off", "combined")]
            ratio_errors = [abs(math.log(r["model_ratio"] / r["measured_ratio"])) for r in mine]
            lines.append(f"{kind}: ratio on the same side of 1 at {same} of {len(mine)} points, within a factor "
                         f"{math.exp(statistics.median(ratio_errors)):.2f} (median); times within a factor "
                         f"{math.exp(statistics.median(errors)):.2f} (median), {math.exp(max(errors)):.2f} (worst)")
    lines += ["", "projection: 3-D 27-point, doubles, halo 1 cell, 384 nodes as 8x8x6, an interior node, "
                  "this machine's TCP between nodes:",
              f"{'ranks/node':>10} {'box':>5} {'msgs/node':>10} {'combined':>9} {'KiB/node':>9} {'off usec':>9}"
              f" {'comb usec':>10} {'ratio':>6} {'ratio g=0':>10}"]
    for r in result["projection"]:
        lines.append(f"{r['ranks_per_node']:>10} {r['box']:>4}³ {r['node_messages_off']:>10} "
                     f"{r['node_messages_combined']:>9} {r['node_bytes'] / 1024:>9.0f} {r['usec_off']:>9.0f}"
                     f" {r['usec_combined']:>10.0f} {r['ratio']:>6.2f} {r['ratio_without_gap']:>10.2f}")
    lines.append("(ratio g=0: the same with no gap per message at the node's network interface, only the "
                 "processors' overhead per message)")
    return "\n".join(lines)


def newest_aggregation_results() -> Path | None:
    found = sorted(p for p in (common.ROOT / "results").glob("aggregation-*") if not p.name.endswith("-quick")
                   and (p / "aggregation.jsonl").exists())
    return found[-1] if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--params", metavar="FILE", help="parameters measured before (a params.json)")
    parser.add_argument("--check", metavar="DIR", help="the aggregation driver's results folder to check against "
                        "(default: the newest results/aggregation-*)")
    parser.add_argument("--build-dir", default=str(common.ROOT / "build"), help="build tree (default: build/)")
    parser.add_argument("--seconds", type=float, default=0.1, help="gw-bench's time per repetition (default 0.1)")
    parser.add_argument("--repeats", type=int, default=5, help="gw-bench's repetitions per point (default 5)")
    parser.add_argument("--out", help="results folder (default: results/model-<timestamp>)")
    parser.add_argument("--report", metavar="DIR", help="only print DIR's summary again")
    opts = parser.parse_args()
    if opts.report:
        print((Path(opts.report) / "summary.txt").read_text(), end="")
        return 0
    out_dir = common.results_dir(opts, "model")
    out_dir.mkdir(parents=True, exist_ok=True)
    meta = common.new_meta(program=PROGRAM)
    if opts.params:
        params = json.loads(Path(opts.params).read_text())
    else:
        common.announce(PROGRAM, out_dir, meta)
        params = measure(opts, out_dir)
    (out_dir / "params.json").write_text(json.dumps(params, indent=2) + "\n")
    check_dir = Path(opts.check) if opts.check else newest_aggregation_results()
    cores = meta["machine"]["cores"] or 1
    result = {"machine": f"{meta['machine']['cpu']}, {cores} cores", "params": params,
              "check_dir": str(check_dir.relative_to(common.ROOT) if check_dir and check_dir.is_relative_to(common.ROOT)
                               else check_dir),
              "check": check(params, check_dir, cores), "projection": project(params)}
    (out_dir / "model.json").write_text(json.dumps(result, indent=2) + "\n")
    text = summary(result)
    (out_dir / "summary.txt").write_text(text + "\n")
    common.finish_meta(meta, out_dir, [])
    print(text)
    print(f"\n{PROGRAM}: results in {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
