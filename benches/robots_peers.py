#!/usr/bin/env python3
"""Robots against their peers (issue 39).

    /work/peers-venv/bin/python benches/robots_peers.py fk-oracle tests/data/robots/fk_oracle.json
        Forward kinematics of the corpus robots from yourdfpy AND Pinocchio
        at a few seeded random configurations: link poses (3x4 matrices, the
        root link's frame). The two peers are checked against each other
        (within 1e-12) before anything is written; the numbers are written
        with Python's repr (shortest round-trip), so the file holds the
        peers' doubles exactly.

    /work/peers-venv/bin/python benches/robots_peers.py fk-check [--configs N]
        bvtool's forward kinematics (one batch, `bvtool.Robot`) against
        yourdfpy and Pinocchio on N seeded random configurations (default
        10,000) of each corpus robot: the largest entry difference per peer;
        fails above 1e-12.

    /work/peers-venv/bin/python benches/robots_peers.py bench [--configs N] [--bvtool PATH] [--robots panda,ur5,allegro]
        Self-collision and minimum distance per configuration on the Panda,
        the UR5 and the Allegro hand: bvtool's CLI (`bvtool robot --check
        --json`, its `check_ms`) against Pinocchio + coal
        (`computeCollisions` / `computeDistances` over the same link pairs:
        SRDF pairs and adjacent links removed), one sitting, and the answers
        compared configuration by configuration.

Configurations are in bvtool's order: the URDF's actuated (non-mimic,
non-fixed) joints in document order; each peer is fed by joint name.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

MODELS = os.environ.get("BVTOOL_MODELS", "/work/shared/models")
PKG = os.path.join(MODELS, "urdf", "example-robot-data")
ROBOTS = {
    "panda": ("robots/panda_description/urdf/panda.urdf", "robots/panda_description/srdf/panda.srdf"),
    "ur5": ("robots/ur_description/urdf/ur5_robot.urdf", "robots/ur_description/srdf/ur5.srdf"),
    "allegro": ("robots/allegro_hand_description/urdf/allegro_right_hand.urdf", None),
    "double_pendulum": ("robots/double_pendulum_description/urdf/double_pendulum.urdf", None),
}


def urdf_joints(path):
    """(name, lower, upper) of the actuated joints in document order."""
    import xml.etree.ElementTree as ET

    out = []
    for j in ET.parse(path).getroot().findall("joint"):
        if j.get("type") in ("revolute", "continuous", "prismatic") and j.find("mimic") is None:
            lim = j.find("limit")
            lo, hi = (-np.pi, np.pi)
            if j.get("type") != "continuous" and lim is not None:
                lo, hi = float(lim.get("lower", 0)), float(lim.get("upper", 0))
            if hi <= lo:  # the double pendulum writes 0 0
                lo, hi = -np.pi, np.pi
            out.append((j.get("name"), lo, hi))
    return out


def urdf_mimics(path):
    """(joint, mimicked, multiplier, offset) of the mimic joints."""
    import xml.etree.ElementTree as ET

    out = []
    for j in ET.parse(path).getroot().findall("joint"):
        m = j.find("mimic")
        if m is not None and j.get("type") != "fixed":
            out.append((j.get("name"), m.get("joint"), float(m.get("multiplier", 1)), float(m.get("offset", 0))))
    return out


def configs(path, n, seed):
    joints = urdf_joints(path)
    rng = np.random.default_rng(seed)
    lo = np.array([j[1] for j in joints])
    hi = np.array([j[2] for j in joints])
    return [j[0] for j in joints], lo + (hi - lo) * rng.random((n, len(joints)))


def pin_models(urdf, geometry=True):
    import pinocchio as pin

    model = pin.buildModelFromUrdf(urdf)
    geom = pin.buildGeomFromUrdf(model, urdf, pin.GeometryType.COLLISION, package_dirs=[os.path.dirname(PKG)]) if geometry else None
    return model, geom


def pin_q(model, names, q, mimics=()):
    """Pinocchio's configuration vector for bvtool's `q` (by joint name;
    a continuous joint is (cos, sin)); Pinocchio's model here treats a
    mimic joint as a joint of its own, so its value is set by the rule."""
    import pinocchio as pin

    out = pin.neutral(model)
    values = dict(zip(names, q))
    for name, target, mult, off in mimics:
        values[name] = mult * values[target] + off
    for name, v in values.items():
        j = model.joints[model.getJointId(name)]
        if j.nq == 2:
            out[j.idx_q : j.idx_q + 2] = [np.cos(v), np.sin(v)]
        else:
            out[j.idx_q] = v
    return out


def peer_link_poses(urdf, names, qs):
    """For each configuration of `qs`: {link: (yourdfpy's 3x4, Pinocchio's
    3x4)}, the link's pose in the root link's frame by each peer."""
    import pinocchio as pin
    import yourdfpy

    y = yourdfpy.URDF.load(urdf, load_meshes=False, build_scene_graph=True, build_collision_scene_graph=False)
    model, _ = pin_models(urdf, geometry=False)
    data = model.createData()
    links = [l.name for l in y.robot.links]
    mimics = urdf_mimics(urdf)
    for q in qs:
        y.update_cfg({nm: v for nm, v in zip(names, q)})
        pin.framesForwardKinematics(model, data, pin_q(model, names, q, mimics))
        yield {
            link: (y.get_transform(link, y.base_link)[:3, :], data.oMf[model.getFrameId(link)].homogeneous[:3, :])
            for link in links
        }


def fk_oracle(out_path, n=6):
    doc = {"tolerance_between_peers": 1e-12, "robots": {}}
    for key, (rel, _) in ROBOTS.items():
        urdf = os.path.join(PKG, rel)
        names, qs = configs(urdf, n, seed=39)
        rows = []
        for q, links in zip(qs, peer_link_poses(urdf, names, qs)):
            poses = {}
            for link, (a, b) in links.items():
                err = np.abs(a - b).max()
                assert err <= 1e-12, (key, link, err)
                poses[link] = [float(x) for x in a.reshape(-1)]
            rows.append({"q": [float(v) for v in q], "links": poses})
        doc["robots"][key] = {"urdf": rel, "joints": names, "configurations": rows}
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"wrote {out_path} ({os.path.getsize(out_path)} bytes)")


def fk_check(n):
    """bvtool.Robot.forward_kinematics (one batch) against yourdfpy and
    Pinocchio on `n` seeded random configurations of each corpus robot:
    the largest difference of any matrix entry, per robot and peer."""
    import bvtool

    print(f"{'robot':16} {'configs':>8} {'links':>6} {'bvtool batch ms':>16} {'max |d| yourdfpy':>18} {'max |d| Pinocchio':>18}")
    for key, (rel, _) in ROBOTS.items():
        urdf = os.path.join(PKG, rel)
        names, qs = configs(urdf, n, seed=45)
        robot = bvtool.Robot(urdf)
        assert list(robot.joint_names) == names, (key, robot.joint_names, names)
        t = time.perf_counter()
        ours = robot.forward_kinematics(qs)
        ms = 1e3 * (time.perf_counter() - t)
        index = {link: i for i, link in enumerate(robot.link_names)}
        worst = [0.0, 0.0]
        for k, links in enumerate(peer_link_poses(urdf, names, qs)):
            for link, peers in links.items():
                if link in index:
                    for p, m in enumerate(peers):
                        worst[p] = max(worst[p], float(np.abs(ours[k, index[link], :3, :] - m).max()))
        print(f"{key:16} {n:8} {len(index):6} {ms:16.1f} {worst[0]:18.2e} {worst[1]:18.2e}")
        assert max(worst) <= 1e-12, (key, worst)


def pin_pairs(model, geom, srdf):
    """All geometry pairs of links that bvtool tests: not on adjacent links
    (parent and child of one URDF joint, also through Pinocchio's merged
    fixed joints), SRDF pairs removed."""
    import pinocchio as pin

    geom.addAllCollisionPairs()
    if srdf:
        pin.removeCollisionPairs(model, geom, srdf)
    return geom


def exact_distance(go_a, ma, go_b, mb):
    """The distance between two of Pinocchio's primitive geometries placed
    at `ma`, `mb` (pin.SE3), computed here (not by coal): spheres and boxes
    analytically, two boxes by minimising |A u - B v|^2 over both boxes
    (convex, L-BFGS-B within 1e-12); `None` for other shapes. <= 0 when
    the solids meet."""
    from scipy.optimize import minimize

    kinds = (type(go_a.geometry).__name__, type(go_b.geometry).__name__)
    if kinds == ("Box", "Sphere"):
        return exact_distance(go_b, mb, go_a, ma)
    if kinds[0] != "Sphere" and kinds != ("Box", "Box"):
        return None
    if kinds == ("Sphere", "Sphere"):
        return float(np.linalg.norm(ma.translation - mb.translation)) - go_a.geometry.radius - go_b.geometry.radius
    if kinds == ("Sphere", "Box"):
        local = mb.rotation.T @ (ma.translation - mb.translation)
        h = np.asarray(go_b.geometry.halfSide)
        return float(np.linalg.norm(local - np.clip(local, -h, h))) - go_a.geometry.radius
    if kinds[0] == "Sphere":
        return None
    ha, hb = np.asarray(go_a.geometry.halfSide), np.asarray(go_b.geometry.halfSide)

    def f(x):
        d = ma.rotation @ x[:3] + ma.translation - mb.rotation @ x[3:] - mb.translation
        return d @ d, np.concatenate([2 * ma.rotation.T @ d, -2 * mb.rotation.T @ d])

    bounds = [(-h, h) for h in ha] + [(-h, h) for h in hb]
    r = minimize(f, np.zeros(6), jac=True, bounds=bounds, method="L-BFGS-B", options={"ftol": 1e-24, "gtol": 1e-14})
    return float(np.sqrt(max(r.fun, 0.0)))


def explain_differences(model, data, geom, gdata, pqs, coll, ours_hit, pin_hit, tolerance):
    """Each configuration where bvtool and coal disagree, checked exactly:
    per link pair they disagree on, the exact distance between the true
    shapes (`exact_distance`) and what decides it."""
    import pinocchio as pin

    out = []
    for i, (ours, theirs) in enumerate(zip(ours_hit, pin_hit)):
        if ours == theirs:
            continue
        pin.computeCollisions(model, data, geom, gdata, pqs[i], False)
        link = lambda g: model.frames[geom.geometryObjects[g].parentFrame].name  # noqa: E731
        coal_pairs, exact = set(), {}
        for k, cp in enumerate(geom.collisionPairs):
            key = tuple(sorted((link(cp.first), link(cp.second))))
            if gdata.collisionResults[k].isCollision():
                coal_pairs.add(key)
            go_a, go_b = geom.geometryObjects[cp.first], geom.geometryObjects[cp.second]
            d = exact_distance(go_a, gdata.oMg[cp.first], go_b, gdata.oMg[cp.second])
            kinds = (type(go_a.geometry).__name__, type(go_b.geometry).__name__)
            exact.setdefault(key, []).append((d, kinds))
        ours_pairs = {tuple(sorted(p)) for p in coll["configurations"][i]["pairs"]}
        for key in sorted(ours_pairs ^ coal_pairs):
            d = min(exact[key], key=lambda e: np.inf if e[0] is None else e[0])
            says = "bvtool collides, coal apart" if key in ours_pairs else "coal collides, bvtool apart"
            if d[0] is None:
                why = "no exact check for these shapes"
            elif key in ours_pairs and "Sphere" in d[1] and 0 < d[0] <= tolerance:
                why = f"the true shapes are {d[0]:.3e} apart, within bvtool's outward sphere tessellation ({tolerance:.3e}): explained"
            elif d[0] <= 0:
                why = f"the true shapes meet (exact distance {d[0]:.3e}): " + ("bvtool is right" if key in ours_pairs else "coal is right")
            else:
                why = f"the true shapes are {d[0]:.3e} apart: " + ("coal is right" if key in coal_pairs else "bvtool is right")
            out.append(f"configuration {i}: {key[0]}-{key[1]} ({'/'.join(d[1])}): {says}; {why}")
    return out


def bench(n, bvtool, robots):
    import coal  # noqa: F401  (Pinocchio's collision back end)
    import pinocchio as pin

    print(f"{'robot':8} {'dof':>3} {'pairs':>5} {'bvtool collide us':>18} {'pin+coal us':>12} {'x':>6} {'bvtool dist us':>15} {'pin dist us':>12} {'x':>6} agree")
    for key in robots:
        rel, srdf_rel = ROBOTS[key]
        urdf = os.path.join(PKG, rel)
        srdf = os.path.join(PKG, srdf_rel) if srdf_rel else None
        names, qs = configs(urdf, n, seed=7)
        with tempfile.TemporaryDirectory() as tmp:
            npy = os.path.join(tmp, "q.npy")
            np.save(npy, qs)
            args = [bvtool, "robot", urdf, "--check", npy, "--json"] + (["--srdf", srdf] if srdf else [])
            coll = json.loads(subprocess.run(args, check=True, capture_output=True).stdout)
            dist = json.loads(subprocess.run(args + ["--distance"], check=True, capture_output=True).stdout)
        link_names = coll["links"]
        tested = {tuple(sorted((link_names[a], link_names[b]))) for a, b in coll["pairs"]}
        model, geom = pin_models(urdf)
        geom = pin_pairs(model, geom, srdf)
        # Keep exactly bvtool's link pairs.
        keep = []
        for cp in geom.collisionPairs:
            la = model.frames[geom.geometryObjects[cp.first].parentFrame].name
            lb = model.frames[geom.geometryObjects[cp.second].parentFrame].name
            if tuple(sorted((la, lb))) in tested:
                keep.append(cp)
        geom.removeAllCollisionPairs()
        for cp in keep:
            geom.addCollisionPair(cp)
        data, gdata = model.createData(), pin.GeometryData(geom)
        mimics = urdf_mimics(urdf)
        pqs = [pin_q(model, names, q, mimics) for q in qs]
        t = time.perf_counter()
        pin_hit = [pin.computeCollisions(model, data, geom, gdata, pq, False) for pq in pqs]
        pin_c = (time.perf_counter() - t) / n * 1e6
        t = time.perf_counter()
        pin_d = []
        for pq in pqs:
            pin.computeDistances(model, data, geom, gdata, pq)
            pin_d.append(min((r.min_distance for r in gdata.distanceResults), default=np.inf))
        pin_dt = (time.perf_counter() - t) / n * 1e6
        ours_hit = [bool(c["colliding"]) for c in coll["configurations"]]
        ours_d = [c["distance"]["distance"] for c in dist["configurations"]]
        differ = sum(a != b for a, b in zip(ours_hit, pin_hit))
        explained = explain_differences(
            model, data, geom, gdata, pqs, coll, ours_hit, pin_hit, coll["tessellation_tolerance"]
        )
        ddiff = max(abs(max(a, 0) - max(b, 0)) for a, b in zip(ours_d, pin_d))
        bc = coll["check_ms"] * 1e3 / n
        bd = dist["check_ms"] * 1e3 / n
        print(
            f"{key:8} {len(names):3} {len(tested):5} {bc:18.2f} {pin_c:12.2f} {pin_c / bc:6.1f} {bd:15.2f} {pin_dt:12.2f} {pin_dt / bd:6.1f} "
            f"collide differs on {differ}/{n}, colliding {sum(ours_hit)}; max |distance diff| {ddiff:.2e}"
        )
        for line in explained:
            print("    " + line)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("fk-oracle")
    o.add_argument("out")
    c = sub.add_parser("fk-check")
    c.add_argument("--configs", type=int, default=10000)
    b = sub.add_parser("bench")
    b.add_argument("--configs", type=int, default=2000)
    b.add_argument("--bvtool", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "bvtool"))
    b.add_argument("--robots", default="panda,ur5,allegro", help="comma-separated: panda, ur5, allegro")
    a = ap.parse_args()
    if a.cmd == "fk-oracle":
        fk_oracle(a.out)
    elif a.cmd == "fk-check":
        fk_check(a.configs)
    else:
        bench(a.configs, a.bvtool, a.robots.split(","))


if __name__ == "__main__":
    sys.exit(main())
