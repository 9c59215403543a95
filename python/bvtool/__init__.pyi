"""Type stubs of the `bvtool` extension module (see docs/python.md)."""

import pickle
from os import PathLike
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str

class LoadError(ValueError):
    """A model file is not valid (or is of an unknown type)."""

class GeometryError(ValueError):
    """The geometry is unusable for the request (no triangles, out-of-range coordinates)."""

class InputError(ValueError):
    """A value given by the caller is wrong (a non-rigid pose, an unknown method)."""

class WriteError(OSError):
    """An output file could not be written."""

StrPath = Union[str, "PathLike[str]"]
F64 = npt.NDArray[np.float64]
U32 = npt.NDArray[np.uint32]

class TriangleSource:
    """Where a triangle came from, in its file's own terms."""

    @property
    def node(self) -> Optional[int]: ...
    @property
    def instance(self) -> int: ...
    @property
    def mesh(self) -> int: ...
    @property
    def primitive(self) -> int: ...
    @property
    def triangle(self) -> int: ...

class Mesh:
    """A triangle mesh in one frame (immutable; arrays are read-only)."""

    def __init__(self, vertices: npt.ArrayLike, triangles: npt.ArrayLike) -> None: ...
    @property
    def vertices(self) -> F64:
        """`(n, 3)` float64 vertex positions."""
    @property
    def triangles(self) -> U32:
        """`(m, 3)` uint32 vertex indices."""
    @property
    def faces(self) -> U32:
        """The same array as `triangles` (trimesh's name)."""
    @property
    def triangle_count(self) -> int: ...
    @property
    def vertex_count(self) -> int: ...
    @property
    def aabb(self) -> Optional[Tuple[F64, F64]]:
        """`(min, max)` of the vertices the triangles use."""
    def source(self, i: int) -> TriangleSource: ...

MeshLike = Union[Mesh, Any]
"""A `Mesh`, a `Scene` (flattened to world coordinates), or anything with
`vertices` and `faces` arrays (a `trimesh.Trimesh`)."""

class Instance:
    """One primitive placed in the world by a node (and GPU instance)."""

    @property
    def node(self) -> Optional[int]: ...
    @property
    def node_name(self) -> Optional[str]: ...
    @property
    def gpu_instance(self) -> int: ...
    @property
    def mesh_index(self) -> int: ...
    @property
    def mesh_name(self) -> Optional[str]: ...
    @property
    def primitive(self) -> int: ...
    @property
    def transform(self) -> F64:
        """4×4 local → world matrix."""
    @property
    def mesh(self) -> Mesh:
        """The geometry in the mesh's local frame (shared between instances)."""

class Scene:
    """A loaded model file."""

    @property
    def path(self) -> PathLike[str]: ...
    @property
    def format(self) -> Literal["gltf", "glb", "obj", "stl"]: ...
    @property
    def instances(self) -> list[Instance]: ...
    @property
    def meshes(self) -> list[Mesh]: ...
    @property
    def triangle_count(self) -> int: ...
    @property
    def aabb(self) -> Optional[Tuple[F64, F64]]:
        """World `(min, max)`, as `bvtool info` reports it."""
    @property
    def skipped_primitives(self) -> int: ...
    @property
    def extensions(self) -> list[str]: ...
    def flatten(self) -> Mesh: ...

def load(
    path: StrPath,
    *,
    allow_external_uris: bool = False,
    max_triangles: Optional[int] = None,
    max_instances: Optional[int] = None,
) -> Scene: ...
def load_mesh(
    path: StrPath,
    *,
    allow_external_uris: bool = False,
    max_triangles: Optional[int] = None,
    max_instances: Optional[int] = None,
) -> Mesh: ...

class Pose:
    """A rigid motion: B's vertices map v → R·v + t into A's frame."""

    def __init__(
        self,
        translation: Optional[npt.ArrayLike] = None,
        rotation: Optional[npt.ArrayLike] = None,
    ) -> None:
        """`rotation` is a unit quaternion (x, y, z, w)."""
    @staticmethod
    def from_matrix(matrix: npt.ArrayLike) -> Pose: ...
    @staticmethod
    def identity() -> Pose: ...
    @property
    def translation(self) -> F64: ...
    @property
    def rotation(self) -> F64:
        """(x, y, z, w)."""
    @property
    def matrix(self) -> F64: ...
    def inverse(self) -> Pose: ...
    def __mul__(self, other: Pose) -> Pose: ...
    def transform_points(self, points: npt.ArrayLike) -> F64: ...

PoseLike = Union[Pose, npt.ArrayLike, Tuple[npt.ArrayLike, npt.ArrayLike], None]
"""A `Pose`, a 4×4 matrix, a (translation, quaternion xyzw) pair, 7 numbers, or None (identity)."""

