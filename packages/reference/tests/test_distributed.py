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


def run_ranks(tmp_path, script, engine, args=(), env=None, through_launcher=False, timeout=120,
              nproc=2):
    """Run ``script`` on ``nproc`` ranks with ``engine``; returns (CompletedProcess,
    seconds)."""
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(script))
    argv = [str(path), str(tmp_path), *args]
    if through_launcher:
        command = [sys.executable, "-m", "dygrad.distributed.launch", "--nproc_per_node", "2",
                   *argv]
        environ = dict(os.environ)
    else:
        command, environ = launch.mpiexec_command(nproc, argv)
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
    x = T(np.array([r == 0, False, True])); dist.all_reduce(x, op=ReduceOp.MAX)
    res["all_reduce_bool"] = x.numpy()
    x = T(data(r)).t(); dist.all_reduce(x); res["all_reduce_t"] = x.numpy()
    x = T(data(r)); task = dist.all_reduce(x, sync_op=False); task.wait(); res["all_reduce_async"] = x.numpy()
    x = T(data(r)); dist.broadcast(x, src=1); res["broadcast"] = x.numpy()
    x = T(data(r)); dist.reduce(x, dst=0, op=ReduceOp.SUM); res["reduce"] = x.numpy()
    got = []; dist.all_gather(got, T(data(r))); res["all_gather"] = np.stack([t.numpy() for t in got])
    objs = []; dist.all_gather_object(objs, {"rank": r, "name": "x" * r}); msgs["objects"] = objs
    x = T(np.zeros((2, 3))); dist.scatter(x, [T(data(0) * 10), T(data(1) * 10)] if r == 0 else None, src=0)
    res["scatter"] = x.numpy()
    x = T(np.zeros((2, 3))); dist.reduce_scatter(x, [T(data(r)), T(data(r) + 100)])
    res["reduce_scatter"] = x.numpy()
    outs = []; dist.alltoall(outs, [T(data(r) + 10 * j) for j in range(n)])
    res["alltoall"] = np.stack([t.numpy() for t in outs])
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
    x = T(data(r)); dist.all_reduce(x, group=solo); res["solo_x"] = x.numpy()
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


# -- DataParallel ----------------------------------------------------------------------------
# The models and data of the DataParallel runs, shared by the ranks (through this file's
# source, exec'd by the script) and the single-process reference run in the test.
MODELS = '''
import numpy as np


def mlp(paddle):
    """Seed 000's MLP (128-256-256-1, the middle layer used only when ``take``)."""
    F = paddle.nn.functional

    class MyModel(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear1 = paddle.nn.Linear(128, 256)
            self.linear2 = paddle.nn.Linear(256, 256)
            self.linear3 = paddle.nn.Linear(256, 1)

        def forward(self, x, take=True):
            x = F.relu(self.linear1(x))
            if take:
                x = F.relu(self.linear2(x))
            return self.linear3(x)
    return MyModel(), paddle.nn.MSELoss(), paddle.optimizer.SGD


def lenet(paddle):
    """The seed LeNet (W4): conv 5x5 20, pool, conv 5x5 50, pool, fc 10."""
    nn = paddle.nn
    model = nn.Sequential(nn.Conv2D(1, 20, 5), nn.ReLU(), nn.MaxPool2D(2, 2),
                          nn.Conv2D(20, 50, 5), nn.ReLU(), nn.MaxPool2D(2, 2),
                          nn.Flatten(), nn.Linear(800, 10))
    return model, nn.CrossEntropyLoss(), paddle.optimizer.Adam


def batches(kind, steps, per_rank):
    """Each step's global batch (2 * per_rank rows: rank r takes the r-th half) and branch."""
    rs = np.random.RandomState(1)
    out = []
    for t in range(steps):
        if kind == "mlp":
            x = rs.randn(2 * per_rank, 128).astype(np.float32)
            y = rs.randn(2 * per_rank, 1).astype(np.float32)
        else:
            x = rs.rand(2 * per_rank, 1, 28, 28).astype(np.float32)
            y = rs.randint(0, 10, (2 * per_rank, 1)).astype(np.int64)
        out.append((x, y, t % 3 != 1))
    return out


def train(paddle, kind, model, loss_fn, opt, steps, per_rank, rank=None, accumulate=False):
    """Train ``steps`` steps; ``rank`` None trains on the whole global batches. With
    ``accumulate`` two batches go into each update (the first under model.no_sync() when
    the model has it)."""
    data = batches(kind, steps, per_rank)
    part = slice(None) if rank is None else slice(rank * per_rank, (rank + 1) * per_rank)
    args = (lambda take: (take,)) if kind == "mlp" else (lambda take: ())
    for t, (x, y, take) in enumerate(data):
        x, y = paddle.to_tensor(x[part]), paddle.to_tensor(y[part])
        if accumulate and t % 2 == 0:
            sync = getattr(model, "no_sync", None)
            with sync() if sync else _null():
                loss_fn(model(x, *args(take)), y).backward()
            continue
        loss_fn(model(x, *args(take)), y).backward()
        opt.step()
        opt.clear_grad()


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
'''

