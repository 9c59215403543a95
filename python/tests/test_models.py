"""The package against the command line on corpus models: the same files,
the same poses, the same answers (both run here)."""

import json

import numpy as np
import pytest

import bvtool
from conftest import pose_json, poses_near

SCENES = [
    "gltf/2CylinderEngine/glTF-Binary/2CylinderEngine.glb",
    "gltf/SimpleInstancing/glTF-Binary/SimpleInstancing.glb",
    "gltf/NegativeScaleTest/glTF-Binary/NegativeScaleTest.glb",
    "gltf/Duck/glTF-Draco/Duck.gltf",
    "obj/pybullet/teddy2_VHACD_CHs.obj",
    "stl/mujoco_menagerie/robotiq_2f85/assets/driver.stl",
]

PAIRS = [
    ("obj/pybullet/duck.obj", "obj/pybullet/teddy2_VHACD_CHs.obj"),
    (
        "obj/mujoco_menagerie/kuka_iiwa_14/assets/link_1.obj",
        "obj/mujoco_menagerie/kuka_iiwa_14/assets/link_2_grey.obj",
    ),
    (
        "obj/mujoco_menagerie/universal_robots_ur5e/assets/upperarm_1.obj",
        "obj/mujoco_menagerie/universal_robots_ur5e/assets/forearm_2.obj",
    ),
    ("gltf/Duck/glTF-Binary/Duck.glb", "gltf/Duck/glTF-Binary/Duck.glb"),
]


def source_tuple(s):
    return (s["node"], s["instance"], s["mesh"], s["primitive"], s["triangle"])


def named(mesh, i):
    s = mesh.source(int(i))
    return (s.node, s.instance, s.mesh, s.primitive, s.triangle)


@pytest.mark.parametrize("path", SCENES)
def test_scene_matches_info(models, cli, path):
    scene = bvtool.load(models / path)
    info = cli("info", models / path)["files"][0]
    assert scene.triangle_count == info["triangles"]
    lo, hi = scene.aabb
    assert lo.tolist() == info["aabb"]["min"] and hi.tolist() == info["aabb"]["max"]
    mesh = bvtool.load_mesh(models / path)
    assert mesh.triangle_count == info["triangles"]
    # Instances place their local meshes: flattening by hand gives the mesh.
    placed = [
        inst.mesh.vertices @ inst.transform[:3, :3].T + inst.transform[:3, 3]
        for inst in scene.instances
    ]
    np.testing.assert_allclose(np.vstack(placed), mesh.vertices, rtol=0, atol=1e-9 * np.abs(hi - lo).max())


@pytest.mark.parametrize("path", SCENES)
@pytest.mark.parametrize("obb, sphere", [("tight", "exact"), ("pca", "ritter"), ("hull", "centroid")])
def test_fit_matches_the_command_line(models, cli, path, obb, sphere):
    doc = cli("fit", models / path, "--obb", obb, "--sphere", sphere)["files"][0]
    f = bvtool.fit(bvtool.load(models / path), obb=obb, sphere=sphere)
    assert f.aabb.min.tolist() == doc["aabb"]["min"]
    assert f.aabb.max.tolist() == doc["aabb"]["max"]
    assert f.obb.center.tolist() == doc["obb"]["center"]
    assert f.obb.half_extents.tolist() == doc["obb"]["half_extents"]
    assert f.obb.quaternion.tolist() == doc["obb"]["rotation_xyzw"]
    assert f.obb.rotation.T.tolist() == doc["obb"]["axes"]
    assert f.sphere.center.tolist() == doc["sphere"]["center"]
    assert f.sphere.radius == doc["sphere"]["radius"]
    assert f.hull_volume == doc["hull_volume"]
    # The flattened mesh has the same points: the same volumes up to the
    # rounding of the moments, and containment of every used vertex.
    m = bvtool.load_mesh(models / path)
    g = bvtool.fit(m, obb=obb, sphere=sphere)
    assert g.aabb.min.tolist() == doc["aabb"]["min"]
    assert g.aabb.max.tolist() == doc["aabb"]["max"]
    used = m.vertices[np.unique(m.triangles)]
    local = (used - g.obb.center) @ g.obb.rotation
    assert np.all(np.abs(local) <= g.obb.half_extents * (1 + 1e-12))
    assert np.all(np.linalg.norm(used - g.sphere.center, axis=1) <= g.sphere.radius)
    if sphere == "exact":
        assert abs(g.sphere.radius - f.sphere.radius) <= 1e-9 * f.sphere.radius