PosesLike = Union[npt.ArrayLike, Sequence[PoseLike]]
"""An `(N, 4, 4)` or `(N, 7)` array, or a sequence of poses."""

class Collision:
    @property
    def intersecting(self) -> bool: ...
    @property
    def pairs(self) -> U32:
        """`(k, 2)` meeting triangle pairs (A's, B's), sorted."""
    @property
    def contacts(self) -> Optional[List[Optional[Dict[str, Any]]]]:
        """With `contacts=True`: per row of `pairs`, `{"normal": (3,) unit,
        from A to B, "depth": float, "points": (m, 3)}` in A's frame (`None`
        for two degenerate triangles); else `None`."""
    @property
    def patches(self) -> Optional[List[Dict[str, Any]]]:
        """With `contacts=True`: one `{"normal", "depth", "polygon": (m, 3),
        "pairs": (p,) rows of pairs}` per contact plane; else `None`."""
    @property
    def box_tests(self) -> int: ...
    @property
    def triangle_tests(self) -> int: ...
    def __bool__(self) -> bool: ...

class Distance:
    @property
    def distance(self) -> float: ...
    @property
    def intersecting(self) -> bool: ...
    @property
    def point_a(self) -> F64: ...
    @property
    def point_b(self) -> F64: ...
    @property
    def triangles(self) -> Tuple[int, int]: ...
    @property
    def rounding_bound(self) -> float: ...
    @property
    def box_tests(self) -> int: ...
    @property
    def triangle_tests(self) -> int: ...
    def __float__(self) -> float: ...

class SignedDistance:
    """`ObbTree.distance(..., signed=True)`: A's frame, model units."""

    @property
    def distance(self) -> float:
        """The distance when apart; minus the protrusion depth when overlapping or contained."""
    @property
    def depth(self) -> float: ...
    @property
    def side(self) -> Optional[Literal["a", "b"]]: ...
    @property
    def normal(self) -> Optional[F64]:
        """Unit direction from A to B that separates them; point_b - point_a == distance * normal."""
    @property
    def point_a(self) -> F64: ...
    @property
    def point_b(self) -> F64: ...
    @property
    def intersecting(self) -> bool: ...
    @property
    def tolerance(self) -> float: ...
    @property
    def bound(self) -> float:
        """The true depth lies in [depth, depth + bound]; bound <= tolerance unless capped."""
    @property
    def capped(self) -> bool: ...
    def __float__(self) -> float: ...

class Convex:
    """A convex shape: the convex hull of points grown by a radius (box,
    sphere, capsule, polytope) or a solid cylinder, for `convex_distance`."""

    @staticmethod
    def box(center: Sequence[float], half_extents: Sequence[float], quaternion: Sequence[float] = (0, 0, 0, 1)) -> Convex:
        """`center + R @ (s * half_extents)`, s in [-1, 1]^3; quaternion (x, y, z, w)."""
    @staticmethod
    def sphere(center: Sequence[float], radius: float) -> Convex: ...
    @staticmethod
    def capsule(center: Sequence[float], axis: Sequence[float], radius: float, half_length: float) -> Convex:
        """Points within `radius` of the segment `center ± half_length * axis`."""
    @staticmethod
    def cylinder(center: Sequence[float], axis: Sequence[float], radius: float, half_length: float) -> Convex:
        """The disc of `radius` across `axis`, swept `half_length` (half the height) each way."""
    @staticmethod
    def hull(points: npt.ArrayLike, radius: float = 0.0) -> Convex:
        """The convex hull of `(n, 3)` points grown by `radius`."""
    @staticmethod
    def of(shape: Union[Obb, Aabb, Sphere, BudgetHull, Kdop, ConvexPart]) -> Convex:
        """A fitted shape (a `Kdop` as its polytope)."""
    @property
    def kind(self) -> Literal["box", "sphere", "capsule", "cylinder", "hull"]: ...
    @property
    def radius(self) -> float:
        """The ball grown onto the core (0 for boxes, hulls and cylinders)."""
    @property
    def points(self) -> F64:
        """The core's points, `(n, 3)`; `(0, 3)` for a cylinder."""
    def support(self, u: Sequence[float]) -> F64:
        """The point farthest along `u`, `(3,)`."""

class ConvexDistance:
    """`convex_distance`: A's frame, model units."""

    @property
    def distance(self) -> float:
        """The distance when apart; minus the penetration depth when overlapping."""
    @property
    def depth(self) -> float:
        """The shortest translation of B that separates them (0 when apart)."""
    @property
    def normal(self) -> F64:
        """Unit, from A to B: B moved by depth * normal touches A; point_b - point_a == distance * normal."""
    @property
    def point_a(self) -> F64: ...
    @property
    def point_b(self) -> F64: ...
    @property
    def patch(self) -> F64:
        """The contact patch on A's surface, `(k, 3)`: polygon corners in order, a segment's ends or a point."""
    @property
    def tolerance(self) -> float: ...
    @property
    def bound(self) -> float:
        """The true signed distance lies in [distance, distance + bound]; bound <= tolerance unless capped."""
    @property
    def capped(self) -> bool: ...
    @property
    def cells(self) -> int: ...
    def __float__(self) -> float: ...

