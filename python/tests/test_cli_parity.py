"""The command line's capabilities from Python: `export`, `fit(shapes=...)`
with k-DOPs, `compare`, `render`, and a `Scene` wherever a mesh is taken.
Each answer is checked against the command-line binary run on the same
file (bytes, JSON, pixels), and the volumes against the mesh itself
(every vertex inside, tested here with numpy)."""

import json
import struct
import subprocess
import zlib

import numpy as np
import pytest

import bvtool

BOX = "gltf/Box/glTF-Binary/Box.glb"  # 12 triangles under a node matrix
DUCK = "gltf/Duck/glTF-Binary/Duck.glb"  # 4,212 triangles, node scale 0.01
FORMATS = ["json", "bin", "c", "gltf", "obj"]
SHAPES = ["box", "sphere", "capsule", "cylinder", "kdop26", "hull", "best", "decompose"]


def run_cli(bvtool_bin, *args):
    out = subprocess.run([str(bvtool_bin), *map(str, args)], capture_output=True)
    return out


def cli_export(bvtool_bin, tmp_path, path, fmt, *args):
    """The bytes `bvtool export` writes (to a file: bin and gltf need one)."""
    out = tmp_path / ("cli.glb" if fmt == "gltf" else f"cli.{fmt}")
    r = run_cli(bvtool_bin, "export", path, "--format", fmt, "-o", out, *args)
    assert r.returncode == 0, r.stderr
    return out.read_bytes()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_export_bytes_equal_the_command_line(models, bvtool_bin, tmp_path, fmt, shape):
    path = models / BOX
    want = cli_export(bvtool_bin, tmp_path, path, fmt, "--shape", shape)
    if fmt in ("bin", "gltf"):
        # Formats the command writes to a file only: a loaded scene, written
        # to a path, lands the same bytes there.
        out = tmp_path / ("py.glb" if fmt == "gltf" else f"py.{fmt}")
        assert bvtool.export(bvtool.load(str(path)), fmt, shapes=[shape], path=out) is None
        assert out.read_bytes() == want
    else:
        assert bvtool.export(str(path), fmt, shapes=shape) == want


def test_export_options_equal_the_command_line(models, bvtool_bin, tmp_path):
    """Every shape at once (decompose, the slow one, is in the matrix above)
    with the other options, per format; glTF as .gltf text, OBJ with
    Godot's names."""
    path = models / BOX
    shapes = "box:pca,sphere:ritter,capsule,cylinder,kdop26,hull:16,best"
    for fmt in FORMATS:
        args = ["--shape", shapes, "--whole", "--per-mesh", "--hull-max", "32"]
        if fmt in ("json", "bin", "c"):
            args.append("--tree")
        want = cli_export(bvtool_bin, tmp_path, path, fmt, *args)
        got = bvtool.export(
            str(path), fmt, shapes=shapes, whole=True, per_mesh=True, hull_max=32,
            tree=fmt in ("json", "bin", "c"),
        )
        assert got == want, fmt
    out = tmp_path / "cli.gltf"
    r = run_cli(bvtool_bin, "export", path, "--format", "gltf", "-o", out, "--debug-lines")
    assert r.returncode == 0, r.stderr
    assert bvtool.export(str(path), "gltf", binary=False, debug_lines=True) == out.read_bytes()
    r = run_cli(bvtool_bin, "export", path, "--format", "obj", "--naming", "godot")
    assert bvtool.export(str(path), "obj", naming="godot") == r.stdout


@pytest.mark.parametrize("shape", ["aabb", "kdop14", "kdop26-obb"])
def test_export_refuses_what_the_command_line_refuses(models, bvtool_bin, shape):
    path = models / BOX
    r = run_cli(bvtool_bin, "export", path, "--format", "json", "--shape", shape)
    assert r.returncode != 0 and shape.encode() in r.stderr
    with pytest.raises(bvtool.InputError, match=shape):
        bvtool.export(str(path), "json", shapes=shape)
    with pytest.raises(ValueError, match="glb or .gltf"):
        bvtool.export(str(path), "gltf", path="out.txt")
    with pytest.raises(ValueError, match="hull budget 4"):
        bvtool.export(str(path), "json", hull_max=4)


def inside_convex(points, vertices, faces, tol):
    """Whether every point is inside the convex polytope (faces
    counter-clockwise from outside), within tol."""
    v = np.asarray(vertices)
    for f in faces:
        a, b, c = v[f[0]], v[f[1]], v[f[2]]
        n = np.cross(b - a, c - a)
        n /= np.linalg.norm(n)
        if (points @ n - n @ a).max() > tol:
            return False
    return True


