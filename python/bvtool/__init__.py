"""Bounding volumes, exact mesh–mesh collision, distance and clearance,
scene clashes and self-intersections, on numpy arrays (docs/python.md).

The classes and functions are those of the compiled extension
(`bvtool.bvtool`, re-exported here); `bvtool.distributed` holds helpers to
fan work out on a Dask cluster or on Ray.
"""

from .bvtool import *  # noqa: F401,F403
from .bvtool import __version__  # noqa: F401
