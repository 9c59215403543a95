"""The worked example of docs/python.md runs, and what it prints about
collisions agrees with python-fcl on the same poses."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "robot_links.py"


def test_worked_example(models):
    pytest.importorskip("fcl")
    import fcl

    import bvtool
    from peers import fcl_collides, fcl_object

    out = subprocess.run([sys.executable, str(EXAMPLE), str(models)], capture_output=True, text=True, check=True).stdout
    hits = int(re.search(r"(\d+) of 1000 poses collide", out).group(1))
    links = models / "obj/mujoco_menagerie/kuka_iiwa_14/assets"
    meshes = [bvtool.load_mesh(links / f) for f in ("link_1.obj", "link_2_grey.obj")]
    objects = [fcl_object(m) for m in meshes]
    angle = np.linspace(0, 2 * np.pi, 1000)
    lift = np.linspace(0.0, 0.4, 1000)
    theirs = 0
    for a, z in zip(angle, lift):
        objects[1].setTransform(fcl.Transform(Rotation.from_euler("z", a).as_matrix(), [0, 0, z]))
        theirs += fcl_collides(*objects)
    assert abs(hits - theirs) <= 2  # FCL's float tests may differ at grazing poses
    assert 0 < hits < 1000


def test_readme_snippet_runs(monkeypatch):
    """The README's Python section runs as written (from the repository root)."""
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    section = readme[readme.index("## Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(root)
    exec(compile(code, "README.md", "exec"), {})