def convex_distance(
    a: Convex,
    b: Convex,
    pose: Optional[PoseLike] = None,
    *,
    tolerance: Optional[float] = None,
    max_cells: Optional[int] = None,
) -> ConvexDistance:
    """Signed distance and translational penetration depth of two convex
    shapes, B placed by `pose` (tolerance default 1e-12 of the scale, cells
    default 100,000; GIL released)."""

def convex_distance_batch(
    a: Convex,
    b: Convex,
    poses: PosesLike,
    *,
    tolerance: Optional[float] = None,
    max_cells: Optional[int] = None,
) -> F64:
    """`convex_distance(a, b, pose).distance` at every pose, `(N,)`; stops on Ctrl-C."""

class Clearance:
    @property
    def within(self) -> bool: ...
    @property
    def pairs(self) -> U32: ...
    @property
    def distances(self) -> F64: ...
    def __bool__(self) -> bool: ...

class Impact:
    """The answer of `ObbTree.time_of_impact`: no contact for t in [0, free_until);
    on a hit, contact at t and t - tol <= free_until <= t; "free": none on [0, 1];
    "undecided": the work limit reached, nothing claimed after free_until."""

    @property
    def hit(self) -> bool: ...
    @property
    def status(self) -> Literal["hit", "free", "undecided"]: ...
    @property
    def t(self) -> Optional[float]: ...
    @property
    def free_until(self) -> float: ...
    @property
    def tol(self) -> float: ...
    @property
    def distance_calls(self) -> int: ...
    @property
    def pose(self) -> Optional[Pose]: ...
    @property
    def triangles(self) -> Optional[Tuple[int, int]]: ...
    @property
    def point_a(self) -> Optional[F64]: ...
    @property
    def point_b(self) -> Optional[F64]: ...
    @property
    def distance(self) -> Optional[float]: ...
    def __bool__(self) -> bool: ...