@pytest.mark.parametrize("path", SCENES[:4])
def test_capsule_and_cylinder_match_the_command_line(models, cli, path):
    doc = cli("fit", models / path, "--capsule", "--cylinder")["files"][0]
    f = bvtool.fit(bvtool.load(models / path), capsule=True, cylinder=True)
    for mine, theirs, half in [(f.capsule, doc["capsule"], "half_length"), (f.cylinder, doc["cylinder"], "half_height")]:
        assert mine.center.tolist() == theirs["center"] and mine.axis.tolist() == theirs["axis"]
        assert (mine.radius, mine.half_length) == (theirs["radius"], theirs[half])
        assert mine.quaternion.tolist() == theirs["rotation_xyzw"]
    # Every used vertex inside both (numpy's own arithmetic, a hair of slack).
    m = bvtool.load_mesh(models / path)
    p = m.vertices[np.unique(m.triangles)]
    for r, capped in [(f.capsule, True), (f.cylinder, False)]:
        d = p - r.center
        t = d @ r.axis
        tc = np.clip(t, -r.half_length, r.half_length) if capped else t
        radial = np.linalg.norm(d - np.outer(tc if capped else t, r.axis), axis=1)
        slack = 1e-12 * np.abs(p).max()
        assert np.all(radial <= r.radius + slack)
        if not capped:
            assert np.all(np.abs(t) <= r.half_length + slack)
    assert bvtool.fit(m).capsule is None


@pytest.mark.parametrize("path", SCENES[:4])
def test_hull_under_a_budget_matches_the_command_line(models, cli, path):
    doc = cli("fit", models / path, "--hull-max", "64")["files"][0]["hull_budget"]
    f = bvtool.fit(bvtool.load(models / path), hull_max=64)
    h = f.hull_budget
    assert h.vertices.tolist() == doc["vertices"] and h.faces == doc["faces"]
    assert (h.max, h.exact, h.volume) == (64, doc["exact"], doc["volume"])
    assert len(h.vertices) <= 64 and len(h.faces) <= 64
    # Every used vertex on the inner side of every face's plane (numpy's
    # arithmetic, a hair of slack; the Rust suite checks it exactly).
    m = bvtool.load_mesh(models / path)
    p = m.vertices[np.unique(m.triangles)]
    slack = 1e-9 * np.abs(p).max()
    for face in h.faces:
        v = h.vertices[face]
        n = np.cross(v, np.roll(v, -1, axis=0)).sum(axis=0)  # Newell's normal
        n /= np.linalg.norm(n)
        assert np.all((p - v[0]) @ n <= slack)
    assert f.hull_volume <= h.volume
    with pytest.raises(ValueError, match="hull_max 7"):
        bvtool.fit(m, hull_max=7)


@pytest.mark.parametrize("path", SCENES[:4])
def test_best_primitive_matches_the_command_line(models, cli, path):
    doc = cli("fit", models / path, "--best")["files"][0]
    f = bvtool.fit(bvtool.load(models / path), best=True)
    assert f.best == doc["best"]["shape"]
    volumes = {
        "aabb": f.aabb.volume,
        "obb": f.obb.volume,
        "sphere": f.sphere.volume,
        "capsule": f.capsule.volume,
        "cylinder": f.cylinder.volume,
    }
    assert volumes[f.best] == min(volumes.values()) == doc["best"]["volume"]
    assert bvtool.fit(bvtool.load(models / path)).best is None


def pair_poses(models, a, b, n, seed):
    """The pair's meshes and n poses near contact: about half of them meet."""
    ma, mb = bvtool.load_mesh(models / a), bvtool.load_mesh(models / b)
    return ma, mb, poses_near(ma, mb, seed, n, 0.35)[0]


