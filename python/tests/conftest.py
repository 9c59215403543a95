"""Shared fixtures: the model corpus, the command-line binary to compare
against, and seeded random poses."""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def corpus_dir():
    d = Path(os.environ.get("BVTOOL_MODELS", ROOT.parent / "shared" / "models"))
    return d if (d / "manifest.json").is_file() else None


@pytest.fixture(scope="session")
def models():
    """The model corpus ($BVTOOL_MODELS, default ../shared/models). Tests
    that need it skip without it, except under CI=true, where they fail."""
    d = corpus_dir()
    if d is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but the model corpus is missing (set BVTOOL_MODELS)")
        pytest.skip("no model corpus")
    return d


@pytest.fixture(scope="session")
def bvtool_bin():
    """The release command-line binary of this checkout: $BVTOOL_BIN when
    set (.ci/run sets it to the binary its `cargo test --release` built,
    which a rebuild here would redo after maturin's build of the shared
    dependencies), else built here if needed."""
    given = os.environ.get("BVTOOL_BIN")
    if given:
        return Path(given)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--bin", "bvtool"],
        cwd=ROOT,
        check=True,
    )
    return ROOT / "target" / "release" / "bvtool"


@pytest.fixture(scope="session")
def cli(bvtool_bin):
    """Runs `bvtool ARGS --json` and returns the parsed document."""

    def run(*args):
        out = subprocess.run(
            [str(bvtool_bin), *map(str, args), "--json"],
            capture_output=True,
            text=True,
        )
        assert out.returncode in (0, 3), out.stderr
        return json.loads(out.stdout)

    return run


def random_poses(rng, n, reach):
    """n poses as an (n, 7) array: uniform rotations (x, y, z, w) and
    translations uniform in [-reach, reach]^3."""
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    t = rng.uniform(-reach, reach, size=(n, 3))
    return np.hstack([t, q])


def poses_near(ma, mb, seed, n, reach):
    """n poses that put mesh B's box centre within reach·size of mesh A's
    (size: the larger box diagonal), as an (n, 7) array, and the size."""
    from scipy.spatial.transform import Rotation

    (la, ha), (lb, hb) = ma.aabb, mb.aabb
    size = max(np.linalg.norm(ha - la), np.linalg.norm(hb - lb))
    rows = random_poses(np.random.default_rng(seed), n, reach * size)
    for r in rows:
        r[:3] += (la + ha) / 2 - Rotation.from_quat(r[3:]).apply((lb + hb) / 2)
    return rows, size


def pose_json(row):
    return {"translation": list(map(float, row[:3])), "rotation": list(map(float, row[3:]))}


def peer(name):
    """The peer module `name` (coal, pinocchio): the test skips without it,
    except under CI=true, where the `[test]` extras install it and its
    absence fails the test."""
    if os.environ.get("CI") == "true":
        import importlib

        return importlib.import_module(name)
    return pytest.importorskip(name)