class ObbTree:
    """The OBB tree of a mesh: what every pair query runs on."""

    def __init__(
        self, mesh: MeshLike, leaf_size: Optional[int] = None, node_fit: Literal["quick", "flush"] = "flush"
    ) -> None: ...
    def to_bytes(self) -> bytes:
        """The built tree as bytes (versioned, checksummed; the mesh not included)."""
    @staticmethod
    def from_bytes(
        data: Union[bytes, bytearray, memoryview, "pickle.PickleBuffer"], mesh: Optional[MeshLike] = None
    ) -> "ObbTree":
        """The tree `to_bytes` wrote, validated (ValueError otherwise); `mesh` checked against it. Any
        contiguous buffer is read where it lies, uncopied (it must not change during the call)."""
    def __reduce_ex__(self, protocol: int) -> Tuple[Any, ...]:
        """Pickles as its built structure; from protocol 5 the tree bytes as a pickle.PickleBuffer, so a
        buffer_callback (Dask, Ray) sends them out of band and unpickling reads them uncopied."""
    def save(self, path: StrPath) -> None:
        """Writes `to_bytes()` to `path` atomically (WriteError, an OSError, when it cannot)."""
    @staticmethod
    def load(path: StrPath, mesh: Optional[MeshLike] = None) -> "ObbTree":
        """The tree `save` wrote (a regular file; FileNotFoundError, or ValueError naming the file)."""
    @property
    def mesh(self) -> Mesh: ...
    @property
    def triangle_count(self) -> int: ...
    @property
    def node_count(self) -> int: ...
    @property
    def leaf_size(self) -> int: ...
    @property
    def bytes_per_triangle(self) -> float: ...
    def collide(
        self,
        other: ObbTree,
        pose: PoseLike = None,
        mode: Literal["first", "all"] = "first",
        contacts: bool = False,
    ) -> Collision: ...
    @overload
    def collide_batch(
        self, other: ObbTree, poses: PosesLike, mode: Literal["first"] = "first"
    ) -> npt.NDArray[np.bool_]: ...
    @overload
    def collide_batch(
        self, other: ObbTree, poses: PosesLike, mode: Literal["all"]
    ) -> Tuple[npt.NDArray[np.bool_], npt.NDArray[np.uint64]]: ...
    @overload
    def distance(
        self, other: ObbTree, pose: PoseLike = None, rel_err: float = 0.0, abs_err: float = 0.0
    ) -> Distance: ...
    @overload
    def distance(
        self,
        other: ObbTree,
        pose: PoseLike = None,
        rel_err: float = 0.0,
        abs_err: float = 0.0,
        *,
        signed: Literal[True],
        depth_tolerance: Optional[float] = None,
        max_splits: Optional[int] = None,
    ) -> SignedDistance: ...
    def distance_batch(
        self,
        other: ObbTree,
        poses: PosesLike,
        rel_err: float = 0.0,
        abs_err: float = 0.0,
        *,
        signed: bool = False,
        depth_tolerance: Optional[float] = None,
        max_splits: Optional[int] = None,
    ) -> F64: ...
    def within(
        self, other: ObbTree, pose: PoseLike, d: float, mode: Literal["first", "all"] = "first"
    ) -> Clearance: ...
    def within_batch(self, other: ObbTree, poses: PosesLike, d: float) -> npt.NDArray[np.bool_]: ...
    def time_of_impact(
        self,
        other: ObbTree,
        pose0: PoseLike,
        pose1: PoseLike,
        tol: float = 1e-6,
        clearance: float = 0.0,
        max_distance_calls: int = 100_000,
        rel_err: float = 0.5,
    ) -> Impact:
        """First contact of other's mesh moving from pose0 to pose1 (translation linear,
        rotation at constant angular velocity about B's origin, shortest arc), certified."""
    def time_of_impact_batch(
        self,
        other: ObbTree,
        poses0: PosesLike,
        poses1: PosesLike,
        tol: float = 1e-6,
        clearance: float = 0.0,
        max_distance_calls: int = 100_000,
        rel_err: float = 0.5,
    ) -> Dict[str, npt.NDArray[Any]]:
        """time_of_impact per row pair, in parallel: hit, undecided, t (NaN), free_until,
        distance_calls (N,), point_a, point_b (N, 3)."""
    def path_collides(
        self,
        other: ObbTree,
        poses: PosesLike,
        tol: float = 1e-6,
        clearance: float = 0.0,
        max_distance_calls: int = 100_000,
        rel_err: float = 0.5,
    ) -> Tuple[int, Impact]:
        """First contact along the path through poses (N >= 2), segment by segment:
        (segment, impact); every earlier segment certified free."""
    def least_distance(
        self,
        other: ObbTree,
        poses: PosesLike,
        rel_tol: float = 1e-3,
        tol: float = 0.0,
        max_distance_calls: int = 100_000,
    ) -> Dict[str, Any]:
        """Least distance over the whole path, certified: distance (attained at segment, t, pose,
        point_a, point_b), lower, certified, triangles, rounding_bound, distance_calls."""
    @property
    def sign_method(self) -> Literal["exact winding number", "exact parity", "generalized winding number"]:
        """How inside is decided for this mesh (closed and oriented, closed mod 2, open)."""
    def closest_points(
        self, points: npt.ArrayLike
    ) -> Tuple[F64, F64, U32, F64, npt.NDArray[np.uint8]]:
        """Nearest surface point of each (n, 3) point: (closest, distance, triangle,
        barycentric, feature); feature 0 face, 1-3 edge from corner i to i+1, 4-6 corner.
        Distances exact up to 64·ε·S (S the largest coordinate)."""
    def signed_distance(self, points: npt.ArrayLike) -> F64:
        """Distance to the mesh, negative inside (winding number above 1/2), 0 on it."""
    def contains(self, points: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Inside: winding number above 1/2, exact on closed meshes."""
    def winding_number(self, points: npt.ArrayLike) -> F64:
        """Exact integer winding number on closed meshes; generalized winding number on open ones."""
    @overload
    def cast_rays(
        self, origins: npt.ArrayLike, directions: npt.ArrayLike, mode: Literal["first"] = "first",
        t_min: float = 0.0, t_max: float = ...,
    ) -> Tuple[F64, npt.NDArray[np.int64], F64, F64]:
        """Watertight first hits: (t (inf on a miss), triangle (-1), barycentric, unit normal)."""
    @overload
    def cast_rays(
        self, origins: npt.ArrayLike, directions: npt.ArrayLike, mode: Literal["any"],
        t_min: float = 0.0, t_max: float = ...,
    ) -> npt.NDArray[np.bool_]: ...
    @overload
    def cast_rays(
        self, origins: npt.ArrayLike, directions: npt.ArrayLike, mode: Literal["count"],
        t_min: float = 0.0, t_max: float = ...,
    ) -> npt.NDArray[np.uint64]: ...
    @overload
    def cast_rays(
        self, origins: npt.ArrayLike, directions: npt.ArrayLike, mode: Literal["all"],
        t_min: float = 0.0, t_max: float = ...,
    ) -> Tuple[npt.NDArray[np.uint64], F64, U32]:
        """Every hit: (ray index, t, triangle), by ray then t."""

class Aabb:
    @property
    def min(self) -> F64: ...
    @property
    def max(self) -> F64: ...
    @property
    def center(self) -> F64: ...
    @property
    def half_extents(self) -> F64: ...
    @property
    def volume(self) -> float: ...
    @property
    def surface_area(self) -> float: ...

class Obb:
    @property
    def method(self) -> str: ...
    @property
    def center(self) -> F64: ...
    @property
    def half_extents(self) -> F64: ...
    @property
    def rotation(self) -> F64:
        """3×3; its columns are the box's axes."""
    @property
    def quaternion(self) -> F64:
        """(x, y, z, w)."""
    @property
    def volume(self) -> float: ...
    @property
    def surface_area(self) -> float: ...

class Sphere:
    @property
    def method(self) -> str: ...
    @property
    def center(self) -> F64: ...
    @property
    def radius(self) -> float: ...
    @property
    def volume(self) -> float: ...
    @property
    def surface_area(self) -> float: ...

class Round:
    """A capsule (points within `radius` of `center ± half_length·axis`) or a
    cylinder (`half_length` is half its height)."""

    @property
    def center(self) -> F64: ...
    @property
    def axis(self) -> F64: ...
    @property
    def radius(self) -> float: ...
    @property
    def half_length(self) -> float: ...
    @property
    def quaternion(self) -> F64:
        """Takes +Y to the axis, (x, y, z, w)."""
    @property
    def volume(self) -> float: ...

class BudgetHull:
    """A convex polytope of at most `max` vertices and `max` faces that
    contains every vertex (`fit(..., hull_max=N)`)."""

    @property
    def vertices(self) -> F64:
        """`(n, 3)`."""
    @property
    def faces(self) -> List[List[int]]:
        """Convex polygons of vertex indices, counter-clockwise from outside."""
    @property
    def max(self) -> int: ...
    @property
    def exact(self) -> bool: ...
    @property
    def volume(self) -> float: ...
    @property
    def extra_volume_ratio(self) -> Optional[float]:
        """`volume / hull_volume - 1`; `None` for flat points."""

class Fit:
    @property
    def aabb(self) -> Aabb: ...
    @property
    def obb(self) -> Obb: ...
    @property
    def sphere(self) -> Sphere: ...
    @property
    def capsule(self) -> Optional[Round]: ...
    @property
    def cylinder(self) -> Optional[Round]: ...
    @property
    def hull_budget(self) -> Optional[BudgetHull]: ...
    @property
    def kdops(self) -> Optional[List[Kdop]]:
        """With a k-DOP in `shapes`: the k-DOP in the mesh's frame, then in
        the oriented box's frame."""
    @property
    def decomposition(self) -> Optional[Decomposition]:
        """With `decompose` in `shapes`: the convex parts."""
    @property
    def best(self) -> Optional[Literal["aabb", "obb", "sphere", "capsule", "cylinder"]]:
        """With `best=True`: the smallest primitive by volume."""
    @property
    def hull_volume(self) -> float: ...
    @property
    def hull_vertices(self) -> int: ...
    @property
    def triangles(self) -> int: ...
    @property
    def vertices(self) -> int: ...

def fit(
    mesh: Union[Scene, MeshLike],
    obb: Literal["tight", "fast", "hull", "pca"] = "tight",
    sphere: Literal["exact", "ritter", "centroid"] = "exact",
    *,
    capsule: bool = False,
    cylinder: bool = False,
    hull_max: Optional[int] = None,
    best: bool = False,
    shapes: Optional[Union[str, Sequence[str]]] = None,
) -> Fit:
    """`shapes`: the shape grammar of `bvtool fit --shapes` (`box:METHOD`,
    `sphere:METHOD`, `capsule`, `cylinder`, `kdopK`, `kdopK-obb`,
    `hull[:N]`, `decompose`, `best`); an unknown shape raises `InputError`."""

class Kdop:
    """A k-DOP: the slabs `min[i] <= directions[i]·p <= max[i]` (bounds
    rounded outward), with its polytope."""

    @property
    def kind(self) -> Literal["6", "10x", "10y", "10z", "14", "18", "26"]: ...
    @property
    def frame(self) -> Literal["mesh", "obb"]: ...
    @property
    def quaternion(self) -> F64:
        """The frame's rotation (x, y, z, w), `(4,)`: identity for `"mesh"`."""
    @property
    def directions(self) -> F64:
        """Unit directions in the mesh's frame, `(k/2, 3)`."""
    @property
    def min(self) -> F64:
        """`(k/2,)`, rounded down."""
    @property
    def max(self) -> F64:
        """`(k/2,)`, rounded up."""
    @property
    def vertices(self) -> F64:
        """The polytope's vertices, `(n, 3)`."""
    @property
    def faces(self) -> List[List[int]]:
        """Convex polygons of vertex indices, counter-clockwise from outside."""
    @property
    def volume(self) -> float: ...
    @property
    def surface_area(self) -> float: ...

Source = Union[str, "PathLike[str]", Scene, MeshLike]
"""A model: a path (loaded as `load` loads it), a `Scene`, or a mesh (a
one-instance scene named `<mesh>`)."""

@overload
def export(
    source: Source,
    format: Literal["json", "bin", "c", "gltf", "obj"],
    *,
    shapes: Optional[Union[str, Sequence[str]]] = None,
    path: None = None,
    tree: bool = False,
    per_mesh: bool = False,
    obb: Literal["tight", "fast", "hull", "pca"] = "tight",
    sphere: Literal["exact", "ritter", "centroid"] = "exact",
    whole: bool = False,
    hull_max: int = 255,
    naming: Optional[Literal["unreal", "godot"]] = None,
    debug_lines: bool = False,
    binary: Optional[bool] = None,
    allow_external_uris: bool = False,
) -> bytes: ...
@overload
def export(
    source: Source,
    format: Literal["json", "bin", "c", "gltf", "obj"],
    *,
    shapes: Optional[Union[str, Sequence[str]]] = None,
    path: Union[str, "PathLike[str]"],
    tree: bool = False,
    per_mesh: bool = False,
    obb: Literal["tight", "fast", "hull", "pca"] = "tight",
    sphere: Literal["exact", "ritter", "centroid"] = "exact",
    whole: bool = False,
    hull_max: int = 255,
    naming: Optional[Literal["unreal", "godot"]] = None,
    debug_lines: bool = False,
    binary: Optional[bool] = None,
    allow_external_uris: bool = False,
) -> None:
    """`bvtool export`'s bytes, returned or written atomically to `path`."""

def compare(
    sources: Union[Source, List[Source]],
    *,
    rotations: int = 100,
    poses: int = 50,
    seed: int = 0,
    trees: bool = True,
    allow_external_uris: bool = False,
) -> List[Dict[str, Any]]:
    """One record per source: the fields of `bvtool compare --json`'s
    `files` entries (the table is each record's `"volumes"`)."""

def colliders(
    sources: Union[Source, List[Source]],
    *,
    allow_external_uris: bool = False,
) -> List[Dict[str, Any]]:
    """One record per source: the fields of `bvtool colliders --json`'s
    `files` entries — per render mesh (and once for the whole file's
    colliders) its engine-named colliders, their air and shortfall."""

@overload
def render(
    source: Source,
    volumes: Optional[Union[str, Sequence[str]]] = None,
    *,
    path: None = None,
    view: Literal["iso", "front", "side", "top", "grid"] = "iso",
    size: Optional[Union[str, Tuple[int, int]]] = None,
    up: Literal["y", "z"] = "y",
    per_mesh: bool = False,
    allow_external_uris: bool = False,
) -> npt.NDArray[np.uint8]: ...
@overload
def render(
    source: Source,
    volumes: Optional[Union[str, Sequence[str]]] = None,
    *,
    path: Union[str, "PathLike[str]"],
    view: Literal["iso", "front", "side", "top", "grid"] = "iso",
    size: Optional[Union[str, Tuple[int, int]]] = None,
    up: Literal["y", "z"] = "y",
    per_mesh: bool = False,
    allow_external_uris: bool = False,
) -> None:
    """`bvtool render`'s picture: an `(H, W, 3)` `uint8` RGB array, or a
    PNG written atomically to `path`."""

class ConvexPart:
    """One convex part of a `Decomposition`."""

    @property
    def vertices(self) -> F64:
        """`(n, 3)`."""
    @property
    def faces(self) -> List[List[int]]:
        """Convex polygons of vertex indices, counter-clockwise from outside."""
    @property
    def volume(self) -> float: ...
    @property
    def grown(self) -> bool:
        """Whether mesh vertices V-HACD left out were added to it."""
    @property
    def budgeted(self) -> bool:
        """Whether it was cut to the vertex budget."""

class Decomposition:
    @property
    def parts(self) -> List[ConvexPart]: ...
    @property
    def vertices_added(self) -> int: ...
    @property
    def parts_volume(self) -> float:
        """The sum of the parts' volumes (overlaps count twice)."""
    @property
    def hull_volume(self) -> float: ...
    @property
    def mesh_volume(self) -> Optional[float]:
        """The volume a closed mesh encloses; `None` when it is open."""

def decompose(
    mesh: Union[Scene, MeshLike],
    *,
    max_hulls: int = 16,
    max_vertices: int = 64,
    resolution: int = 64,
) -> Decomposition:
    """Convex parts holding every vertex (`bvtool fit --decompose`)."""

class Part:
    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def node(self) -> Optional[int]: ...
    @property
    def node_name(self) -> Optional[str]: ...
    @property
    def instance(self) -> Optional[int]: ...
    @property
    def mesh(self) -> Optional[int]: ...
    @property
    def mesh_name(self) -> Optional[str]: ...
    @property
    def primitive(self) -> Optional[int]: ...
    @property
    def triangles(self) -> int: ...

class TrianglePair:
    @property
    def a(self) -> TriangleSource: ...
    @property
    def b(self) -> TriangleSource: ...
    @property
    def intersecting(self) -> bool: ...
    @property
    def crossing(self) -> bool: ...
    @property
    def distance(self) -> Optional[float]: ...

class Severity:
    @property
    def depth(self) -> float: ...
    @property
    def protruding(self) -> Optional[int]: ...
    @property
    def normal(self) -> Optional[F64]: ...
    @property
    def point_a(self) -> Optional[F64]: ...
    @property
    def point_b(self) -> Optional[F64]: ...
    @property
    def searched(self) -> Literal["both", "into_a", "into_b", "neither"]: ...
    @property
    def tolerance(self) -> float: ...
    @property
    def bound(self) -> float: ...
    @property
    def capped(self) -> bool: ...

class Clash:
    @property
    def a(self) -> int: ...
    @property
    def b(self) -> int: ...
    @property
    def kind(self) -> Literal["intersecting", "touching", "contained", "clearance"]: ...
    @property
    def triangle_pairs(self) -> int: ...
    @property
    def crossing_pairs(self) -> int: ...
    @property
    def crossing_depth(self) -> float: ...
    @property
    def depth(self) -> Optional[float]: ...
    @property
    def severity(self) -> Optional[Severity]: ...
    @property
    def clearance_pairs(self) -> Optional[int]: ...
    @property
    def min_distance(self) -> Optional[float]: ...
    @property
    def inside(self) -> Optional[int]: ...
    @property
    def pairs(self) -> Optional[list[TrianglePair]]: ...

class Clashes:
    @property
    def parts(self) -> list[Part]: ...
    @property
    def clashes(self) -> list[Clash]: ...
    @property
    def candidate_pairs(self) -> int: ...
    @property
    def touching_dropped(self) -> int: ...
    @property
    def open_containers(self) -> int: ...
    @property
    def shallow(self) -> int: ...
    def __len__(self) -> int: ...

def clash(
    files: Union[StrPath, Scene, Sequence[Union[StrPath, Scene]]],
    *,
    clearance: Optional[float] = None,
    all_pairs: bool = False,
    by: Literal["primitive", "instance", "node", "file"] = "instance",
    ignore_touching: bool = False,
    allow_external_uris: bool = False,
    max_pairs: int = 1_000_000,
    depth: bool = True,
    min_depth: Optional[float] = None,
    depth_tolerance: Optional[float] = None,
    max_splits: Optional[int] = None,
) -> Clashes: ...

class SelfIntersections:
    @property
    def pairs(self) -> U32: ...
    @property
    def degenerate(self) -> U32: ...
    @property
    def faces(self) -> U32: ...
    @property
    def welded_vertices(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __len__(self) -> int: ...

def self_intersections(mesh: Union[MeshLike, Scene]) -> SelfIntersections: ...
def pin_threads() -> bool:
    """Pins this process's worker pool one thread to a CPU, if it does not exist yet; whether it did."""

class Robot:
    """A robot read from a URDF (docs/robots.md): forward kinematics, exact self-collision and distance."""

    def __init__(
        self,
        urdf: StrPath,
        package_dirs: Optional[Mapping[str, StrPath]] = None,
        srdf: Optional[StrPath] = None,
        visual: bool = False,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def dof(self) -> int:
        """Actuated joints (revolute, continuous, prismatic without <mimic>)."""
    @property
    def joint_names(self) -> List[str]:
        """Configuration order: the URDF's actuated joints in document order."""
    @property
    def joint_limits(self) -> List[Optional[Tuple[float, float]]]: ...
    @property
    def link_names(self) -> List[str]: ...
    @property
    def pairs(self) -> U32:
        """(k, 2) indices into link_names: the tested link pairs."""
    @property
    def notes(self) -> List[str]: ...
    def forward_kinematics(self, q: npt.ArrayLike) -> F64:
        """(n, links, 4, 4) link poses in the root link's frame for q (n, dof); (links, 4, 4) for q (dof,)."""
    def self_collision(self, q: npt.ArrayLike) -> Union[bool, npt.NDArray[np.bool_]]:
        """Whether any tested link pair touches: (n,) bools, or one bool for q (dof,). Exact."""
    def colliding_pairs(self, q: npt.ArrayLike) -> Union[U32, List[U32]]:
        """The colliding link pairs ((k, 2) link indices) of each configuration."""
    @overload
    def distance(self, q: npt.ArrayLike, per_pair: Literal[False] = False) -> Union[float, F64]:
        """The least distance between tested link pairs (0 when touching, inf without pairs)."""
    @overload
    def distance(self, q: npt.ArrayLike, per_pair: Literal[True]) -> Dict[str, Any]:
        """Every tested pair's distance: distance, rounding_bound (N, P); point_a, point_b (N, P, 3)
        in the root frame; pairs (P, 2) uint32; names [(link1, link2)]. No leading N for q (dof,)."""
    def generate_acm(
        self,
        samples: int = 10000,
        seed: int = 0,
        always_fraction: float = 0.95,
        min_distance: bool = True,
    ) -> Dict[str, Any]:
        """The allowed-collision matrix (docs/robots.md): keys robot, samples, seed, always_fraction,
        default_configuration, counts, pairs (dicts: link1, link2, reason in Adjacent/Default/Always/Never
        or None, default_collides, samples, collisions, min_distance, min_sample, rounding_bound) and srdf
        (the SRDF text). Same seed, same matrix, on any number of threads; "Never" is statistical."""
    def __reduce__(self) -> Tuple[Any, ...]:
        """Pickles as (urdf, package_dirs, srdf, visual): unpickling reads the files again."""
    def world_collision(self, q: npt.ArrayLike, world: World) -> Union[U32, List[U32]]:
        """The (link, body) index pairs that touch at each configuration (root link frame = world frame). Exact."""
    def world_distance(self, q: npt.ArrayLike, world: World) -> Dict[str, Any]:
        """The least link-to-body distance: distance, rounding_bound (N,); link, body (N,) int64 (-1 without
        a body); point_link, point_body (N, 3), root frame = world frame. 0 where world_collision finds a pair."""

BodyKey = Union[str, int]

class WorldDistance:
    """The least distance between two groups of a World's bodies."""

    @property
    def distance(self) -> float:
        """Length units; 0 when two bodies touch (decided exactly)."""
    @property
    def bodies(self) -> Tuple[str, str]:
        """The bodies (of group a, of group b) where it is reached."""
    @property
    def point_a(self) -> Tuple[float, float, float]:
        """The closest point on the first body, world frame."""
    @property
    def point_b(self) -> Tuple[float, float, float]: ...
    @property
    def rounding_bound(self) -> float:
        """The exact minimum over the f64 triangles is within this of distance."""

class World:
    """Bodies with their own poses (docs/world.md): exact collisions, clearance and distance, a broad phase updated when they move.

    Pickles as its built state (each distinct tree once, as its bytes); copy.copy/deepcopy share the immutable trees."""

    def __init__(self) -> None: ...
    def __copy__(self) -> World: ...
    def __deepcopy__(self, memo: Any) -> World: ...
    @staticmethod
    def from_scene(scene: Union[Scene, StrPath]) -> World:
        """A body per node (OBJ object, STL solid), at the identity pose, its meshes placed as the file places them."""
    def add_mesh(self, name: str, mesh: Union[ObbTree, MeshLike], pose: PoseLike = None) -> int:
        """A body of a mesh: an ObbTree is shared, a mesh gets a tree of its own. Returns its index."""
    def add_box(self, name: str, size: Tuple[float, float, float], pose: PoseLike = None) -> int:
        """A box of edge lengths size, centred on the body's origin (exact)."""
    def add_sphere(self, name: str, radius: float, pose: PoseLike = None) -> int:
        """A sphere, tessellated outward (tessellation_tolerance)."""
    def add_capsule(self, name: str, radius: float, length: float, pose: PoseLike = None) -> int:
        """A capsule about the z axis (segment length), tessellated outward."""
    def add_cylinder(self, name: str, radius: float, length: float, pose: PoseLike = None) -> int:
        """A cylinder about the z axis, tessellated outward."""
    def set_pose(self, body: BodyKey, pose: PoseLike) -> None: ...
    def set_poses(self, bodies: Sequence[BodyKey], poses: PosesLike) -> None:
        """Moves many bodies; every pose checked before any moves."""
    def pose(self, body: BodyKey) -> Pose: ...
    def remove(self, body: BodyKey) -> None:
        """Removes a body: later bodies' indices go down by one (names stay); its allowed pairs go."""
    def allow(self, a: BodyKey, b: BodyKey) -> None:
        """Never test bodies a and b against each other."""
    def colliding_pairs(self) -> List[Tuple[str, str]]:
        """Every tested pair of bodies that touch, cross or hold one another (bodies are solids: docs/world.md, Containment), in index order. Exact."""
    def collide_one(self, body: BodyKey) -> List[str]:
        """The bodies this body touches or crosses, by index."""
    def within(self, clearance: float) -> List[Tuple[str, str]]:
        """Every tested pair of bodies within clearance of each other (touching included)."""
    def distance(self, group_a: Sequence[BodyKey], group_b: Sequence[BodyKey]) -> Optional[WorldDistance]:
        """The least distance between a body of group_a and one of group_b (None without a tested pair)."""
    @property
    def names(self) -> List[str]: ...
    @property
    def tessellation_tolerance(self) -> float:
        """How far at most a tessellated primitive reaches outside its shape (0 without any)."""
    def __len__(self) -> int: ...
