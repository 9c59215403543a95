"""Records trimesh's CollisionManager answer on one scene (as
../shared/peers/clash_peers.py computes it: one object per node x primitive,
in_collision_internal) together with, per object, its glTF node index, face
count and first vertex, so that tests/models_clash.rs can name trimesh's
objects as bvtool parts (`--by primitive`); and FCL's answer pair by pair
(`pairwise_colliding_pairs`, every object pair through fcl.collide, no manager). trimesh's object names carry a
random suffix per load, so the names and the pairs must come from one run.

usage: /work/peers-venv/bin/python record_trimesh.py MODELS_DIR REL_PATH OUT.json
"""
import json, sys, time
import numpy as np
import trimesh

models, rel, out = sys.argv[1:4]
scene = trimesh.load(f"{models}/{rel}", force="scene", process=False)
t0 = time.perf_counter()
cm = trimesh.collision.CollisionManager()
objects = {}
for node in scene.graph.nodes_geometry:
    transform, geom_name = scene.graph[node]
    g = scene.geometry.get(geom_name)
    if not isinstance(g, trimesh.Trimesh) or len(g.faces) == 0:
        continue
    cm.add_object(str(node), g, transform=np.asarray(transform, dtype=np.float64))
    objects[str(node)] = {"node": int(str(node).split("_")[0]), "faces": int(len(g.faces)),
                          "first_vertex": [round(float(x), 4) for x in g.vertices[g.faces[0][0]]]}
build_s = time.perf_counter() - t0
t0 = time.perf_counter()
_, names = cm.in_collision_internal(return_names=True)
clash_s = time.perf_counter() - t0
# The same question asked of FCL pair by pair (no broad-phase manager): every
# pair of objects whose world AABBs overlap, python-fcl's collide on the two
# CollisionObjects the manager holds.
import fcl
pairwise = []
keys = sorted(objects)
boxes = {k: cm._objs[k]["obj"] for k in keys}
for i, a in enumerate(keys):
    for b in keys[i + 1:]:
        oa, ob = boxes[a], boxes[b]
        res = fcl.CollisionResult()
        if fcl.collide(oa, ob, fcl.CollisionRequest(), res) > 0:
            pairwise.append([a, b])
json.dump({"file": rel, "build_s": build_s, "clash_s": clash_s, "objects": objects,
           "colliding_pairs": sorted(sorted(p) for p in names),
           "pairwise_colliding_pairs": pairwise}, open(out, "w"), indent=0)
print(rel, len(objects), "objects", len(names), "pairs", f"build {build_s:.3f} s, clash {clash_s:.3f} s;",
      len(pairwise), "pairs pairwise")
