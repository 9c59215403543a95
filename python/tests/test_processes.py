"""bvtool in other processes: `import bvtool` starts no thread; every
start method of multiprocessing (fork, spawn, forkserver), with
multiprocessing.Pool and ProcessPoolExecutor, gives children that build
trees and answer batches equal to the parent's — after the parent has used
its own pool, the case where a forked child used to hang; a SIGINT during a
long batch raises KeyboardInterrupt within 0.5 s.

Each scenario runs in a subprocess of its own session with a timeout, so a
hang fails the test (and its process group is killed) instead of hanging CI.
"""

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TIMEOUT = 60


def run_script(code, timeout=TIMEOUT):
    """Runs `code` in a fresh Python (this directory importable) and returns
    its stdout; a timeout kills its whole process group and fails."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
    p = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail(f"timed out after {timeout} s (a hang)")
    assert p.returncode == 0, f"exit {p.returncode}\n{out}\n{err}"
    return out


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_import_starts_no_thread_and_work_does():
    out = run_script(
        """
        import os
        import numpy  # its own threads (BLAS) are not bvtool's
        count = lambda: len(os.listdir("/proc/self/task"))
        before = count()
        import bvtool, bvtool.distributed
        after_import = count()
        from mp_tasks import tetra_grid, poses
        t = bvtool.ObbTree(bvtool.Mesh(*tetra_grid()))
        t.collide_batch(t, poses(50))
        names = [open(f"/proc/self/task/{t}/comm").read().strip() for t in os.listdir("/proc/self/task")]
        print(before, after_import, count(), sum(n.startswith("bvtool-") for n in names))
        """
    )
    before, after_import, after_work, workers = map(int, out.split())
    assert after_import == before
    # The check can see threads: the first parallel call starts the pool.
    assert workers >= 1 and after_work == before + workers


SCENARIO = """
import multiprocessing as mp, sys
from concurrent.futures import ProcessPoolExecutor
import numpy as np
import bvtool
from mp_tasks import tetra_grid, poses, answers, build_and_answer, answer_with_trees

method, kind = sys.argv[1], sys.argv[2]
mesh_a = tetra_grid(3)
mesh_b = tetra_grid(2)
a = bvtool.ObbTree(bvtool.Mesh(*mesh_a))
b = bvtool.ObbTree(bvtool.Mesh(*mesh_b))
p = poses()
# The parent's pool exists (and is busy once) before any child starts.
expected = answers(a, b, p)
assert expected[0].any() and not expected[0].all(), "poses both meet and miss"
ctx = mp.get_context(method)
jobs = [(build_and_answer, (mesh_a, mesh_b, p)), (answer_with_trees, (a, b, p))] * 2
if kind == "pool":
    with ctx.Pool(2) as pool:
        results = [pool.apply_async(f, (x,)) for f, x in jobs]
        got = [r.get(timeout=50) for r in results]
else:
    with ProcessPoolExecutor(2, mp_context=ctx) as ex:
        got = [f.result(timeout=50) for f in [ex.submit(f, x) for f, x in jobs]]
for g in got:
    for e, x in zip(expected, g[:3]):
        assert e.dtype == x.dtype and np.array_equal(e, x), (method, kind)
import os
assert all(g[3] != os.getpid() for g in got)
print("ok", len(got))
"""


@pytest.mark.parametrize("kind", ["pool", "executor"])
@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_children_of_every_start_method_answer_as_the_parent(method, kind):
    import multiprocessing

    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"{method} is not available here")
    env_code = f"import sys; sys.argv = ['x', {method!r}, {kind!r}]\n" + SCENARIO
    out = run_script(env_code)
    assert out.split() == ["ok", "4"]


def test_sigint_during_a_long_batch_raises_promptly():
    out = run_script(
        """
        import os, signal, threading, time
        import numpy as np
        import bvtool
        from mp_tasks import tetra_grid, poses
        t = bvtool.ObbTree(bvtool.Mesh(*tetra_grid(6)))
        p = poses(2000)
        start = time.perf_counter()
        t.distance_batch(t, p)
        per_pose = (time.perf_counter() - start) / len(p)
        # A batch of about 30 s at that rate.
        big = np.tile(p, (max(1, int(30.0 / per_pose / len(p))), 1))
        sent = {}
        def interrupt():
            time.sleep(0.5)
            sent["at"] = time.perf_counter()
            os.kill(os.getpid(), signal.SIGINT)
        threading.Thread(target=interrupt).start()
        start = time.perf_counter()
        try:
            t.distance_batch(t, big)
            print("finished", time.perf_counter() - start)
        except KeyboardInterrupt:
            print("interrupted", time.perf_counter() - sent["at"], len(big) * per_pose)
        """
    )
    word, delay, planned = out.split()
    assert word == "interrupted", out
    assert float(planned) > 10.0, f"the batch would have lasted only {planned} s"
    assert float(delay) < 0.5, f"KeyboardInterrupt {delay} s after SIGINT"


@pytest.mark.parametrize("query", ["signed_distance", "cast_rays"])
def test_sigint_stops_a_point_or_ray_batch(query):
    """A point batch and a ray batch sized to last about 4 s stop within
    0.5 s of SIGINT, and the pool is free at once: the same small batch
    then takes about as long as before and answers the same."""
    out = run_script(
        f"""
        import os, signal, threading, time
        import numpy as np
        import bvtool
        from mp_tasks import tetra_grid
        t = bvtool.ObbTree(bvtool.Mesh(*tetra_grid(12)))
        rng = np.random.default_rng(3)
        def batch(n):
            p = rng.uniform(-2.0, 20.0, (n, 3))
            if {query!r} == "signed_distance":
                return lambda: t.signed_distance(p)
            d = rng.normal(size=(n, 3))
            return lambda: t.cast_rays(p, d, mode="count")
        small = batch(20000)
        small()
        start = time.perf_counter()
        before = small()
        took = time.perf_counter() - start
        n = min(8_000_000, int(4.0 / took * 20000))
        big = batch(n)
        sent = {{}}
        def interrupt():
            time.sleep(0.3)
            sent["at"] = time.perf_counter()
            os.kill(os.getpid(), signal.SIGINT)
        threading.Thread(target=interrupt).start()
        try:
            big()
            print("finished")
        except KeyboardInterrupt:
            delay = time.perf_counter() - sent["at"]
            start = time.perf_counter()
            after = small()
            again = time.perf_counter() - start
            print("interrupted", delay, n / 20000 * took, again / took, np.array_equal(before, after))
        """
    )
    word, delay, planned, slower, same = out.split()
    assert word == "interrupted", out
    assert float(planned) > 1.5, f"the batch would have lasted only {planned} s"
    assert float(delay) < 0.5, f"KeyboardInterrupt {delay} s after SIGINT"
    assert float(slower) < 3.0, f"the next batch took {slower} times as long: the pool was busy"
    assert same == "True"
