"""paddle.Model, paddle.callbacks, paddle.summary and paddle.flops (dygrad.hapi).

Behaviour follows Paddle's hapi in dynamic mode; the summary table, the flops counts and
the shapes of the returned values were checked against PaddlePaddle 3.3.1 on the same nets.
"""

import io
import json
import os
import re
from types import SimpleNamespace

import numpy as np
import pytest

import dygrad as paddle
import dygrad.nn.functional as F
from dygrad.hapi.progressbar import ProgressBar

rng = np.random.default_rng(0)
X = rng.normal(size=(96, 4)).astype(np.float32)
Y = (X[:, 0] + X[:, 1] > 0).astype(np.int64).reshape(-1, 1)


class Points(paddle.io.Dataset):
    """Two linearly separable classes of 4-d points."""

    def __init__(self, n=96):
        super().__init__()
        self.n = n

    def __getitem__(self, i):
        return X[i], Y[i]

    def __len__(self):
        return self.n


def nll(logits, label):
    """Cross entropy written with log_softmax (one-hot by comparison with arange)."""
    onehot = paddle.cast(paddle.equal(paddle.arange(logits.shape[1]).reshape([1, -1]), label),
                         logits.dtype)
    return -paddle.mean(paddle.sum(F.log_softmax(logits) * onehot, axis=1))


def classifier():
    paddle.seed(0)
    return paddle.nn.Sequential(paddle.nn.Linear(4, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 2))


def prepared(net=None, lr=0.05, metrics=True, opt=paddle.optimizer.Adam):
    model = paddle.Model(net or classifier())
    model.prepare(opt(learning_rate=lr, parameters=model.parameters()), nll,
                  paddle.metric.Accuracy() if metrics else None)
    return model