def contains(c, p, tol):
    """Whether collider record c (docs/export.md) holds every row of p."""
    t = c["type"]
    if t == "box":
        axes = np.array(c["axes"])
        d = np.abs((p - c["center"]) @ axes.T)
        return (d <= np.array(c["half_extents"]) + tol).all()
    if t == "sphere":
        return (np.linalg.norm(p - c["center"], axis=1) <= c["radius"] + tol).all()
    if t in ("capsule", "cylinder"):
        axis = np.array(c["axis"])
        along = (p - c["center"]) @ axis
        radial = np.linalg.norm((p - c["center"]) - np.outer(along, axis), axis=1)
        if t == "cylinder":
            return (np.abs(along) <= c["half_height"] + tol).all() and (radial <= c["radius"] + tol).all()
        beyond = np.maximum(np.abs(along) - c["half_length"], 0)
        return (np.hypot(beyond, radial) <= c["radius"] + tol).all()
    assert t == "convex", t
    return inside_convex(p, c["vertices"], c["faces"], tol)


def test_exported_colliders_contain_the_mesh(models):
    """Each instance's colliders (its node's frame) hold its local
    vertices, the scene's colliders the world vertices; decompose's parts
    together hold every vertex. Tolerance: 1e-9 of the model's size (the
    JSON numbers are the f64 fits, rounded outward)."""
    for path, shapes in [(DUCK, SHAPES[:-1]), (BOX, SHAPES)]:
        scene = bvtool.load(str(models / path))
        doc = json.loads(bvtool.export(scene, "json", shapes=shapes, whole=True))
        world = bvtool.load_mesh(str(models / path)).vertices
        tol = 1e-9 * np.ptp(world, axis=0).max()
        by_key = {(i.node, i.gpu_instance, i.mesh_index, i.primitive): i for i in scene.instances}
        parts = {}
        for c in doc["colliders"]:
            if c["scope"] == "scene":
                p = world
            else:
                inst = by_key[(c["node"], c["instance"], c["mesh"], c["primitive"])]
                p = inst.mesh.vertices
                if c["frame"] == "world":
                    t = inst.transform
                    p = p @ t[:3, :3].T + t[:3, 3]
            if c["asked"] == "decompose":
                parts.setdefault(c["scope"], (p, []))[1].append(c)
                continue
            assert contains(c, p, tol), (path, c["asked"], c["scope"])
        for p, cs in parts.values():
            held = np.zeros(len(p), bool)
            for c in cs:
                held |= np.array([inside_convex(q[None], c["vertices"], c["faces"], tol) for q in p])
            assert held.all(), path
        assert {c["asked"] for c in doc["colliders"]} == set(shapes)


@pytest.mark.parametrize(
    "shapes", ["kdop6,box:pca", "kdop10x-obb,hull:64", "kdop14,capsule,cylinder,sphere:ritter", "kdop18-obb,best", "kdop26,decompose"]
)
def test_fit_shapes_equal_the_command_line_and_contain_the_mesh(models, cli, shapes):
    path = models / DUCK
    want = cli("fit", path, "--shapes", shapes)["files"][0]
    got = bvtool.fit(bvtool.load(str(path)), shapes=shapes)
    p = bvtool.load_mesh(str(path)).vertices
    tol = 1e-9 * np.ptp(p, axis=0).max()
    assert len(got.kdops) == 2
    for k, w in zip(got.kdops, want["kdops"]):
        assert (k.kind, k.frame) == (w["kind"], w["frame"])
        assert k.quaternion.tolist() == w["rotation_xyzw"]
        assert k.directions.tolist() == w["directions"]
        assert k.min.tolist() == w["min"] and k.max.tolist() == w["max"]
        assert k.vertices.tolist() == w["vertices"] and k.faces == w["faces"]
        assert (k.volume, k.surface_area) == (w["volume"], w["surface_area"])
        # Independent: the slabs hold every vertex, the polytope's vertices
        # lie in the slabs, and its faces hold every vertex.
        d = p @ k.directions.T
        assert (d >= k.min - tol).all() and (d <= k.max + tol).all()
        dv = k.vertices @ k.directions.T
        assert (dv >= k.min - tol).all() and (dv <= k.max + tol).all()
        assert inside_convex(p, k.vertices, k.faces, tol)
    assert got.obb.method == want["obb"]["method"]
    assert got.obb.center.tolist() == want["obb"]["center"]
    assert got.obb.half_extents.tolist() == want["obb"]["half_extents"]
    assert (got.sphere.method, got.sphere.radius) == (want["sphere"]["method"], want["sphere"]["radius"])
    for name in ("capsule", "cylinder"):
        g, w = getattr(got, name), want.get(name)
        assert (g is None) == (w is None)
        if g is not None:
            assert (g.radius, g.volume) == (w["radius"], w["volume"])
    if "hull" in shapes:
        h, w = got.hull_budget, want["hull_budget"]
        assert (h.max, h.volume, h.vertices.tolist()) == (w["max"], w["volume"], w["vertices"])
        assert inside_convex(p, h.vertices, h.faces, tol)
    assert got.best == (want["best"]["shape"] if "best" in want else None)
    if "decompose" in shapes:
        d, w = got.decomposition, want["decomposition"]
        assert [q.volume for q in d.parts] == [q["volume"] for q in w["parts"]]
        assert d.parts_volume == w["parts_volume"]
    else:
        assert got.decomposition is None