DATA_PARALLEL = """
    import sys
    import numpy as np
    import dygrad as paddle
    import dygrad.distributed as dist

    out, kind, steps, per_rank, accumulate, buckets = sys.argv[1:7]
    steps, per_rank, accumulate, buckets = int(steps), int(per_rank), accumulate == "1", float(buckets)
    exec(open(f"{out}/models.py").read())
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(100 + rank)  # different initial weights: DataParallel broadcasts rank 0's
    net, loss_fn, opt_class = (mlp if kind == "mlp" else lenet)(paddle)
    model = paddle.DataParallel(net, comm_buffer_size=buckets, last_comm_buffer_size=buckets / 4,
                                find_unused_parameters=kind == "mlp")
    opt = opt_class(learning_rate=0.01, parameters=model.parameters())
    train(paddle, kind, model, loss_fn, opt, steps, per_rank, rank, accumulate)
    state = model.state_dict()
    np.savez(f"{out}/rank{rank}.npz", **{k: v.numpy() for k, v in state.items()},
             n_buckets=len(model._reducer.buckets))
"""


def single_process(tmp_path, kind, steps, per_rank, accumulate):
    namespace = {}
    exec((tmp_path / "models.py").read_text(), namespace)
    paddle.seed(100)
    net, loss_fn, opt_class = namespace["mlp" if kind == "mlp" else "lenet"](paddle)
    opt = opt_class(learning_rate=0.01, parameters=net.parameters())
    namespace["train"](paddle, kind, net, loss_fn, opt, steps, per_rank, None, accumulate)
    return {k: v.numpy() for k, v in net.state_dict().items()}


@pytest.mark.parametrize("kind, steps, per_rank, accumulate, buckets", [
    ("mlp", 4, 8, False, 25), ("lenet", 3, 6, False, 0.02), ("mlp", 4, 5, True, 0.3)],
    ids=["mlp", "lenet-buckets", "mlp-no_sync"])
def test_data_parallel_equals_one_process_on_the_whole_batch(tmp_path, engine, kind, steps,
                                                             per_rank, accumulate, buckets):
    (tmp_path / "models.py").write_text(MODELS)
    done, _ = run_ranks(tmp_path, DATA_PARALLEL, engine,
                        [kind, str(steps), str(per_rank), str(int(accumulate)), str(buckets)])
    ok(done)
    ranks = [np.load(tmp_path / f"rank{r}.npz") for r in range(2)]
    want = single_process(tmp_path, kind, steps, per_rank, accumulate)
    assert set(ranks[0].files) == set(want) | {"n_buckets"}  # no "_layers." prefix
    if buckets < 1:
        assert ranks[0]["n_buckets"] > 2
    for name, value in want.items():
        np.testing.assert_array_equal(ranks[0][name], ranks[1][name], err_msg=name)
        # Adam divides by sqrt(v): rounding of tiny gradients moves a weight by ~1e-5
        np.testing.assert_allclose(ranks[0][name], value, rtol=2e-5, atol=2e-5, err_msg=name)