class Recorder(paddle.callbacks.Callback):
    """Records every hook call as (name, args)."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __getattribute__(self, name):
        if name.startswith("on_"):
            return lambda *args: self.calls.append((name, args))
        return super().__getattribute__(name)


# ---------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------


def test_fit_learns_and_evaluate_agrees_with_predict():
    model = prepared()
    model.fit(Points(), Points(), batch_size=16, epochs=4, verbose=0)
    result = model.evaluate(Points(), batch_size=32, verbose=0)
    assert sorted(result) == ["acc", "loss"]
    assert isinstance(result["loss"], list) and len(result["loss"]) == 1
    (logits,) = model.predict(Points(), batch_size=32, stack_outputs=True, verbose=0)
    assert logits.shape == (96, 2)
    assert result["acc"] == pytest.approx(np.mean(logits.argmax(1) == Y[:, 0]))
    assert result["acc"] > 0.9
    last = model.eval_batch([X[64:]], [Y[64:]])[0][0]
    assert result["loss"][0] == pytest.approx(float(last), rel=1e-6)  # the last batch's loss


def test_batch_methods_return_numpy_like_paddle():
    model = prepared()
    losses, metrics = model.train_batch([X[:8]], [Y[:8]])
    assert isinstance(losses, list) and losses[0].shape == () and losses[0].dtype == np.float32
    assert isinstance(metrics, list) and len(metrics) == 1
    assert model.network.training
    losses, metrics = model.eval_batch(paddle.to_tensor(X[:8]), paddle.to_tensor(Y[:8]))
    assert losses[0].shape == () and not model.network.training
    assert all(p.grad is None or not p.grad.numpy().any() for p in model.parameters())
    (out,) = model.predict_batch(X[:5])
    assert isinstance(out, np.ndarray) and out.shape == (5, 2)
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), nll)
    assert isinstance(model.train_batch([X[:8]], [Y[:8]]), list)


def test_update_false_accumulates_gradients_for_one_step():
    net = classifier()
    model = prepared(net, lr=0.1, metrics=False, opt=paddle.optimizer.SGD)
    before = [p.numpy().copy() for p in net.parameters()]
    grads = []
    for chunk in (slice(0, 8), slice(8, 16)):  # the same gradients, computed separately
        loss = nll(net(paddle.to_tensor(X[chunk])), paddle.to_tensor(Y[chunk]))
        grads.append([g.numpy() for g in paddle.grad(loss, net.parameters())])
    model.train_batch([X[:8]], [Y[:8]], update=False)
    assert [p.numpy() for p in net.parameters()][0] == pytest.approx(before[0])
    model.train_batch([X[8:16]], [Y[8:16]], update=True)
    for p, b, g1, g2 in zip(net.parameters(), before, *grads):
        np.testing.assert_allclose(p.numpy(), b - 0.1 * (g1 + g2), rtol=1e-5, atol=1e-6)
        assert not p.grad.numpy().any()  # cleared after the update


def test_fit_accepts_a_dataloader_and_num_iters_stops_early():
    model = prepared()
    rec = Recorder()
    loader = paddle.io.DataLoader(Points(), batch_size=32, shuffle=True)
    model.fit(loader, epochs=5, verbose=0, callbacks=rec, num_iters=4)
    names = [c[0] for c in rec.calls]
    assert names.count("on_train_batch_end") == 4 and names.count("on_epoch_begin") == 2
    assert model.stop_training
    step, logs = [c[1] for c in rec.calls if c[0] == "on_train_batch_end"][-1]
    assert step == 0 and logs["batch_size"] == 32 and sorted(logs) == [
        "acc", "batch_size", "loss", "step"]
    assert rec.params == {"batch_size": None, "epochs": 2, "steps": 3, "verbose": 0,
                          "metrics": ["loss", "acc"]}
    model.fit(loader, epochs=1, verbose=0)  # a new fit starts again
    assert not model.stop_training


def test_fit_hook_order_and_eval_frequency():
    rec = Recorder()
    prepared().fit(Points(32), Points(32), batch_size=[16, 32], epochs=3, eval_freq=2,
                   verbose=0, callbacks=[rec])
    names = [c[0] for c in rec.calls]
    assert names[0] == "on_train_begin" and names[-1] == "on_train_end"
    assert names.count("on_eval_begin") == 2  # epochs 0 and 2
    assert names.count("on_eval_batch_end") == 2  # one eval batch of 32 each time
    assert names[:5] == ["on_train_begin", "on_epoch_begin", "on_train_batch_begin",
                         "on_train_batch_end", "on_train_batch_begin"]
    eval_begin = [c[1][0] for c in rec.calls if c[0] == "on_eval_begin"][0]
    assert eval_begin == {"steps": 1, "metrics": ["loss", "acc"]}


def test_fit_on_an_iterable_without_length(capsys):
    class Batches:
        def __iter__(self):
            return iter([(X[i:i + 16], Y[i:i + 16]) for i in range(0, 48, 16)])

    model = prepared()
    model.fit(Batches(), epochs=2, log_freq=1, verbose=2)
    out = capsys.readouterr().out
    assert "step   3 - loss:" in out and "/3" not in out
    assert model.evaluate(Batches(), verbose=0)["acc"] > 0


def test_predict_returns_tuples_of_batches(capsys):
    model = prepared()
    out = model.predict(Points(40), batch_size=16)
    printed = capsys.readouterr().out
    assert "Predict begin..." in printed and "Predict samples: 40" in printed
    assert "step 3/3 [" in printed  # predict's default verbose=1 draws the bar
    assert len(out) == 1 and isinstance(out[0], tuple)
    assert [o.shape for o in out[0]] == [(16, 2), (16, 2), (8, 2)]


def test_save_and_load_restore_parameters_and_optimizer(tmp_path):
    model = prepared()
    model.fit(Points(), batch_size=32, epochs=1, verbose=0)
    path = str(tmp_path / "ckpt" / "m")
    model.save(path)
    assert os.path.isfile(path + ".pdparams") and os.path.isfile(path + ".pdopt")
    saved = {k: v.numpy().copy() for k, v in model.network.state_dict().items()}
    saved_opt = {k: v.numpy().copy() for k, v in model._optimizer.state_dict().items()}

    expected_next = model.train_batch([X[:8]], [Y[:8]])[0][0]  # changes params and state
    # (optimizer state is matched by parameter name, as in Paddle: the same network's names)
    model.load(path + ".pdparams")
    for k, v in model.network.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), saved[k])
    for k, v in model._optimizer.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), saved_opt[k])
    # the restored model continues exactly as the saved one did
    np.testing.assert_array_equal(model.train_batch([X[:8]], [Y[:8]])[0][0], expected_next)
    model.load(path, reset_optimizer=True)  # parameters only
    np.testing.assert_array_equal(model.network[0].weight.numpy(), saved["0.weight"])


def test_load_mismatch_errors_and_skip(tmp_path):
    path = str(tmp_path / "m")
    prepared().save(path)
    wide = paddle.nn.Sequential(paddle.nn.Linear(4, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, 3))
    model = paddle.Model(wide)
    with pytest.raises(ValueError, match=r"2.weight receives a shape \[16, 2\], but the exp"):
        model.load(path)
    first = wide[0].weight.numpy().copy()
    with pytest.warns(UserWarning) as record:
        model.load(path, skip_mismatch=True)
    assert [str(w.message).split(".")[0] for w in record] == ["Skip loading for 2",
                                                             "Skip loading for 2"]
    assert not np.array_equal(wide[0].weight.numpy(), first)  # the matching ones loaded
    with pytest.raises(AssertionError, match="Failed to load parameters"):
        model.load(str(tmp_path / "absent"))
    with pytest.raises(NotImplementedError, match="jit"):
        model.save(path, training=False)


def test_prepare_and_construction_errors():
    model = paddle.Model(classifier())
    with pytest.raises(AssertionError, match="prepare"):
        model.train_batch([X[:2]], [Y[:2]])
    with pytest.raises(TypeError, match="not sub class of Metric"):
        model.prepare(metrics=[object()])
    with pytest.raises(TypeError, match="loss"):
        model.prepare(loss=3)
    with pytest.raises(NotImplementedError, match="mixed precision"):
        model.prepare(amp_configs="O1")
    with pytest.raises(TypeError, match="nn.Layer"):
        paddle.Model(lambda x: x)
    with pytest.raises(AssertionError, match="train_data"):
        model.fit()


class TwoInputs(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 2)

    def forward(self, x, bias):
        return self.fc(x) + bias


def test_number_of_inputs_comes_from_forward_signature():
    class Triples(paddle.io.Dataset):
        def __getitem__(self, i):
            return X[i], np.ones(2, np.float32), Y[i]

        def __len__(self):
            return 8

    model = paddle.Model(TwoInputs())
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), nll)
    model.fit(Triples(), batch_size=4, verbose=0)
    assert model.evaluate(Triples(), batch_size=8, verbose=0)["loss"][0] > 0


# ---------------------------------------------------------------------------
# callbacks
# ---------------------------------------------------------------------------


def test_progress_output_verbose_2(capsys):
    prepared().fit(Points(64), Points(32), batch_size=16, epochs=1, log_freq=2, verbose=2)
    out = capsys.readouterr().out
    assert "Epoch 1/1" in out and "Eval begin..." in out and "Eval samples: 32" in out
    assert "step 2/4 - loss:" in out and "step 4/4 - loss:" in out and "step 3/4" not in out
    assert "- acc:" in out and "/step" in out and "\r" not in out


def test_progress_bar_redraws_in_place_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term, plain = Terminal(), io.StringIO()
    for out in (term, plain):
        bar = ProgressBar(num=3, width=9, verbose=1, file=out)
        for i in (1, 2, 3):
            bar.update(i, [("loss", [0.25]), ("acc", 0.5)])
    assert term.getvalue().count("\r") == 3 and term.getvalue().count("\n") == 1
    lines = plain.getvalue().splitlines()
    assert len(lines) == 3 and "\r" not in plain.getvalue()
    assert lines[0].startswith("step 1/3 [==>......] - loss: 0.2500 - acc: 0.5000 - ETA:")
    assert lines[2].startswith("step 3/3 [=========] - loss: 0.2500")


def test_verbose_3_reports_samples_per_second(capsys):
    prepared().fit(Points(32), batch_size=16, verbose=3)
    out = capsys.readouterr().out
    assert "ips:" in out and "samples/sec" in out and "avg_batch_cost" in out


def test_model_checkpoint_files(tmp_path, capsys):
    prepared().fit(Points(32), batch_size=16, epochs=3, save_dir=str(tmp_path), save_freq=2,
                   verbose=0)
    names = sorted(os.listdir(tmp_path))
    assert names == ["0.pdopt", "0.pdparams", "2.pdopt", "2.pdparams", "final.pdopt",
                     "final.pdparams"]
    assert "save checkpoint at" in capsys.readouterr().out


def test_early_stopping_stops_and_saves_best(tmp_path, capsys):
    stop = paddle.callbacks.EarlyStopping(monitor="acc", patience=1, baseline=1.01)
    assert stop.monitor_op is np.greater  # 'auto' with 'acc' in the name
    prepared().fit(Points(32), Points(32), batch_size=16, epochs=10, save_dir=str(tmp_path),
                   verbose=0, callbacks=[stop])
    assert stop.stopped_epoch == 1  # stopped after the first evaluation
    assert "Early stopping" in capsys.readouterr().out
    assert not os.path.exists(tmp_path / "best_model.pdparams")  # nothing beat the baseline
    best = paddle.callbacks.EarlyStopping(monitor="loss", patience=2)
    assert best.monitor_op is np.less
    prepared().fit(Points(32), Points(32), batch_size=16, epochs=2, save_dir=str(tmp_path),
                   verbose=0, callbacks=[best])
    assert os.path.exists(tmp_path / "best_model.pdparams")
    with pytest.warns(UserWarning, match="unknown"):
        paddle.callbacks.EarlyStopping(mode="sideways")


def test_lr_scheduler_callback_steps_a_scheduler():
    class Schedule:
        steps = 0

        def step(self):
            self.steps += 1

    class Holder:
        _optimizer = type("Opt", (), {"_learning_rate": Schedule()})()

    for kwargs, batches, epochs, expected in (({}, 5, 2, 5), ({"by_step": False, "by_epoch": True},
                                                              5, 2, 2)):
        cb = paddle.callbacks.LRScheduler(**kwargs)
        cb.set_model(Holder())
        Holder._optimizer._learning_rate = Schedule()
        for step in range(batches):
            cb.on_train_batch_end(step)
        for epoch in range(epochs):
            cb.on_epoch_end(epoch)
        assert Holder._optimizer._learning_rate.steps == expected
    with pytest.raises(ValueError, match="mutually exclusive"):
        paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)


def test_reduce_lr_on_plateau():
    model = prepared(lr=0.01)
    cb = paddle.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, verbose=0)
    cb.set_model(model)
    cb.on_train_begin()
    for loss in (1.0, 1.0, 1.0):
        cb.on_eval_end({"loss": [loss]})
    assert model._optimizer.get_lr() == pytest.approx(0.0025)
    with pytest.raises(ValueError, match="factor"):
        paddle.callbacks.ReduceLROnPlateau(factor=1.0)


def test_visualdl_writes_json_lines(tmp_path):
    log_dir = tmp_path / "vdl"
    prepared().fit(Points(32), Points(32), batch_size=16, epochs=2, verbose=0,
                   callbacks=[paddle.callbacks.VisualDL(str(log_dir))])
    records = [json.loads(line) for line in (log_dir / "scalars.jsonl").read_text().splitlines()]
    train = [r for r in records if r["tag"] == "train/loss"]
    assert [r["step"] for r in train] == [1, 2, 3, 4]
    assert [r["step"] for r in records if r["tag"] == "eval/acc"] == [0, 1]
    assert all(isinstance(r["value"], float) for r in records)


def test_callbacks_must_be_callbacks():
    with pytest.raises(TypeError, match="Callback"):
        prepared().fit(Points(16), verbose=0, callbacks=[print])


# ---------------------------------------------------------------------------
# summary and flops
# ---------------------------------------------------------------------------


class Branches(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(8, 6)
        self.act = paddle.nn.ReLU()
        self.seq = paddle.nn.Sequential(paddle.nn.Linear(6, 3), paddle.nn.Tanh())

    def forward(self, x, y):
        return self.seq(self.act(self.fc(x))) + y[:, :3]


def _table_rows(text):
    """The rows of the layer table, as lists of cells."""
    body = text.split("=" * 75 + "\n")[1]
    return [line.split() for line in body.splitlines()]


def test_summary_table_and_totals(capsys):
    net = Branches()
    net.fc.weight.stop_gradient = True
    info = paddle.summary(net, [(None, 8), (2, 3)])
    # Paddle 3.3.1 prints the same rows and totals for this net
    assert info == {"total_params": 75, "trainable_params": 27}
    out = capsys.readouterr().out
    names = [row[0].rsplit("-", 1)[0] for row in _table_rows(out)]
    assert names == ["Linear", "ReLU", "Linear", "Tanh"]
    assert _table_rows(out)[0][1:] == ["[[1,", "8]]", "[1,", "6]", "54"]
    for line in ("Total params: 75", "Trainable params: 27", "Non-trainable params: 48",
                 "Input size (MB): 0.00", "Params size (MB): 0.00",
                 "Estimated Total Size (MB): 0.00"):
        assert line in out
    assert net.training  # restored


def test_summary_sizes_and_input_forms(capsys):
    net = paddle.nn.Sequential(paddle.nn.Linear(1000, 1000))
    info = paddle.summary(net, input=paddle.rand([2, 1000]))
    assert info == {"total_params": 1001000, "trainable_params": 1001000}
    out = capsys.readouterr().out
    assert f"Params size (MB): {1001000 * 4 / 2**20:.2f}" in out
    assert f"Forward/backward pass size (MB): {2 * 2000 * 4 / 2**20:.2f}" in out
    assert "1,001,000" in out
    with pytest.raises(ValueError, match="cannot be None"):
        paddle.summary(net)
    with pytest.raises(ValueError, match="only the dim of batch_size"):
        paddle.summary(net, (None, -1))
    with pytest.raises(ValueError, match="greater than zero"):
        paddle.summary(net, (1, 0))


def test_model_summary_uses_inputs_seen():
    model = prepared()
    with pytest.raises(AssertionError, match="input_size"):
        model.summary()
    model.train_batch([X[:8]], [Y[:8]])
    assert model.summary() == {"total_params": 114, "trainable_params": 114}
    assert model.summary((1, 4)) == {"total_params": 114, "trainable_params": 114}


def test_model_inputs_specs_give_summary_shapes():
    spec = SimpleNamespace(shape=[None, 4], dtype="float32", name="x")
    model = paddle.Model(classifier(), inputs=[spec], labels=SimpleNamespace(shape=[None, 1],
                                                                             name="y"))
    assert model.summary() == {"total_params": 114, "trainable_params": 114}
    with pytest.raises(ValueError, match="name != None"):
        paddle.Model(classifier(), inputs=SimpleNamespace(shape=[None, 4], name=None))
    with pytest.raises(TypeError, match="InputSpec"):
        paddle.Model(classifier(), inputs=[(None, 4)])


def test_flops_counts_like_paddle(capsys):
    net = paddle.nn.Sequential(paddle.nn.Linear(5, 7), paddle.nn.ReLU(), paddle.nn.Sigmoid())
    assert paddle.flops(net, [2, 5], print_detail=True) == 2 * 7 * 5  # in x out elements
    out = capsys.readouterr().out
    assert "Linear'>'s flops has been counted" in out
    assert "Cannot find suitable count function for <class 'dygrad.nn.activation.Sigmoid'>" in out
    assert "Total Flops: 70     Total Params: 42" in out
    # the first column is as wide as the layers' unique names (linear_999, linear_1000, ...),
    # which count the layers made before in this process
    assert re.search(r"^\|\s+Layer Name\s+\| Input Shape \| Output Shape \| Params \| Flops \|$",
                     out, re.M), out
    assert not hasattr(net[0], "total_ops") and "total_ops" not in net.state_dict()

    def sigmoid_ops(m, x, y):
        m.total_ops += 4 * int(np.prod(y.shape))

    assert paddle.flops(net, [2, 5], custom_ops={paddle.nn.Sigmoid: sigmoid_ops}) == 70 + 56
    assert "Customize Function has been applied" in capsys.readouterr().out


def test_lenet_summary_and_flops_match_paddle(capsys):
    net = paddle.vision.models.LeNet()
    # Paddle 3.3.1 prints this table (its own docstring's example) and counts 347560 FLOPs
    assert paddle.summary(net, (1, 1, 28, 28)) == {"total_params": 61610,
                                                    "trainable_params": 61610}
    out = capsys.readouterr().out
    # (the layer numbers come from the layers' unique names: 1 in a fresh process)
    rows = [" ".join([row[0].rsplit("-", 1)[0], *row[1:]]) for row in _table_rows(out)]
    assert rows[0] == "Conv2D [[1, 1, 28, 28]] [1, 6, 28, 28] 60"
    assert rows[5] == "MaxPool2D [[1, 16, 10, 10]] [1, 16, 5, 5] 0"
    assert rows[6] == "Linear [[1, 400]] [1, 120] 48,120"
    for line in ("Forward/backward pass size (MB): 0.11", "Params size (MB): 0.24",
                 "Estimated Total Size (MB): 0.35"):
        assert line in out
    assert paddle.flops(net, [1, 1, 28, 28]) == 347560


@pytest.mark.parametrize("layers,size,expected", [  # expected: Paddle 3.3.1's counting rules
    (lambda nn: [nn.Conv2D(3, 8, 3, bias_attr=False), nn.AvgPool2D(2), nn.AdaptiveAvgPool2D(3)],
     [2, 3, 13, 13], 52960),
    (lambda nn: [nn.Conv2D(4, 8, 3, groups=2), nn.ReLU(), nn.MaxPool2D(2),
                 nn.Conv2DTranspose(8, 2, 3)], [1, 4, 10, 10], 14984),
    (lambda nn: [nn.Conv1D(2, 3, 3), nn.AdaptiveAvgPool1D(2), nn.AvgPool1D(1)], [1, 2, 9], 177),
])
def test_flops_of_conv_and_pool_layers(layers, size, expected, capsys):
    assert paddle.flops(paddle.nn.Sequential(*layers(paddle.nn)), size) == expected