@pytest.mark.parametrize("a, b", PAIRS)
def test_collide_matches_the_command_line(models, cli, tmp_path, a, b):
    ma, mb, rows = pair_poses(models, a, b, 24, seed=11)
    poses = tmp_path / "poses.json"
    poses.write_text(json.dumps([pose_json(r) for r in rows]))
    # The package's trees are flush ones (the command line's default is quick).
    doc = cli("collide", models / a, models / b, "--pose", poses, "--all-pairs", "--node-fit", "flush")
    ta, tb = bvtool.ObbTree(ma), bvtool.ObbTree(mb)
    hits = 0
    for r, want in zip(rows, doc["poses"]):
        c = ta.collide(tb, r, mode="all")
        assert c.intersecting == want["intersecting"]
        got = sorted((named(ma, i), named(mb, j)) for i, j in c.pairs)
        assert got == sorted((source_tuple(p["a"]), source_tuple(p["b"])) for p in want["pairs"])
        hits += c.intersecting
    assert 0 < hits < len(rows)
    batch, counts = ta.collide_batch(tb, rows, mode="all")
    assert batch.tolist() == [p["intersecting"] for p in doc["poses"]]
    assert counts.tolist() == [p["pair_count"] for p in doc["poses"]]


@pytest.mark.parametrize("a, b", PAIRS)
def test_distance_matches_the_command_line(models, cli, tmp_path, a, b):
    ma, mb, rows = pair_poses(models, a, b, 12, seed=12)
    poses = tmp_path / "poses.json"
    poses.write_text(json.dumps([pose_json(r) for r in rows]))
    doc = cli("distance", models / a, models / b, "--pose", poses, "--node-fit", "flush")
    ta, tb = bvtool.ObbTree(ma), bvtool.ObbTree(mb)
    for r, want in zip(rows, doc["poses"]):
        d = ta.distance(tb, r)
        assert d.distance == want["distance"]
        assert d.intersecting == want["intersecting"]
        assert d.point_a.tolist() == want["point_a"]
        assert d.point_b.tolist() == want["point_b"]
        assert named(ma, d.triangles[0]) == source_tuple(want["triangles"]["a"])
        assert named(mb, d.triangles[1]) == source_tuple(want["triangles"]["b"])
    np.testing.assert_array_equal(ta.distance_batch(tb, rows), [p["distance"] for p in doc["poses"]])


@pytest.mark.parametrize("a, b", PAIRS)
def test_quick_and_flush_trees_give_the_same_answers(models, a, b):
    ma, mb, rows = pair_poses(models, a, b, 24, seed=11)
    quick = bvtool.ObbTree(ma, node_fit="quick"), bvtool.ObbTree(mb, node_fit="quick")
    flush = bvtool.ObbTree(ma), bvtool.ObbTree(mb, node_fit="flush")
    hits, counts = quick[0].collide_batch(quick[1], rows, mode="all")
    hits_f, counts_f = flush[0].collide_batch(flush[1], rows, mode="all")
    assert hits.tolist() == hits_f.tolist() and 0 < hits.sum() < len(rows)
    assert counts.tolist() == counts_f.tolist()
    np.testing.assert_array_equal(
        quick[0].distance_batch(quick[1], rows), flush[0].distance_batch(flush[1], rows)
    )


@pytest.mark.parametrize("by", ["instance", "primitive"])
def test_clash_matches_the_command_line(models, cli, by):
    path = models / "gltf/2CylinderEngine/glTF-Binary/2CylinderEngine.glb"
    doc = cli("clash", path, "--by", by, "--clearance", "0.5")
    got = bvtool.clash(str(path), by=by, clearance=0.5)
    assert [p.name for p in got.parts] == [p["name"] for p in doc["parts"]]
    assert [p.triangles for p in got.parts] == [p["triangles"] for p in doc["parts"]]
    mine = [(c.a, c.b, c.kind, c.triangle_pairs, c.crossing_pairs, c.crossing_depth, c.min_distance, c.inside) for c in got.clashes]
    theirs = [(c["a"], c["b"], c["kind"], c["triangle_pairs"], c["crossing_pairs"], c["crossing_depth"], c["min_distance"], c["inside"]) for c in doc["clashes"]]
    assert mine == theirs
    # The severities, field by field.
    for c, want in zip(got.clashes, doc["clashes"]):
        s, w = c.severity, want["severity"]
        assert (s is None) == (w is None)
        if s is None:
            continue
        assert (s.depth, s.protruding, s.searched, s.bound, s.capped) == (
            w["depth"], w["protruding"], w["searched"], w["bound"], w["capped"])
        for key in ["normal", "point_a", "point_b"]:
            got_v = getattr(s, key)
            assert (got_v is None and w[key] is None) or list(got_v) == w[key]
    assert got.candidate_pairs == doc["summary"]["candidate_pairs"]
    assert len(got) == doc["summary"]["clashing_pairs"] > 0
    # A loaded Scene is the same input as its path.
    again = bvtool.clash([bvtool.load(path)], by=by, clearance=0.5)
    assert [(c.a, c.b, c.kind) for c in again.clashes] == [(c[0], c[1], c[2]) for c in mine]