# -- faults ----------------------------------------------------------------------------------
HANGING_RANK = """
    import sys, time
    import dygrad as paddle
    import dygrad.distributed as dist

    how = sys.argv[2]
    dist.init_parallel_env(timeout=2 if how == "argument" else None)
    if dist.get_rank() == 1:
        if how == "crash":
            raise ValueError("rank 1 fails before the collective")
        time.sleep(100)  # stopped: never reaches the collective
    dist.all_reduce(paddle.ones([3]))
    print("rank 0 should not get here")
"""


@pytest.mark.parametrize("how", ["argument", "environment", "crash"])
def test_a_dead_rank_makes_the_others_fail_within_the_timeout(tmp_path, engine, how):
    if engine != "reference":
        pytest.skip("engine-independent (no op runs before the failure)")
    env = {"DYGRAD_DIST_TIMEOUT": "2"} if how == "environment" else {}
    done, seconds = run_ranks(tmp_path, HANGING_RANK, engine, [how], env=env)
    assert done.returncode != 0 and "should not get here" not in done.stdout
    assert seconds < 30
    if how == "crash":
        assert "ValueError: rank 1 fails before the collective" in done.stderr
    else:
        assert ("DistributedError: paddle.distributed.all_reduce: rank 0 of a group of 2 waited "
                in done.stderr)
        assert "the limit is 2 s, set by init_parallel_env(timeout=...) or" in done.stderr


UNUSED_PARAMETER = """
    import sys
    import dygrad as paddle
    import dygrad.distributed as dist

    dist.init_parallel_env()
    paddle.seed(0)
    layers = paddle.nn.LayerList([paddle.nn.Linear(3, 3), paddle.nn.Linear(3, 1)])
    model = paddle.DataParallel(layers)  # find_unused_parameters=False
    model._layers.forward = lambda x: layers[1](x)  # layers[0] gets no gradient
    model(paddle.ones([2, 3])).sum().backward()
    try:
        model(paddle.ones([2, 3]))
    except RuntimeError as e:
        print("ERROR", e)
"""


def test_unused_parameters_without_find_unused_parameters_raise(tmp_path, engine):
    if engine != "reference":
        pytest.skip("engine-independent")
    done, _ = run_ranks(tmp_path, UNUSED_PARAMETER, engine)
    ok(done)
    for rank in range(2):  # the ranks' lines may interleave
        assert (f"DataParallel: rank {rank} got no gradient for parameters ['linear_0.b_0', "
                f"'linear_0.w_0'] in the previous backward" in done.stdout), done.stdout
    assert done.stdout.count("Pass find_unused_parameters=True to paddle.DataParallel") == 2


SPAWN = """
    import sys
    import dygrad as paddle
    import dygrad.distributed as dist


    def train(out, scale):
        dist.init_parallel_env()
        x = paddle.to_tensor([float(dist.get_rank() + 1) * scale])
        dist.all_reduce(x)
        with open(f"{out}/rank{dist.get_rank()}.txt", "w") as f:
            f.write(str(float(x.numpy()[0])))


    def fail():
        raise ValueError("boom")


    if __name__ == "__main__":
        dist.spawn(train, args=(sys.argv[1], 2.0), nprocs=2)
        try:
            dist.spawn(fail, nprocs=2)
        except RuntimeError as e:
            print("FAILED", e)
"""


def test_spawn_runs_a_function_of_the_main_script_on_new_ranks(tmp_path, engine):
    if engine != "reference":
        pytest.skip("engine-independent")
    path = tmp_path / "main.py"
    path.write_text(textwrap.dedent(SPAWN))
    done = subprocess.run([sys.executable, str(path), str(tmp_path)], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, OMP_NUM_THREADS="1"))
    ok(done)
    assert [(tmp_path / f"rank{r}.txt").read_text() for r in range(2)] == ["6.0", "6.0"]
    assert "FAILED paddle.distributed.spawn: the ranks failed (exit status" in done.stdout
    assert "ValueError: boom" in done.stderr

