"""dygrad.io: datasets, samplers, batch samplers and the DataLoader (single- and multi-process)."""

import gc
import multiprocessing
import os
import time

import numpy as np
import pytest

import dygrad
from dygrad.io import (
    BatchSampler,
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    DataLoader,
    Dataset,
    DistributedBatchSampler,
    IterableDataset,
    RandomSampler,
    Sampler,
    SequenceSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    get_worker_info,
    random_split,
)
from dygrad.io import dataloader as dataloader_mod
from dygrad.io.collate import default_collate_fn

# -- datasets used below (module level, so that spawned workers can unpickle them) -----------

class Squares(Dataset):
    """Sample i: (float32 array [i, i*i], int i, float i/2)."""

    def __init__(self, n=10):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return np.array([i, i * i], dtype=np.float32), i, i / 2


class Records(Dataset):
    """Dict samples with a string, a bool and a nested tuple."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return {"x": np.full((2, 2), i, dtype=np.float64), "name": f"r{i}", "flag": i % 2 == 0,
                "pair": (i, np.int32(i))}


class Stream(IterableDataset):
    """0..n-1, split between the workers by get_worker_info (contiguous shards)."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        lo, hi = 0, self.n
        if info is not None:
            per = -(-self.n // info.num_workers)
            lo, hi = info.id * per, min(self.n, (info.id + 1) * per)
        for i in range(lo, hi):
            yield np.array([i], dtype=np.int64)


class WhoAmI(Dataset):
    """What the worker that loads sample i knows about itself."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return {"i": i, "worker": info.id, "num_workers": info.num_workers, "pid": os.getpid(),
                "init": int(os.environ.get("DYGRAD_TEST_INIT", -1)),
                "same_dataset": info.dataset.__class__.__name__ == "WhoAmI"}


class Failing(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        if i == 5:
            raise ValueError(f"bad sample {i}")
        return np.array([i])


class Dying(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        if get_worker_info() is not None and i == 3:
            os._exit(7)
        return np.array([i])


class Slow(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        time.sleep(0.5)
        return np.array([i])


class Counted(Dataset):
    """Counts the samples fetched (in any process) in a shared counter."""

    def __init__(self, counter):
        self.counter = counter

    def __len__(self):
        return 20

    def __getitem__(self, i):
        with self.counter.get_lock():
            self.counter.value += 1
        return np.array([i])


class Plain(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


def set_init_env(worker_id):
    os.environ["DYGRAD_TEST_INIT"] = str(100 + worker_id)


def failing_init(worker_id):
    raise RuntimeError(f"init of worker {worker_id} failed")


def as_numpy(batch):
    """A loader batch with Tensors made NumPy arrays (to compare runs)."""
    if isinstance(batch, dygrad.Tensor):
        return batch.numpy()
    if isinstance(batch, dict):
        return {k: as_numpy(v) for k, v in batch.items()}
    if isinstance(batch, list):
        return [as_numpy(v) for v in batch]
    return batch


def assert_same(a, b):
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            assert_same(a[k], b[k])
    elif isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        assert a == b


def load(loader):
    return [as_numpy(b) for b in loader]


@pytest.fixture(autouse=True)
def no_children_left():
    """Every test leaves no worker process behind."""
    yield
    assert multiprocessing.active_children() == []


# -- datasets -----------------------------------------------------------------------------

def test_base_classes_ask_for_their_methods():
    with pytest.raises(NotImplementedError):
        Dataset()[0]
    with pytest.raises(NotImplementedError):
        len(Dataset())
    with pytest.raises(NotImplementedError):
        iter(IterableDataset())
    with pytest.raises(RuntimeError):
        IterableDataset()[0]
    with pytest.raises(RuntimeError):
        len(IterableDataset())
    with pytest.raises(NotImplementedError):
        iter(Sampler())


def test_tensor_dataset_checks_lengths():
    x = dygrad.to_tensor(np.zeros((4, 3), dtype=np.float32))
    y = dygrad.to_tensor(np.arange(4))
    assert len(TensorDataset([x, y])) == 4
    with pytest.raises(ValueError, match="first"):
        TensorDataset([x, dygrad.to_tensor(np.arange(5))])


def _has_indexing():
    try:
        dygrad.to_tensor([1, 2])[0]
    except Exception:
        return False
    return True


@pytest.mark.skipif(not _has_indexing(), reason="Tensor indexing (the getitem op) is missing")
def test_tensor_dataset_items_and_loading():
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    ds = TensorDataset([dygrad.to_tensor(x), dygrad.to_tensor(np.arange(5))])
    xi, yi = ds[2]
    np.testing.assert_array_equal(xi.numpy(), x[2])
    assert yi.item() == 2
    bx, by = next(iter(DataLoader(ds, batch_size=4)))
    np.testing.assert_array_equal(bx.numpy(), x[:4])
    np.testing.assert_array_equal(by.numpy(), np.arange(4))


def test_compose_dataset_joins_fields():
    ds = ComposeDataset([Squares(4), Plain(4)])
    assert len(ds) == 4
    arr, i, half, j = ds[3]
    np.testing.assert_array_equal(arr, [3, 9])
    assert (i, half, j) == (3, 1.5, 3)
    with pytest.raises(ValueError, match="same length"):
        ComposeDataset([Squares(4), Plain(5)])
    with pytest.raises(TypeError):
        ComposeDataset([Squares(4), Stream(4)])
    with pytest.raises(ValueError):
        ComposeDataset([])


def test_chain_dataset_runs_streams_in_turn():
    chained = [int(a[0]) for a in ChainDataset([Stream(3), Stream(2)])]
    assert chained == [0, 1, 2, 0, 1]
    with pytest.raises(TypeError):
        ChainDataset([Plain(3)])


def test_concat_dataset_indexes_through_its_parts():
    ds = ConcatDataset([Plain(3), Plain(2)])
    assert len(ds) == 5
    assert [ds[i] for i in range(5)] == [0, 1, 2, 0, 1]
    assert ds[-1] == 1 and ds[-5] == 0
    assert ds.cumulative_sizes == [3, 5]
    with pytest.raises(ValueError):
        ds[-6]
    with pytest.raises(IndexError):
        ds[5]


def test_subset_selects_indices():
    ds = Subset(Plain(10), [7, 2, 2])
    assert len(ds) == 3
    assert [ds[i] for i in range(3)] == [7, 2, 2]


def test_random_split_lengths_and_fractions():
    parts = random_split(Plain(10), [3, 7])
    assert [len(p) for p in parts] == [3, 7]
    assert sorted(p[i] for p in parts for i in range(len(p))) == list(range(10))
    # fractions: floor, then the remainder one by one from the first split (as Paddle)
    assert [len(p) for p in random_split(Plain(10), [0.33, 0.33, 0.34])] == [4, 3, 3]
    with pytest.warns(UserWarning, match="index 1 is 0"):
        random_split(Plain(2), [0.9, 0.1])
    with pytest.raises(ValueError, match="does not equal"):
        random_split(Plain(10), [3, 3])


def test_random_split_reproducible():
    def split():
        return [list(p.indices) for p in random_split(Plain(20), [5, 15])]
    dygrad.seed(3)
    first = split()
    dygrad.seed(3)
    assert split() == first
    assert split() != first
    a = random_split(Plain(20), [5, 15], generator=np.random.default_rng(1))[0].indices
    b = random_split(Plain(20), [5, 15], generator=np.random.default_rng(1))[0].indices
    assert a == b


# -- samplers -----------------------------------------------------------------------------

def test_sequence_sampler():
    s = SequenceSampler(Plain(4))
    assert list(s) == [0, 1, 2, 3] and len(s) == 4


def test_random_sampler_permutes_reproducibly():
    s = RandomSampler(Plain(50))
    dygrad.seed(7)
    first, second = list(s), list(s)
    assert sorted(first) == list(range(50)) and first != list(range(50))
    assert second != first  # a new order each epoch
    dygrad.seed(7)
    assert list(s) == first and list(s) == second


def test_random_sampler_options():
    s = RandomSampler(Plain(5), num_samples=3)
    assert len(s) == 3 and len(set(s)) == 3
    draws = list(RandomSampler(Plain(3), replacement=True, num_samples=200))
    assert len(draws) == 200 and set(draws) == {0, 1, 2}
    assert list(RandomSampler(Plain(5), num_samples=3, generator=iter([4, 0, 2, 1]))) == [4, 0, 2]
    with pytest.raises(ValueError):
        RandomSampler(Plain(5), num_samples=6)
    with pytest.raises(ValueError):
        RandomSampler(Plain(5), num_samples=0)
    with pytest.raises(TypeError):
        RandomSampler(Plain(5), replacement=1)


def test_weighted_random_sampler_statistics():
    weights = [1.0, 0.0, 3.0, 4.0]
    dygrad.seed(0)
    s = WeightedRandomSampler(weights, 40000)
    draws = np.array(list(s))
    assert len(s) == 40000 and len(draws) == 40000
    freq = np.bincount(draws, minlength=4) / draws.size
    np.testing.assert_allclose(freq, np.array(weights) / 8, atol=0.01)
    assert freq[1] == 0
    dygrad.seed(0)
    assert list(WeightedRandomSampler(weights, 40000)) == draws.tolist()


def test_weighted_random_sampler_without_replacement_and_rows():
    s = WeightedRandomSampler(np.array([0.1, 5.0, 0.0, 2.0]), 3, replacement=False)
    assert sorted(s) == [0, 1, 3]
    rows = WeightedRandomSampler(dygrad.to_tensor([[1.0, 0.0], [0.0, 1.0]]), 4)
    assert len(rows) == 8 and list(rows) == [0] * 4 + [1] * 4
    with pytest.raises(ValueError):
        WeightedRandomSampler([1.0, 1.0], 3, replacement=False)
    with pytest.raises(ValueError):
        WeightedRandomSampler([1.0, -1.0], 2)
    with pytest.raises(ValueError):
        WeightedRandomSampler([0.0, 0.0], 2)
    with pytest.raises(ValueError):
        WeightedRandomSampler([1.0], 0)


def test_subset_random_sampler():
    s = SubsetRandomSampler([3, 8, 9])
    assert len(s) == 3 and sorted(s) == [3, 8, 9]
    with pytest.raises(ValueError):
        SubsetRandomSampler([])


def test_batch_sampler():
    assert list(BatchSampler(Plain(7), batch_size=3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert len(BatchSampler(Plain(7), batch_size=3)) == 3
    dropped = BatchSampler(Plain(7), batch_size=3, drop_last=True)
    assert list(dropped) == [[0, 1, 2], [3, 4, 5]] and len(dropped) == 2
    assert list(BatchSampler(sampler=[5, 1, 4], batch_size=2)) == [[5, 1], [4]]
    shuffled = sum(BatchSampler(Plain(9), shuffle=True, batch_size=4), [])
    assert sorted(shuffled) == list(range(9))
    with pytest.raises(ValueError):
        BatchSampler()
    with pytest.raises(ValueError):
        BatchSampler(Plain(3), sampler=[0, 1])
    with pytest.raises(ValueError):
        BatchSampler(sampler=[0, 1], shuffle=True)
    with pytest.raises(ValueError):
        BatchSampler(Plain(3), batch_size=0)


def test_distributed_batch_sampler_pads_and_splits_like_paddle():
    # the batches Paddle 2.x gives for 10 samples, batch_size 3, 3 ranks
    expected = {0: [[0, 1, 2], [9]], 1: [[3, 4, 5], [0]], 2: [[6, 7, 8], [1]]}
    for rank in range(3):
        s = DistributedBatchSampler(Plain(10), 3, num_replicas=3, rank=rank)
        assert list(s) == expected[rank] and len(s) == 2
    expected_shuffled = {0: ([[6, 1, 4], [3]], [[2, 3, 4], [9]]),
                         1: ([[0, 2, 8], [0]], [[0, 1, 6], [8]]),
                         2: ([[1, 7, 9], [5]], [[0, 7, 1], [5]])}
    for rank in range(3):
        s = DistributedBatchSampler(Plain(10), 3, num_replicas=3, rank=rank, shuffle=True)
        assert (list(s), list(s)) == expected_shuffled[rank]  # the epoch advances
        s.set_epoch(0)
        assert list(s) == expected_shuffled[rank][0]
    s = DistributedBatchSampler(Plain(10), 2, num_replicas=4, rank=1, drop_last=True)
    assert list(s) == [[2, 3]] and len(s) == 1


def test_distributed_batch_sampler_covers_the_dataset():
    n, replicas = 23, 4
    samplers = [DistributedBatchSampler(Plain(n), 4, num_replicas=replicas, rank=r, shuffle=True)
                for r in range(replicas)]
    per_rank = [sum(list(s), []) for s in samplers]
    assert {len(s) for s in samplers} == {2}
    assert all(len(p) == 6 for p in per_rank)  # ceil(23 / 4)
    assert set(sum(per_rank, [])) == set(range(n))
    single = DistributedBatchSampler(Plain(5), 2)
    assert (single.nranks, single.local_rank) == (1, 0)
    assert list(single) == [[0, 1], [2, 3], [4]]
    with pytest.raises(ValueError):
        DistributedBatchSampler(Plain(5), 2, num_replicas=2, rank=2)


# -- DataLoader: single process --------------------------------------------------------------

def test_default_collate_fields_and_dtypes():
    x, i, half = next(iter(DataLoader(Squares(), batch_size=4)))
    for t in (x, i, half):
        assert isinstance(t, dygrad.Tensor) and t.stop_gradient
    np.testing.assert_array_equal(x.numpy(), [[0, 0], [1, 1], [2, 4], [3, 9]])
    assert x.dtype == dygrad.float32 and i.dtype == dygrad.int64 and half.dtype == dygrad.float64
    np.testing.assert_array_equal(half.numpy(), [0, 0.5, 1, 1.5])


def test_default_collate_dicts_strings_and_nesting():
    batch = next(iter(DataLoader(Records(), batch_size=3)))
    assert set(batch) == {"x", "name", "flag", "pair"}
    assert batch["x"].shape == [3, 2, 2] and batch["x"].dtype == dygrad.float64
    assert batch["name"] == ["r0", "r1", "r2"]
    np.testing.assert_array_equal(batch["flag"].numpy(), [True, False, True])
    assert batch["flag"].dtype == dygrad.bool
    first, second = batch["pair"]
    assert first.dtype == dygrad.int64 and second.dtype == dygrad.int32
    with pytest.raises(RuntimeError, match="fields number"):
        default_collate_fn([(1, 2), (1,)])
    with pytest.raises(TypeError):
        default_collate_fn([object()])


def test_tensor_samples_are_stacked():
    class Tensors(Dataset):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return dygrad.to_tensor([i, i + 1.0], stop_gradient=False)

    batch = next(iter(DataLoader(Tensors(), batch_size=2)))
    assert isinstance(batch, dygrad.Tensor) and batch.stop_gradient
    np.testing.assert_array_equal(batch.numpy(), [[0, 1], [1, 2]])


def test_loader_options():
    loader = DataLoader(Plain(7), batch_size=3)
    assert len(loader) == 3
    assert [b.numpy().tolist() for b in loader] == [[0, 1, 2], [3, 4, 5], [6]]
    assert len(DataLoader(Plain(7), batch_size=3, drop_last=True)) == 2
    unbatched = list(DataLoader(Squares(3), batch_size=None))
    assert len(unbatched) == 3 and unbatched[2][1:] == [2, 1.0]  # numbers stay numbers
    np.testing.assert_array_equal(unbatched[2][0].numpy(), [2, 4])
    custom = list(DataLoader(Plain(4), batch_size=2, collate_fn=lambda b: (sum(b), np.array(b))))
    assert custom[1][0] == 5 and custom[1][1].numpy().tolist() == [2, 3]
    by_sampler = DataLoader(Plain(5), batch_sampler=BatchSampler(sampler=[4, 3, 0], batch_size=2))
    assert len(by_sampler) == 2 and [b.numpy().tolist() for b in by_sampler] == [[4, 3], [0]]
    assert load(DataLoader(Plain(3), return_list=False)) == load(DataLoader(Plain(3)))
    ignored = DataLoader(Plain(3), feed_list=None, places="cpu", use_buffer_reader=False,
                         use_shared_memory=False)
    assert load(ignored) == load(DataLoader(Plain(3)))


def test_loader_argument_errors():
    with pytest.raises(ValueError):
        DataLoader(Stream(3), shuffle=True)
    with pytest.raises(ValueError):
        DataLoader(Stream(3), batch_sampler=BatchSampler(Plain(3)))
    with pytest.raises(ValueError):
        DataLoader(Plain(3), batch_sampler=BatchSampler(Plain(3)), batch_size=2)
    with pytest.raises(ValueError):
        DataLoader(Plain(3), batch_size=0)
    with pytest.raises(ValueError):
        DataLoader(Plain(3), num_workers=-1)
    with pytest.raises(ValueError):
        DataLoader(Plain(3), prefetch_factor=0)
    with pytest.raises(ValueError):
        len(DataLoader(Stream(3)))


def test_shuffle_reproducible_under_seed():
    loader = DataLoader(Plain(30), batch_size=4, shuffle=True)
    dygrad.seed(11)
    epoch1, epoch2 = load(loader), load(loader)
    assert sorted(np.concatenate(epoch1).tolist()) == list(range(30))
    assert not all(np.array_equal(a, b) for a, b in zip(epoch1, epoch2))
    dygrad.seed(11)
    assert_same(load(loader), epoch1)
    assert_same(load(loader), epoch2)


def test_iterable_dataset_single_process():
    loader = DataLoader(Stream(7), batch_size=3)
    assert [b.numpy().ravel().tolist() for b in loader] == [[0, 1, 2], [3, 4, 5], [6]]
    dropped = DataLoader(Stream(7), batch_size=3, drop_last=True)
    assert [b.numpy().ravel().tolist() for b in dropped] == [[0, 1, 2], [3, 4, 5]]
    assert [b.numpy().tolist() for b in DataLoader(Stream(2), batch_size=None)] == [[0], [1]]
    assert get_worker_info() is None


# -- DataLoader: worker processes ------------------------------------------------------------

@pytest.mark.parametrize("dataset,kwargs", [
    (Squares(11), dict(batch_size=3)),
    (Records(), dict(batch_size=4, drop_last=True)),
    (Squares(9), dict(batch_size=None)),
    (Plain(13), dict(batch_size=2, shuffle=True)),
])
def test_workers_give_what_the_main_process_gives(dataset, kwargs):
    dygrad.seed(5)
    expected = load(DataLoader(dataset, **kwargs))
    for workers, prefetch in ((1, 1), (3, 2)):
        dygrad.seed(5)
        got = load(DataLoader(dataset, num_workers=workers, prefetch_factor=prefetch, **kwargs))
        assert_same(got, expected)


def test_iterable_dataset_sharded_between_workers():
    loader = DataLoader(Stream(10), batch_size=3, num_workers=2)
    # worker 0 has 0..4, worker 1 has 5..9; batches alternate between them
    got = [b.numpy().ravel().tolist() for b in loader]
    assert got == [[0, 1, 2], [5, 6, 7], [3, 4], [8, 9]]
    dropped = DataLoader(Stream(10), batch_size=3, num_workers=2, drop_last=True)
    assert [b.numpy().ravel().tolist() for b in dropped] == [[0, 1, 2], [5, 6, 7]]
    unbatched = DataLoader(Stream(4), batch_size=None, num_workers=2)
    assert [b.numpy().tolist() for b in unbatched] == [[0], [2], [1], [3]]


def test_worker_info_and_init_fn():
    rows = [as_numpy(b) for b in DataLoader(WhoAmI(), batch_size=2, num_workers=2,
                                           worker_init_fn=set_init_env)]
    workers = [int(b["worker"][0]) for b in rows]
    assert workers == [0, 1, 0, 1]  # batches go round-robin
    for b in rows:
        assert np.all(b["num_workers"] == 2) and np.all(b["same_dataset"])
        assert np.all(b["init"] == 100 + b["worker"])
    assert len({int(b["pid"][0]) for b in rows}) == 2
    assert "DYGRAD_TEST_INIT" not in os.environ  # init ran in the workers only


def test_worker_error_surfaces_with_traceback():
    loader = DataLoader(Failing(), batch_size=2, num_workers=2)
    seen = []
    with pytest.raises(ValueError) as info:
        for batch in loader:
            seen.append(batch.numpy().ravel().tolist())
    assert seen == [[0, 1], [2, 3]]  # the batches before the failing one, in order
    msg = str(info.value)
    assert "DataLoader worker(0) caught ValueError" in msg
    assert "bad sample 5" in msg and "Traceback" in msg and "__getitem__" in msg


def test_worker_init_error_surfaces():
    loader = DataLoader(Plain(4), batch_size=2, num_workers=2, worker_init_fn=failing_init)
    with pytest.raises(RuntimeError, match=r"(?s)worker\(0\).*init of worker 0 failed"):
        list(loader)


def test_dead_worker_is_reported():
    loader = DataLoader(Dying(), batch_size=2, num_workers=2)
    with pytest.raises(RuntimeError, match="exited unexpectedly with exit code 7"):
        list(loader)


def test_timeout():
    loader = DataLoader(Slow(), batch_size=1, num_workers=1, timeout=0.1)
    with pytest.raises(RuntimeError, match="timed out after 0.1 seconds"):
        list(loader)


def test_prefetch_keeps_batches_in_flight():
    counter = multiprocessing.Value("i", 0)
    it = iter(DataLoader(Counted(counter), batch_size=1, num_workers=1, prefetch_factor=2))
    next(it)
    deadline = time.monotonic() + 60  # the loop ends once 3 are fetched: a loaded machine waits
    while counter.value < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)  # time enough to fetch more, were more asked for
    assert counter.value == 3  # the batch handed out and prefetch_factor more in flight
    del it


def test_workers_shut_down_when_exhausted_deleted_or_collected():
    it = iter(DataLoader(Plain(6), batch_size=2, num_workers=2))
    assert len(multiprocessing.active_children()) == 2
    list(it)
    assert multiprocessing.active_children() == []

    it = iter(DataLoader(Plain(60), batch_size=2, num_workers=2))
    next(it)
    del it  # mid-epoch
    assert multiprocessing.active_children() == []

    it = iter(DataLoader(Plain(60), batch_size=2, num_workers=2))
    next(it)
    cycle = {"iterator": it}
    cycle["self"] = cycle
    del it, cycle
    gc.collect()  # mid-epoch, only reachable from a reference cycle
    assert multiprocessing.active_children() == []

    for _batch in DataLoader(Plain(60), batch_size=2, num_workers=2):
        break  # the loop's iterator is dropped at once
    assert multiprocessing.active_children() == []


def test_persistent_workers_live_across_epochs():
    loader = DataLoader(WhoAmI(), batch_size=2, num_workers=2, persistent_workers=True)
    pids = [set(np.concatenate([b["pid"] for b in load(loader)]).tolist()) for _ in range(2)]
    assert pids[0] == pids[1] and len(pids[0]) == 2
    it = iter(loader)
    next(it)  # abandon an epoch half way: the next one starts afresh
    assert [b["i"].tolist() for b in load(loader)] == [[0, 1], [2, 3], [4, 5], [6, 7]]
    streams = DataLoader(Stream(5), batch_size=2, num_workers=2, persistent_workers=True)
    assert_same(load(streams), load(streams))
    del loader, it, streams
    assert multiprocessing.active_children() == []


def test_spawned_workers(monkeypatch):
    monkeypatch.setattr(dataloader_mod, "_start_method", lambda: "spawn")
    loader = DataLoader(Squares(5), batch_size=2, num_workers=1)
    assert_same(load(loader), load(DataLoader(Squares(5), batch_size=2)))
