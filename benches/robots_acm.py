#!/usr/bin/env python3
"""Allowed-collision matrices of the Panda and the UR5 (issue 39).

    /work/peers-venv/bin/python benches/robots_acm.py [--samples N] [--seed S] [--bvtool PATH] [--robots panda,ur5]

For each robot:
1. `bvtool robot URDF --acm --samples N --seed S -o DIR/ROBOT.srdf --json`,
   timed (its `acm_ms`, both cores), then again with `--no-min-distance`
   (what the per-pair least distance costs; the reasons must not change);
2. a further N configurations, independent of the matrix's (numpy's PCG64
   seeded S + 1, uniform within the joint limits, continuous joints over
   [-pi, pi]), checked with `bvtool robot --check` on the `Never` pairs
   only (an SRDF disabling every other pair): the number of those
   configurations where a `Never` pair collides (0 expected; the matrix's
   `Never` is statistical);
3. the differences from the SRDF shipped with the robot, pair by pair, with
   bvtool's counts (collisions / samples, least distance).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from robots_peers import PKG, ROBOTS, urdf_joints  # noqa: E402


def srdf_pairs(path):
    """{(link1, link2) sorted: reason} of an SRDF's disable_collisions."""
    out = {}
    for d in ET.parse(path).getroot().findall("disable_collisions"):
        a, b = sorted((d.get("link1"), d.get("link2")))
        out[(a, b)] = d.get("reason") or "disabled, no reason"
    return out


def run(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {p.stderr}")
    return p.stdout, time.perf_counter() - t


def one(key, n, seed, bvtool, tmp):
    urdf_rel, srdf_rel = ROBOTS[key]
    urdf = os.path.join(PKG, urdf_rel)
    srdf_out = os.path.join(tmp, f"{key}.srdf")
    base = [bvtool, "robot", urdf, "--acm", "--samples", str(n), "--seed", str(seed), "--json"]
    out, wall = run(base + ["-o", srdf_out])
    doc = json.loads(out)
    out2, wall2 = run(base + ["--no-min-distance"])
    doc2 = json.loads(out2)
    assert [p["reason"] for p in doc["pairs"]] == [p["reason"] for p in doc2["pairs"]]
    print(f"## {key}: {n} samples, seed {seed}")
    print(
        f"- generation: {doc['acm_ms'] / 1e3:.2f} s with least distances "
        f"({doc['acm_ms'] * 1e3 / n:.1f} µs a sample; process {wall:.2f} s), "
        f"{doc2['acm_ms'] / 1e3:.2f} s without ({doc2['acm_ms'] * 1e3 / n:.1f} µs a sample)"
    )
    print(f"- counts: {doc['counts']}")
    # A further, independent set of samples on the Never pairs only.
    never = {(p["link1"], p["link2"]) for p in doc["pairs"] if p["reason"] == "Never"}
    every = {(p["link1"], p["link2"]) for p in doc["pairs"]}
    check_srdf = os.path.join(tmp, f"{key}-never-only.srdf")
    with open(check_srdf, "w") as f:
        f.write(f'<?xml version="1.0"?>\n<robot name="{doc["name"]}">\n')
        for a, b in sorted(every - never):
            f.write(f'  <disable_collisions link1="{a}" link2="{b}" reason="check"/>\n')
        f.write("</robot>\n")
    joints = urdf_joints(urdf)
    rng = np.random.default_rng(seed + 1)
    lo = np.array([j[1] for j in joints])
    hi = np.array([j[2] for j in joints])
    q = lo + rng.random((n, len(joints))) * (hi - lo)
    qpath = os.path.join(tmp, f"{key}-q.npy")
    np.save(qpath, q)
    text, wall3 = run([bvtool, "robot", urdf, "--srdf", check_srdf, "--check", qpath, "--first"])
    hits = [line for line in text.splitlines() if line.startswith("#") and "collides" in line]
    print(
        f"- independent check: {len(never)} Never pairs, {n} further samples: "
        f"{len(hits)} configurations where one collides ({wall3:.1f} s)"
    )
    for line in hits[:10]:
        print(f"  {line}")
    # Against the shipped SRDF.
    ours = {(p["link1"], p["link2"]): p for p in doc["pairs"]}
    shipped = srdf_pairs(os.path.join(PKG, srdf_rel))
    print(
        "- differences from the shipped SRDF (pair: bvtool's reason / shipped; collisions/samples, least distance;"
        " a pair both disable, the shipped one without a reason, is not listed):"
    )
    for pair in sorted(set(ours) | set(shipped)):
        p = ours.get(pair)
        mine = (p["reason"] or "tested") if p else "(no geometry)"
        theirs = shipped.get(pair, "tested")
        if mine != theirs and not (mine != "tested" and theirs == "disabled, no reason"):
            extra = ""
            if p and p["samples"]:
                d = p["min_distance"]
                extra = f"; {p['collisions']}/{p['samples']}, least {d:.4g}" if d is not None else ""
            print(f"  {pair[0]}–{pair[1]}: {mine} / {theirs}{extra}")
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bvtool", default="target/release/bvtool")
    ap.add_argument("--robots", default="panda,ur5")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for key in a.robots.split(","):
            one(key, a.samples, a.seed, a.bvtool, tmp)


if __name__ == "__main__":
    main()
