"""python-fcl, the peer the tests and the bench compare with: a bvtool
mesh's arrays as an FCL object (OBBRSS tree), and poses placed on it."""

import fcl
import numpy as np
from scipy.spatial.transform import Rotation


def fcl_object(mesh):
    m = fcl.BVHModel()
    m.beginModel(mesh.vertex_count, mesh.triangle_count)
    m.addSubModel(np.array(mesh.vertices), np.array(mesh.triangles, dtype=np.int64))
    m.endModel()
    return fcl.CollisionObject(m, fcl.Transform())


def fcl_transform(row):
    """A (tx, ty, tz, qx, qy, qz, qw) row as an FCL transform. scipy reads
    quaternions (x, y, z, w), as bvtool does: an independent conversion."""
    return fcl.Transform(Rotation.from_quat(row[3:]).as_matrix(), row[:3])


def fcl_collides(a, b):
    return fcl.collide(a, b, fcl.CollisionRequest(), fcl.CollisionResult()) > 0


def fcl_distance(a, b):
    return fcl.distance(a, b, fcl.DistanceRequest(), fcl.DistanceResult())