def test_clash_pairs_name_triangles_as_the_command_line(models, cli):
    path = models / "gltf/2CylinderEngine/glTF-Binary/2CylinderEngine.glb"
    doc = cli("clash", path, "--all-pairs")
    got = bvtool.clash(path, all_pairs=True)
    for c, want in zip(got.clashes, doc["clashes"]):
        mine = [(tuple(named_source(p.a)), tuple(named_source(p.b)), p.crossing) for p in c.pairs]
        assert mine == [(source_tuple(p["a"]), source_tuple(p["b"]), p["crossing"]) for p in want["pairs"]]


def named_source(s):
    return (s.node, s.instance, s.mesh, s.primitive, s.triangle)


@pytest.mark.parametrize(
    "path", ["obj/common-3d-test-models/suzanne.obj", "obj/pybullet/teddy2_VHACD_CHs.obj"]
)
def test_self_intersections_match_the_command_line(models, cli, path):
    doc = cli("clash", models / path, "--self", "--whole", "--all-pairs")["files"][0]["meshes"][0]
    mesh = bvtool.load_mesh(models / path)
    found = bvtool.self_intersections(mesh)
    assert len(found.pairs) == doc["pair_count"] > 0
    assert len(found.degenerate) == doc["degenerate"]
    assert found.welded_vertices == doc["welded_vertices"]
    got = [(named(mesh, i), named(mesh, j)) for i, j in found.pairs]
    assert got == [(source_tuple(p["a"]), source_tuple(p["b"])) for p in doc["pairs"]]


def test_invalid_corpus_files_raise_the_command_lines_message(models, bvtool_bin):
    import subprocess

    manifest = json.loads((models / "manifest.json").read_text())
    invalid = [f["path"] for f in manifest["files"] if "gltf-edge-cases/assimp" in f["path"] or "Negative/" in f["path"]]
    assert len(invalid) >= 10
    refused = 0
    for path in invalid:
        out = subprocess.run([str(bvtool_bin), "info", str(models / path)], capture_output=True, text=True)
        try:
            bvtool.load(models / path)
        except (ValueError, OSError) as e:
            refused += 1
            assert out.returncode == 1
            assert out.stderr.strip() == f"bvtool: {e}"
        else:
            assert out.returncode == 0, out.stderr
    assert refused >= 10


@pytest.mark.parametrize("path", [SCENES[0], SCENES[3], SCENES[4]])
def test_decompose_matches_the_command_line_and_holds_every_vertex(models, cli, path):
    from scipy.spatial import ConvexHull

    doc = cli("fit", models / path, "--decompose", "--max-hulls", "8")["files"][0]["decomposition"]
    d = bvtool.decompose(bvtool.load(models / path), max_hulls=8)
    assert len(d.parts) == len(doc["parts"]) <= 8
    for mine, theirs in zip(d.parts, doc["parts"]):
        assert mine.vertices.tolist() == theirs["vertices"]
        assert mine.faces == theirs["faces"]
        assert mine.volume == theirs["volume"]
        assert len(mine.vertices) <= 64
    assert d.parts_volume == doc["parts_volume"]
    # Every vertex the triangles use lies under every face plane of some
    # part (scipy's own hull of the part, to its rounding).
    m = bvtool.load_mesh(models / path)
    used = m.vertices[np.unique(m.triangles)]
    scale = np.abs(used).max()
    inside = np.zeros(len(used), dtype=bool)
    for part in d.parts:
        eq = ConvexHull(part.vertices).equations
        inside |= np.all(used @ eq[:, :3].T + eq[:, 3] <= 1e-9 * scale, axis=1)
    assert inside.all(), f"{(~inside).sum()} vertices in no part"
