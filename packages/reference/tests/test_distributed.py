"""paddle.distributed with 2 ranks: each test starts a small script under mpiexec (the MPI
that `pip install 'dygrad[distributed]'` brings) and checks what the ranks saved against
NumPy statements or against one process training on the concatenated batches."""

import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import dygrad as paddle
from dygrad.distributed import launch

try:
    import mpi4py  # noqa: F401
    MPIEXEC = launch._find_mpiexec()
    SKIP = None
except (ImportError, FileNotFoundError) as e:
    SKIP = f"mpi4py or mpiexec missing ({e}); pip install 'dygrad[distributed]'"

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


def run_ranks(tmp_path, script, engine, args=(), env=None, through_launcher=False, timeout=120):
    """Run ``script`` on 2 ranks with ``engine``; returns (CompletedProcess, seconds)."""
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(script))
    argv = [str(path), str(tmp_path), *args]
    if through_launcher:
        command = [sys.executable, "-m", "dygrad.distributed.launch", "--nproc_per_node", "2",
                   *argv]
        environ = dict(os.environ)
    else:
        command, environ = launch.mpiexec_command(2, argv)
    environ.update(DYGRAD_ENGINE=engine, OMP_NUM_THREADS="1", **(env or {}))
    start = time.monotonic()
    done = subprocess.run(command, env=environ, capture_output=True, text=True, timeout=timeout)
    return done, time.monotonic() - start


def ok(done):
    assert done.returncode == 0, done.stdout + done.stderr


def rank_data(r):
    return np.arange(6, dtype=np.float64).reshape(2, 3) * (r + 1) + r


COLLECTIVES = """
    import json, sys
    import numpy as np
    import dygrad as paddle
    import dygrad.distributed as dist
    from dygrad.distributed import ReduceOp

    out = sys.argv[1]
    group = dist.init_parallel_env()
    r, n = dist.get_rank(), dist.get_world_size()
    T = paddle.to_tensor
    def data(r):
        return np.arange(6, dtype=np.float64).reshape(2, 3) * (r + 1) + r
    res, msgs = {}, {}
    for name in ("SUM", "MAX", "MIN", "PROD", "AVG"):
        x = T(data(r))
        dist.all_reduce(x, op=getattr(ReduceOp, name))
        res["all_reduce_" + name] = x.numpy()
    x = T(data(r).astype(np.float16)); dist.all_reduce(x); res["all_reduce_f16"] = x.numpy()
    x = T(np.arange(4) * (r + 1)); dist.all_reduce(x, op=ReduceOp.MAX); res["all_reduce_i64"] = x.numpy()
    x = T(np.array([r == 0, False, True])); dist.all_reduce(x, op=ReduceOp.MAX); res["all_reduce_bool"] = x.numpy()
    x = T(data(r)).t(); dist.all_reduce(x); res["all_reduce_t"] = x.numpy()
    x = T(data(r)); task = dist.all_reduce(x, sync_op=False); task.wait(); res["all_reduce_async"] = x.numpy()
    x = T(data(r)); dist.broadcast(x, src=1); res["broadcast"] = x.numpy()
    x = T(data(r)); dist.reduce(x, dst=0, op=ReduceOp.SUM); res["reduce"] = x.numpy()
    got = []; dist.all_gather(got, T(data(r))); res["all_gather"] = np.stack([t.numpy() for t in got])
    objs = []; dist.all_gather_object(objs, {"rank": r, "name": "x" * r}); msgs["objects"] = objs
    x = T(np.zeros((2, 3))); dist.scatter(x, [T(data(0) * 10), T(data(1) * 10)] if r == 0 else None, src=0)
    res["scatter"] = x.numpy()
    x = T(np.zeros((2, 3))); dist.reduce_scatter(x, [T(data(r)), T(data(r) + 100)]); res["reduce_scatter"] = x.numpy()
    outs = []; dist.alltoall(outs, [T(data(r) + 10 * j) for j in range(n)]); res["alltoall"] = np.stack([t.numpy() for t in outs])
    peer = 1 - r
    if r == 0:
        dist.send(T(data(0)), dst=1)
        y = T(np.zeros((2, 3))); dist.recv(y, src=1); res["recv"] = y.numpy()
    else:
        y = T(np.zeros((2, 3))); dist.recv(y, src=0); res["recv"] = y.numpy()
        dist.send(T(data(1)), dst=0)
    y = T(np.zeros((2, 3)))
    tasks = [dist.isend(T(data(r) * 2), dst=peer), dist.irecv(y)]
    for t in tasks: t.wait()
    res["irecv"] = y.numpy()
    dist.barrier()
    solo = dist.new_group([1]); both = dist.new_group([0, 1])
    x = T(data(r)); res["solo"] = np.array([dist.all_reduce(x, group=solo) is None]); res["solo_x"] = x.numpy()
    msgs["groups"] = [dist.get_rank(solo), dist.get_world_size(solo), dist.get_rank(both), both.nranks]
    x = T(data(r)); dist.all_reduce(x, group=both); res["both"] = x.numpy()
    try:
        dist.all_reduce(T(np.zeros(3 if r else 2, np.float32)))
    except dist.DistributedError as e:
        msgs["mismatch"] = str(e)
    try:
        dist.recv(T(np.zeros((3, 2)))) if r == 1 else dist.send(T(np.zeros((2, 3))), dst=1)
    except dist.DistributedError as e:
        msgs["recv_mismatch"] = str(e)
    env = dist.ParallelEnv()
    sampler = paddle.io.DistributedBatchSampler(list(range(10)), batch_size=2)
    msgs["env"] = [env.rank, env.world_size, env.local_rank, env.nranks, dist.is_initialized()]
    msgs["sampler"] = [sampler.nranks, sampler.local_rank, list(sampler)]
    np.savez(f"{out}/rank{r}.npz", **res)
    json.dump(msgs, open(f"{out}/rank{r}.json", "w"))
"""