def test_fit_shapes_refuse_unknown_ones():
    with pytest.raises(bvtool.InputError, match="kdop7"):
        bvtool.fit(bvtool.Mesh(np.eye(3), [[0, 1, 2]]), shapes="kdop7")


def without_timings(x):
    """The record with every wall-time figure (`*_ms`, `timings`) left out."""
    if isinstance(x, dict):
        return {k: without_timings(v) for k, v in x.items() if not k.endswith("_ms") and k != "timings"}
    if isinstance(x, list):
        return [without_timings(v) for v in x]
    return x


def test_compare_records_equal_the_command_line(models, cli):
    paths = [models / BOX]
    want = cli("compare", *paths, "--rotations", 20, "--poses", 5, "--seed", 3)["files"]
    got = bvtool.compare([str(p) for p in paths], rotations=20, poses=5, seed=3)
    assert len(got) == 1 and got[0]["volumes"]
    assert [without_timings(r) for r in got] == [without_timings(r) for r in want]
    assert all(v["fit_ms"] >= 0 for v in got[0]["volumes"])
    with pytest.raises(bvtool.InputError, match="rotations 0"):
        bvtool.compare(str(paths[0]), rotations=0)


def test_colliders_records_equal_the_command_line(models, cli, tmp_path):
    # The Box with Unreal-named hull and box colliders, written by export.
    obj = tmp_path / "box_colliders.obj"
    bvtool.export(str(models / BOX), "obj", shapes="hull,box", path=str(obj))
    want = cli("colliders", obj)["files"]
    got = bvtool.colliders(str(obj))
    assert [without_timings(r) for r in got] == [without_timings(r) for r in want]
    (group,) = got[0]["groups"]
    assert len(group["colliders"]) == 2
    # Export's colliders hold every vertex: nothing sticks out.
    assert group["shortfall"]["shortfall"] <= group["shortfall"]["bound"]
    with pytest.raises(bvtool.GeometryError, match="no collider meshes"):
        bvtool.colliders(str(models / BOX))


def read_png(data):
    """An 8-bit RGB or RGBA, non-interlaced PNG as an (H, W, C) array: a
    small reader over zlib, independent of bvtool's encoder."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0
            ch = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * ch
    out = np.zeros((h, stride), np.int32)
    prev = np.zeros(stride, np.int32)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        cur = np.zeros(stride, np.int32)
        for x in range(stride):
            a = cur[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if f == 0:
                pred = 0
            elif f == 1:
                pred = a
            elif f == 2:
                pred = b
            elif f == 3:
                pred = (a + b) // 2
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (line[x] + pred) & 255
        out[y], prev = cur, cur
    return out.reshape(h, w, ch).astype(np.uint8)


def test_render_equals_the_command_line_picture(models, bvtool_bin, tmp_path):
    path = models / BOX
    volumes = "aabb,obb,sphere,kdop14,capsule"
    png = tmp_path / "cli.png"
    r = run_cli(bvtool_bin, "render", path, "-o", png, "--volumes", volumes, "--size", "96x64", "--view", "grid")
    assert r.returncode == 0, r.stderr
    image = bvtool.render(str(path), volumes, size=(96, 64), view="grid")
    assert image.shape == (64, 96, 3) and image.dtype == np.uint8
    np.testing.assert_array_equal(image, read_png(png.read_bytes()))
    out = tmp_path / "py.png"
    assert bvtool.render(bvtool.load(str(path)), volumes.split(","), path=out, size="96x64", view="grid") is None
    assert out.read_bytes() == png.read_bytes()
    with pytest.raises(bvtool.InputError, match="PNG only"):
        bvtool.render(str(path), path=tmp_path / "x.jpg")


def test_a_scene_is_taken_wherever_a_mesh_is(models):
    """Each entry point given a `Scene` answers as given its flattened mesh
    (load_mesh): ObbTree, ObbTree.from_bytes, World.add_mesh, fit,
    decompose, self_intersections, export, render."""
    path = str(models / BOX)
    scene, mesh = bvtool.load(path), bvtool.load_mesh(path)
    t_scene, t_mesh = bvtool.ObbTree(scene), bvtool.ObbTree(mesh)
    assert t_scene.to_bytes() == t_mesh.to_bytes()
    assert bvtool.ObbTree.from_bytes(t_mesh.to_bytes(), scene).to_bytes() == t_mesh.to_bytes()
    w = bvtool.World()
    w.add_mesh("a", scene)
    w.add_mesh("b", mesh, [0.5, 0, 0, 0, 0, 0, 1])
    assert w.colliding_pairs() == [("a", "b")]
    assert bvtool.fit(scene).obb.volume == bvtool.fit(mesh).obb.volume
    assert bvtool.decompose(scene).parts_volume == bvtool.decompose(mesh).parts_volume
    assert (bvtool.self_intersections(scene).pairs == bvtool.self_intersections(mesh).pairs).all()
    assert bvtool.export(scene, "c", whole=True) != b""
    assert bvtool.render(scene, "aabb", size=(8, 8)).shape == (8, 8, 3)
