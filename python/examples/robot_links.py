"""Two robot links at a batch of poses: which poses collide, which come
within a 1 mm safety margin, and how far apart the rest are.

    python python/examples/robot_links.py [MODELS]

MODELS is the model corpus (default $BVTOOL_MODELS or ../shared/models).
"""

import os
import sys
from pathlib import Path

import numpy as np

import bvtool

models = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BVTOOL_MODELS", "../shared/models"))
links = models / "obj/mujoco_menagerie/kuka_iiwa_14/assets"

# Each link in its own frame (metres); the flattened scene is one Mesh.
link1 = bvtool.load_mesh(links / "link_1.obj")
link2 = bvtool.load_mesh(links / "link_2_grey.obj")
print(f"link_1: {link1.triangle_count} triangles, link_2: {link2.triangle_count} triangles")

tree1, tree2 = bvtool.ObbTree(link1), bvtool.ObbTree(link2)

# 1,000 poses of link_2 in link_1's frame: a sweep of the joint angle about
# z, with link_2 lifted along z from 0 to 0.4 m. Rows are
# (tx, ty, tz, qx, qy, qz, qw): the quaternion in (x, y, z, w) order.
n = 1000
angle = np.linspace(0, 2 * np.pi, n)
lift = np.linspace(0.0, 0.4, n)
poses = np.zeros((n, 7))
poses[:, 2] = lift
poses[:, 5] = np.sin(angle / 2)
poses[:, 6] = np.cos(angle / 2)

hits = tree1.collide_batch(tree2, poses)  # (n,) bool, every core, GIL released
close = tree1.within_batch(tree2, poses, 0.001)  # within 1 mm (touching included)
gaps = tree1.distance_batch(tree2, poses)  # (n,) float64, metres
print(f"{hits.sum()} of {n} poses collide; {close.sum()} come within 1 mm")
apart = ~hits
print(f"first pose clear of contact: {np.argmax(apart)} (lift {lift[np.argmax(apart)]:.3f} m)")
print(f"smallest gap among the clear poses: {gaps[apart].min() * 1000:.3f} mm")

# One pose in detail: the contact pairs, and the closest points once apart.
first = tree1.collide(tree2, poses[0], mode="all")
print(f"pose 0: {len(first.pairs)} triangle pairs meet; the first is",
      link1.source(int(first.pairs[0, 0])), "x", link2.source(int(first.pairs[0, 1])))
k = int(np.argmax(apart))
d = tree1.distance(tree2, poses[k])
print(f"pose {k}: {d.distance * 1000:.4f} mm apart (±{d.rounding_bound:.1e} m) between",
      np.round(d.point_a, 5), "on link_1 and", np.round(d.point_b, 5), "on link_2")

# A tight box for the runtime: half extents and an (x, y, z, w) quaternion.
box = bvtool.fit(link2).obb
print("link_2 tight OBB: centre", np.round(box.center, 5), "half extents", np.round(box.half_extents, 5),
      "quaternion", np.round(box.quaternion, 5))
