"""paddle.save / paddle.load (dygrad.framework): Paddle's pickle-of-NumPy layout, the
restricted unpickler, atomic writes and clear errors.

Two files captured from PaddlePaddle 3.3.1 are inlined below; when a real ``paddlepaddle``
is importable (``DYGRAD_PADDLE_PYTHON`` names its interpreter, or this one has it), the
interop test also runs Paddle in a subprocess on files written here and back.
"""

import io
import json
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import dygrad as paddle
from dygrad.framework import io as fio
from dygrad.framework import load, save

# paddle.nn.Linear(2, 2) with weight [[1, 2], [3, 4]], bias [0.5, -0.5]: paddle.save(state_dict())
PADDLE_LINEAR = bytes.fromhex(
    "80049519010000000000007d94288c06776569676874948c166e756d70792e5f636f72652e6d756c7469617272"
    "6179948c0c5f7265636f6e7374727563749493948c056e756d7079948c076e6461727261799493944b00859443"
    "01629487945294284b014b024b02869468058c0564747970659493948c02663494898887945294284b038c013c"
    "944e4e4e4affffffff4affffffff4b007494628943100000803f000000400000404000008040947494628c0462"
    "69617394680468074b008594680987945294284b014b02859468118943080000003f000000bf947494628c1b53"
    "747275637475726564546f506172616d657465724e616d654040947d942868018c0c6c696e6561725f302e775f"
    "309468168c0c6c696e6561725f302e625f309475752e")
# t = paddle.to_tensor([1, 2, 3]); t.name = 'my_tensor'
# paddle.save({'step': 3, 'hist': [t, np.float32(1.5)]})
PADDLE_NESTED = bytes.fromhex(
    "8004951c010000000000007d94288c0473746570944b038c0468697374945d94288c086275696c74696e73948c"
    "057475706c659493948c096d795f74656e736f72948c166e756d70792e5f636f72652e6d756c74696172726179"
    "948c0c5f7265636f6e7374727563749493948c056e756d7079948c076e6461727261799493944b008594430162"
    "9487945294284b014b038594680b8c0564747970659493948c02693894898887945294284b038c013c944e4e4e"
    "4affffffff4affffffff4b007494628943180100000000000000020000000000000003000000000000009474946"
    "286948594529468088c067363616c617294939468148c02663494898887945294284b0368184e4e4e4affffffff"
    "4affffffff4b0074946243040000c03f948694529465752e")


def named(array, name):
    t = paddle.to_tensor(array)
    t.name = name
    return t


def state_dict():
    return {"fc.weight": named(np.arange(6, dtype=np.float32).reshape(2, 3), "linear_0.w_0"),
            "fc.bias": named(np.array([0.5, -1.0, 2.0], np.float32), "linear_0.b_0"),
            "steps": named(np.array([7], np.int64), "steps_0")}


def assert_same_tensors(got, want):
    assert got.keys() == want.keys()
    for key in want:
        assert isinstance(got[key], paddle.Tensor), key
        assert got[key].dtype == want[key].dtype and got[key].name == want[key].name
        np.testing.assert_array_equal(got[key].numpy(), want[key].numpy())


# ---------------------------------------------------------------------------
# Paddle's layout
# ---------------------------------------------------------------------------


def test_state_dict_round_trip_and_layout(tmp_path):
    sd = state_dict()
    save(sd, tmp_path / "m.pdparams")
    with open(tmp_path / "m.pdparams", "rb") as f:
        raw = pickle.load(f)  # what any Python (and Paddle) sees: arrays plus the name table
    assert raw["StructuredToParameterName@@"] == {"fc.weight": "linear_0.w_0",
                                                  "fc.bias": "linear_0.b_0", "steps": "steps_0"}
    assert isinstance(raw["fc.weight"], np.ndarray) and raw["steps"].dtype == np.int64
    loaded = load(tmp_path / "m.pdparams")
    assert_same_tensors(loaded, sd)
    assert all(t.stop_gradient for t in loaded.values())


def test_state_dict_with_plain_sub_dicts(tmp_path):
    opt_state = {"w_moment1_0": named(np.ones(2, np.float32), "w_moment1_0"),
                 "LR_Scheduler": {"last_epoch": 3, "last_lr": 0.05}}
    save(opt_state, str(tmp_path / "o.pdopt"))
    with open(tmp_path / "o.pdopt", "rb") as f:
        assert pickle.load(f)["StructuredToParameterName@@"] == {"w_moment1_0": "w_moment1_0"}
    loaded = load(str(tmp_path / "o.pdopt"))
    assert loaded["LR_Scheduler"] == {"last_epoch": 3, "last_lr": 0.05}
    np.testing.assert_array_equal(loaded["w_moment1_0"].numpy(), [1, 1])