def test_collectives_match_numpy(tmp_path, engine):
    done, _ = run_ranks(tmp_path, COLLECTIVES, engine, through_launcher=True)
    ok(done)
    res = [np.load(tmp_path / f"rank{r}.npz") for r in range(2)]
    msgs = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(2)]
    d = np.stack([rank_data(0), rank_data(1)])
    expect_all = {"all_reduce_SUM": d.sum(0), "all_reduce_MAX": d.max(0),
                  "all_reduce_MIN": d.min(0), "all_reduce_PROD": d.prod(0),
                  "all_reduce_AVG": d.mean(0), "all_reduce_t": d.sum(0).T,
                  "all_reduce_async": d.sum(0), "broadcast": d[1], "all_gather": d,
                  "all_reduce_f16": d.astype(np.float16).sum(0),
                  "all_reduce_i64": np.arange(4) * 2,
                  "all_reduce_bool": np.array([True, False, True]), "both": d.sum(0),
                  "reduce_scatter": None, "alltoall": None}
    for r in range(2):
        for key, want in expect_all.items():
            if want is not None:
                np.testing.assert_allclose(res[r][key], want, err_msg=key)
        assert res[r]["all_reduce_f16"].dtype == np.float16
        np.testing.assert_allclose(res[r]["scatter"], d[r] * 10)
        np.testing.assert_allclose(res[r]["reduce_scatter"], d.sum(0) + 2 * 100 * r)
        np.testing.assert_allclose(res[r]["alltoall"], d + 10 * r)  # out[j] = rank j's in[r]
        np.testing.assert_allclose(res[r]["recv"], d[1 - r])
        np.testing.assert_allclose(res[r]["irecv"], d[1 - r] * 2)
        np.testing.assert_allclose(res[r]["solo_x"], d[r])  # a one-rank group changes nothing
        assert msgs[r]["objects"] == [{"rank": 0, "name": ""}, {"rank": 1, "name": "x"}]
        assert msgs[r]["env"] == [r, 2, r, 2, True]
        assert msgs[r]["sampler"] == [2, r, [[0, 1], [4, 5], [8]] if r == 0 else [[2, 3], [6, 7], [9]]]
        assert msgs[r]["mismatch"] == (
            "paddle.distributed.all_reduce: the tensors differ across the ranks of the group "
            "(rank 0: float32[2], rank 1: float32[3]); every rank must pass a tensor of the "
            "same shape and dtype")
    np.testing.assert_allclose(res[0]["reduce"], d.sum(0))
    np.testing.assert_allclose(res[1]["reduce"], d[1])  # only dst receives the result
    assert msgs[0]["groups"] == [-1, 1, 0, 2] and msgs[1]["groups"] == [0, 1, 1, 2]
    assert "recv_mismatch" not in msgs[0]
    assert msgs[1]["recv_mismatch"] == ("paddle.distributed.recv: rank 1 expects float64[3, 2] "
                                        "but rank 0 sent float64[2, 3]")