# -- in one process (no MPI job) -------------------------------------------------------------
def test_single_process_data_parallel_is_a_plain_wrapper():
    paddle.seed(0)
    net = paddle.nn.Linear(3, 2)
    model = paddle.DataParallel(net)
    x = paddle.randn([4, 3])
    np.testing.assert_array_equal(model(x).numpy(), net(x).numpy())
    assert list(model.state_dict()) == ["weight", "bias"]
    assert [n for n, _ in model.named_parameters()] == ["_layers.weight", "_layers.bias"]
    assert model.parameters() == net.parameters()
    with model.no_sync():
        model(x).sum().backward()
    np.testing.assert_allclose(net.weight.grad.numpy(), np.tile(x.numpy().sum(0)[:, None], 2),
                               rtol=1e-6)
    with pytest.raises(TypeError, match="DataParallel: layers should be a paddle.nn.Layer"):
        paddle.DataParallel(lambda x: x)


def test_without_init_parallel_env():
    dist = paddle.distributed
    assert (dist.get_rank(), dist.get_world_size(), dist.is_initialized()) == (0, 1, False)
    env = dist.ParallelEnv()
    assert (env.rank, env.world_size, env.device_id, env.trainer_endpoints) == (0, 1, 0, [])
    with pytest.raises(RuntimeError, match="call paddle.distributed.init_parallel_env"):
        dist.all_reduce(paddle.ones([2]))
    with pytest.raises(ValueError, match="op should be one of"):
        dist.all_reduce(paddle.ones([2]), op=7)
    assert (dist.ReduceOp.SUM, dist.ReduceOp.MAX, dist.ReduceOp.MIN, dist.ReduceOp.PROD,
            dist.ReduceOp.AVG) == (0, 1, 2, 3, 4)  # Paddle's values


def test_mnist_demo_on_two_ranks(tmp_path, engine):
    if engine != "reference":
        pytest.skip("one engine is enough (the demo's --engine default is dygrad's)")
    out = tmp_path / "demo"
    done = subprocess.run(
        [sys.executable, "-m", "dygrad.demo", "mnist", "--nproc", "2", "--epochs", "1",
         "--num-iters", "3", "--output-dir", str(out)],
        capture_output=True, text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
    ok(done)
    assert "2 ranks (DataParallel, batch size 64 per rank)" in done.stdout
    assert done.stdout.count("Test accuracy:") == 1  # rank 0 alone prints
    assert "samples in" in done.stdout and "on 2 ranks)" in done.stdout
    assert sorted(p.name for p in out.iterdir()) == ["lenet.pdopt", "lenet.pdparams"]
    state = paddle.load(str(out / "lenet.pdparams"))
    assert "features.0.weight" in state  # saved without DataParallel's prefix


# -- NCCL (CUDA tensors) -----------------------------------------------------------------------
NCCL = """
    import sys
    import numpy as np
    import dygrad as paddle
    import dygrad.distributed as dist

    dist.init_parallel_env()
    r, n = dist.get_rank(), dist.get_world_size()
    paddle.set_device(f"gpu:{dist.ParallelEnv().device_id}")
    x = paddle.to_tensor(np.arange(4, dtype=np.float32) + r)
    assert "gpu" in str(x.place).lower() or "cuda" in str(x.place).lower(), x.place
    dist.all_reduce(x, op=dist.ReduceOp.AVG)
    got = []
    dist.all_gather(got, paddle.to_tensor(np.full(3, r, np.float32)))
    y = paddle.to_tensor(np.full(2, r, np.float32)); dist.broadcast(y, src=n - 1)
    np.testing.assert_allclose(x.numpy(), np.arange(4) + (n - 1) / 2)
    np.testing.assert_allclose(np.stack([t.numpy() for t in got]), np.repeat(np.arange(n), 3).reshape(n, 3))
    np.testing.assert_allclose(y.numpy(), [n - 1, n - 1])
    print("NCCL OK", r)
"""


def _cuda_devices():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:  # CuPy missing, or no driver/device
        return 0


def test_nccl_collectives_on_cuda_tensors(tmp_path, engine):
    devices = _cuda_devices()
    if devices == 0:
        pytest.skip("the NCCL backend needs CuPy and a CUDA device (none here)")
    if engine != "accelerated":
        pytest.skip("CUDA tensors need the accelerated engine")
    nproc = min(devices, 2)  # NCCL wants one device per rank
    done, _ = run_ranks(tmp_path, NCCL, engine, nproc=nproc)
    ok(done)
    assert done.stdout.count("NCCL OK") == nproc