def test_loads_paddles_state_dict():
    loaded = load(io.BytesIO(PADDLE_LINEAR))
    assert list(loaded) == ["weight", "bias"]
    assert loaded["weight"].name == "linear_0.w_0" and loaded["weight"].dtype == paddle.float32
    np.testing.assert_array_equal(loaded["weight"].numpy(), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(loaded["bias"].numpy(), [0.5, -0.5])
    as_numpy = load(io.BytesIO(PADDLE_LINEAR), return_numpy=True)
    assert isinstance(as_numpy["bias"], np.ndarray)
    kept = load(io.BytesIO(PADDLE_LINEAR), keep_name_table=True)
    assert kept["StructuredToParameterName@@"]["bias"] == "linear_0.b_0"


def test_loads_paddles_nested_object():
    loaded = load(io.BytesIO(PADDLE_NESTED))
    assert loaded["step"] == 3
    t, scalar = loaded["hist"]
    assert isinstance(t, paddle.Tensor) and t.name == "my_tensor" and t.dtype == paddle.int64
    np.testing.assert_array_equal(t.numpy(), [1, 2, 3])
    assert scalar == np.float32(1.5) and type(scalar) is np.float32


def test_nested_structures_round_trip(tmp_path):
    w = named(np.arange(4, dtype=np.float64).reshape(2, 2), "w")
    obj = {"model": {"w": w}, "history": [1.5, None, "text", (2, w)], "array": np.arange(3),
           "flags": {True, False}, "count": 10, "c": 1 + 2j}
    save(obj, tmp_path / "ckpt.pd")
    with open(tmp_path / "ckpt.pd", "rb") as f:
        assert pickle.load(f)["model"]["w"][0] == "w"  # a Tensor is written as (name, ndarray)
    back = load(tmp_path / "ckpt.pd")
    assert back["model"]["w"].name == "w" and back["model"]["w"].dtype == paddle.float64
    np.testing.assert_array_equal(back["history"][3][1].numpy(), w.numpy())
    assert back["history"][:3] == [1.5, None, "text"] and isinstance(back["history"][3], tuple)
    # as in Paddle: when the file holds Tensors, plain NumPy arrays stay NumPy arrays
    assert isinstance(back["array"], np.ndarray)
    assert back["flags"] == {True, False} and back["count"] == 10 and back["c"] == 1 + 2j
    as_numpy = load(tmp_path / "ckpt.pd", return_numpy=True)
    np.testing.assert_array_equal(as_numpy["model"]["w"], w.numpy())


def test_arrays_without_tensors_load_as_tensors(tmp_path):
    save([np.arange(3), {"x": np.ones(2)}], tmp_path / "a.pd")
    back = load(tmp_path / "a.pd")
    assert isinstance(back[0], paddle.Tensor) and back[0].dtype == paddle.int64
    assert isinstance(load(tmp_path / "a.pd", return_numpy=True)[1]["x"], np.ndarray)


@pytest.mark.parametrize("value", [np.float32(2.5), np.array(3.0), np.array([True, False]),
                                   np.zeros((0, 3), np.float32), np.arange(6).reshape(2, 3)[:, ::2]])
def test_single_tensor_round_trip(tmp_path, value):
    t = named(value, "single")
    save(t, tmp_path / "t.pdtensor")
    back = load(tmp_path / "t.pdtensor")
    assert isinstance(back, paddle.Tensor) and back.name == "single"
    assert back.dtype == t.dtype and back.shape == t.shape
    np.testing.assert_array_equal(back.numpy(), t.numpy())
    assert isinstance(load(tmp_path / "t.pdtensor", return_numpy=True), np.ndarray)


def test_parameters_save_as_tensors(tmp_path):
    p = paddle.Parameter(np.ones((2,), np.float32), name="fc_0.w_0")
    save({"w": p}, tmp_path / "p.pdparams")
    back = load(tmp_path / "p.pdparams")
    assert back["w"].name == "fc_0.w_0" and not isinstance(back["w"], paddle.Parameter)


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_protocols(tmp_path, protocol):
    save(state_dict(), tmp_path / "m.pdparams", protocol=protocol)
    with open(tmp_path / "m.pdparams", "rb") as f:
        assert f.read(2) == bytes([0x80, protocol])
    assert_same_tensors(load(tmp_path / "m.pdparams"), state_dict())
    save([named(np.ones(2), "x"), b"raw"], tmp_path / "n.pd", protocol=protocol)
    assert load(tmp_path / "n.pd")[1] == b"raw"


@pytest.mark.parametrize("protocol", [1, 5, "4", 4.0, True])
def test_bad_protocol(tmp_path, protocol):
    with pytest.raises(ValueError, match="protocol"):
        save({"a": 1}, tmp_path / "x.pd", protocol=protocol)


def test_big_arrays_are_split_for_old_protocols(tmp_path, monkeypatch):
    monkeypatch.setattr(fio, "_MAX_CHUNK_BYTES", 40)  # pretend 40 bytes is 1 GiB
    big = named(np.arange(30, dtype=np.float32).reshape(5, 6), "big")
    save({"big": big, "small": named(np.ones(2, np.float32), "s")}, tmp_path / "b.pdparams",
         protocol=2)
    with open(tmp_path / "b.pdparams", "rb") as f:
        raw = pickle.load(f)
    info = raw["UnpackBigParamInfor@@"]["big"]
    assert info["OriginShape"] == (5, 6) and info["slices"] == ["big@@.0", "big@@.1", "big@@.2"]
    back = load(tmp_path / "b.pdparams")
    assert set(back) == {"small", "big"}
    np.testing.assert_array_equal(back["big"].numpy(), big.numpy())
    save({"big": big}, tmp_path / "b4.pdparams", protocol=4)  # protocol 4 needs no splitting
    with open(tmp_path / "b4.pdparams", "rb") as f:
        assert "UnpackBigParamInfor@@" not in pickle.load(f)


def test_buffers_and_paths(tmp_path):
    buf = io.BytesIO()
    save(state_dict(), buf)
    buf.seek(0)
    assert_same_tensors(load(buf), state_dict())
    save({"a": named(np.ones(1), "a")}, tmp_path / "deep" / "er" / "x.pdparams")
    assert load(str(tmp_path / "deep" / "er" / "x.pdparams"))["a"].shape == [1]
    with pytest.raises(ValueError, match="file name is empty"):
        save({"a": 1}, str(tmp_path) + os.sep)


def test_empty_state_dict_warns(tmp_path):
    with pytest.warns(UserWarning, match="empty"):
        save({}, tmp_path / "e.pdparams")
    assert load(tmp_path / "e.pdparams") == {}


# ---------------------------------------------------------------------------
# safety: loading never runs code
# ---------------------------------------------------------------------------


def test_crafted_file_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    payload = f"cos\nsystem\n(S'touch {marker}'\ntR.".encode()
    (tmp_path / "evil.pdparams").write_bytes(payload)
    with pytest.raises(pickle.UnpicklingError, match=r"refusing to load .*evil.* os\.system"):
        load(tmp_path / "evil.pdparams")
    with pytest.raises(fio.UnsafeCheckpointError):
        load(tmp_path / "evil.pdparams")
    assert not marker.exists()


@pytest.mark.parametrize("payload,what", [
    (b"cbuiltins\neval\n(S'1+1'\ntR.", "builtins.eval"),   # how Paddle pickles a DenseTensor
    (b"c_codecs\nencode\n(S'x'\nS'rot13'\ntR.", "rot13"),
    (b"\x80\x02cnumpy\nload\nq\x00.", "numpy.load"),
])
def test_other_crafted_globals_are_refused(tmp_path, payload, what):
    (tmp_path / "x.pd").write_bytes(payload)
    with pytest.raises(pickle.UnpicklingError, match=what):
        load(tmp_path / "x.pd")


def test_save_refuses_what_load_would_refuse(tmp_path):
    class Custom:
        pass

    with pytest.raises(TypeError, match="Custom"):
        save({"obj": Custom()}, tmp_path / "c.pd")
    with pytest.raises(TypeError, match="function"):
        save([len], tmp_path / "c.pd")
    assert not (tmp_path / "c.pd").exists()


def test_saving_a_layer_is_refused(tmp_path):
    with pytest.raises(ValueError, match="Layer.*state_dict"):
        save(paddle.nn.Linear(2, 2), tmp_path / "layer.pd")


# ---------------------------------------------------------------------------
# corrupt files and atomic writes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("cut", [0, 1, 20, -1])
def test_truncated_file_names_the_file(tmp_path, cut):
    save(state_dict(), tmp_path / "m.pdparams")
    data = (tmp_path / "m.pdparams").read_bytes()
    (tmp_path / "cut.pdparams").write_bytes(data[:cut])
    with pytest.raises(ValueError, match=r"cannot parse .*cut\.pdparams.*truncated"):
        load(tmp_path / "cut.pdparams")


def test_garbage_and_missing_files(tmp_path):
    (tmp_path / "junk.pd").write_bytes(b"\x89PNG\r\n\x1a\n not a checkpoint")
    with pytest.raises(ValueError, match="junk.pd"):
        load(tmp_path / "junk.pd")
    (tmp_path / "persistent.pd").write_bytes(b"\x80\x02P0\n.")
    with pytest.raises(ValueError, match="persistent.pd"):
        load(tmp_path / "persistent.pd")
    with pytest.raises(ValueError, match="does not exist"):
        load(tmp_path / "missing.pd")
    with pytest.raises(ValueError, match="does not exist"):
        load(tmp_path)


def test_failed_save_keeps_the_previous_checkpoint(tmp_path):
    path = tmp_path / "m.pdparams"
    save(state_dict(), path)
    before = path.read_bytes()

    class Unsavable:
        pass

    # the Tensor is written before the pickler reaches the object it cannot save
    with pytest.raises(TypeError):
        save([named(np.ones(1000), "x"), Unsavable()], path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["m.pdparams"]  # no temporary file left behind
    assert_same_tensors(load(path), state_dict())


def test_save_flushes_and_fsyncs_before_renaming(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    save(state_dict(), tmp_path / "m.pdparams")
    assert events[:2] == ["fsync", "replace"]


def test_interrupted_rename_keeps_the_previous_checkpoint(tmp_path, monkeypatch):
    path = tmp_path / "m.pdparams"
    save({"a": named(np.zeros(1), "a")}, path)

    def crash(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        save({"a": named(np.ones(1), "a")}, path)
    assert load(path)["a"].numpy()[0] == 0 and os.listdir(tmp_path) == ["m.pdparams"]


# ---------------------------------------------------------------------------
# Layers and optimizers
# ---------------------------------------------------------------------------


def test_layer_set_state_dict_round_trip(tmp_path):
    paddle.seed(1)
    src, dst = paddle.nn.Linear(3, 2), paddle.nn.Linear(3, 2)
    save(src.state_dict(), tmp_path / "lin.pdparams")
    dst.set_state_dict(load(tmp_path / "lin.pdparams"))
    for (k1, a), (k2, b) in zip(src.state_dict().items(), dst.state_dict().items()):
        assert k1 == k2
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not dst.weight.stop_gradient  # still a trainable parameter


@pytest.mark.skipif(not (hasattr(paddle.nn, "Linear") and hasattr(paddle.optimizer, "Adam")),
                    reason="dygrad.nn.Linear or dygrad.optimizer.Adam is not written yet")
def test_optimizer_state_round_trip(tmp_path):
    layer = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=layer.parameters())
    layer(paddle.ones([4, 2])).sum().backward()
    opt.step()
    save(opt.state_dict(), tmp_path / "adam.pdopt")
    loaded = load(tmp_path / "adam.pdopt")
    expected = opt.state_dict()
    assert loaded.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, paddle.Tensor):
            np.testing.assert_array_equal(loaded[key].numpy(), value.numpy())
    opt2 = paddle.optimizer.Adam(learning_rate=0.1, parameters=layer.parameters())
    opt2.set_state_dict(loaded)


# ---------------------------------------------------------------------------
# interop with real PaddlePaddle, in a subprocess
# ---------------------------------------------------------------------------

_PADDLE_SIDE = textwrap.dedent("""
    import json, os, sys
    import numpy as np
    try:
        import paddle
    except ImportError as exc:
        sys.exit(f"SKIP paddle cannot be imported: {exc}")
    if paddle.__name__ != "paddle":
        sys.exit("SKIP 'import paddle' gives dygrad's compat alias, not PaddlePaddle")
    d = sys.argv[1]
    report = {}
    # 1. load what dygrad wrote
    sd = paddle.load(os.path.join(d, "ours.pdparams"))
    report["ours_state_dict"] = {k: [v.name, v.numpy().tolist(), str(v.numpy().dtype)]
                                 for k, v in sd.items()}
    lin = paddle.nn.Linear(3, 2)
    lin.set_state_dict({"weight": sd["fc.weight"].T, "bias": sd["fc.bias"][:2]})
    report["set_state_dict"] = lin.weight.numpy().tolist()
    t = paddle.load(os.path.join(d, "ours.pdtensor"))
    report["ours_tensor"] = [t.name, t.numpy().tolist()]
    nested = paddle.load(os.path.join(d, "ours_nested.pd"))
    report["ours_nested"] = [nested["step"], nested["hist"][0].name,
                             nested["hist"][0].numpy().tolist(), nested["hist"][1]]
    # 2. write files for dygrad to load, and the values they hold
    lin = paddle.nn.Linear(2, 3)
    opt = paddle.optimizer.Adam(parameters=lin.parameters())
    lin(paddle.ones([1, 2])).sum().backward()
    opt.step()
    paddle.save(lin.state_dict(), os.path.join(d, "theirs.pdparams"))
    paddle.save(opt.state_dict(), os.path.join(d, "theirs.pdopt"))
    paddle.save(lin.weight, os.path.join(d, "theirs.pdtensor"))
    paddle.save({"w": [lin.bias, 2]}, os.path.join(d, "theirs_nested.pd"), protocol=2)
    expected = {"theirs.pdparams": {k: v.numpy() for k, v in lin.state_dict().items()},
                "theirs.pdopt": {k: v.numpy() for k, v in opt.state_dict().items()
                                 if isinstance(v, paddle.Tensor)}}
    np.savez(os.path.join(d, "expected.npz"),
             **{f"{f}|{k}": a for f, kv in expected.items() for k, a in kv.items()},
             weight=lin.weight.numpy(), bias=lin.bias.numpy())
    report["weight_name"] = lin.weight.name
    print(json.dumps(report))
""")


def _paddle_python():
    """An interpreter with a real PaddlePaddle, or None."""
    if os.environ.get("DYGRAD_PADDLE_PYTHON"):
        return os.environ["DYGRAD_PADDLE_PYTHON"]
    import importlib.util
    return sys.executable if importlib.util.find_spec("paddle") is not None else None


@pytest.fixture(scope="module")
def paddle_interop(tmp_path_factory):
    python = _paddle_python()
    if python is None:
        pytest.skip("no PaddlePaddle to compare with: set DYGRAD_PADDLE_PYTHON to an interpreter "
                    "that has paddlepaddle installed")
    d = tmp_path_factory.mktemp("interop")
    save(state_dict(), d / "ours.pdparams")
    save(named(np.array([[1.5, -2.0]], np.float32), "ours_t"), d / "ours.pdtensor")
    save({"step": 3, "hist": [named(np.array([1, 2], np.int64), "h0"), 0.25]}, d / "ours_nested.pd")
    run = subprocess.run([python, "-c", _PADDLE_SIDE, str(d)], capture_output=True, text=True,
                         timeout=300)
    if run.returncode != 0 and "SKIP" in run.stderr:
        pytest.skip(run.stderr.strip().split("SKIP ", 1)[1])
    assert run.returncode == 0, run.stderr[-3000:]
    return d, json.loads(run.stdout.strip().splitlines()[-1])


def test_paddle_loads_our_files(paddle_interop):
    _, report = paddle_interop
    assert report["ours_state_dict"] == {
        "fc.weight": ["linear_0.w_0", [[0, 1, 2], [3, 4, 5]], "float32"],
        "fc.bias": ["linear_0.b_0", [0.5, -1.0, 2.0], "float32"],
        "steps": ["steps_0", [7], "int64"]}
    assert report["set_state_dict"] == [[0, 3], [1, 4], [2, 5]]
    assert report["ours_tensor"] == ["ours_t", [[1.5, -2.0]]]
    assert report["ours_nested"] == [3, "h0", [1, 2], 0.25]


def test_we_load_paddles_files(paddle_interop):
    d, report = paddle_interop
    with np.load(d / "expected.npz", allow_pickle=False) as npz:
        expected = {k: npz[k] for k in npz.files}
    for name in ("theirs.pdparams", "theirs.pdopt"):
        loaded = load(d / name)
        keys = {k.split("|", 1)[1] for k in expected if k.startswith(name + "|")}
        assert keys and keys <= set(loaded)
        for key in keys:
            np.testing.assert_array_equal(loaded[key].numpy(), expected[f"{name}|{key}"])
    weight = load(d / "theirs.pdtensor")
    assert weight.name == report["weight_name"]
    np.testing.assert_array_equal(weight.numpy(), expected["weight"])
    ours = paddle.nn.Linear(2, 3)
    ours.set_state_dict(load(d / "theirs.pdparams"))
    np.testing.assert_array_equal(ours.weight.numpy(), expected["weight"])
    np.testing.assert_array_equal(ours.bias.numpy(), expected["bias"])
    nested = load(d / "theirs_nested.pd")
    np.testing.assert_array_equal(nested["w"][0].numpy(), expected["bias"])
    assert nested["w"][1] == 2
