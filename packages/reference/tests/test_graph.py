"""dygrad.utils.graph: the autograd graph of a small MLP and a static Program."""

import builtins
import shutil

import numpy as np
import pytest

import dygrad as paddle
from dygrad.utils import graph


def _mlp_loss():
    paddle.seed(1)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 1))
    x = paddle.to_tensor(np.ones((2, 3), "float32"))
    return net, net(x).mean()


def test_dot_of_mlp():
    net, loss = _mlp_loss()
    dot = graph(loss)
    assert dot.startswith("digraph dygrad {") and dot.rstrip().endswith("}")
    lines = dot.splitlines()
    boxes = [ln for ln in lines if "shape=box" in ln]
    assert [ln.split('label="')[1].split("\\n")[0] for ln in boxes] == \
        ["mean", "fused_linear_activation", "relu", "fused_linear_activation"]
    for p in net.parameters():  # every parameter, by name, with its shape
        assert f'param {p.name}\\n{list(p.shape)} float32' in dot
    assert sum("shape=ellipse" in ln for ln in lines) == 4
    assert "relu\\n-> [2, 4] float32\\ngrad to: x\\nsaved: out [2, 4]" in dot
    # the first Linear (one op): its input x needs no gradient, it saved both operands
    assert ("fused_linear_activation\\n-> [2, 4] float32\\ngrad to: weight, bias\\n"
            "saved: x [2, 3], weight [3, 4], out [2, 4]") in dot
    assert 'shape=note, label="no grad\\n[2, 3] float32", style="dashed"' in dot
    assert sum(" -> " in ln for ln in lines) == 9  # output + 1 per input of each op
    loss.backward()
    assert "saved: x, weight, out (freed by backward)" in graph(loss)


def test_text_of_mlp():
    net, loss = _mlp_loss()
    text = graph(loss, format="text")
    assert text.splitlines()[0] == "out output  [] float32"
    assert "    <- no grad [2, 3] float32 (x)" in text
    w = net[0].weight
    assert f"param {w.name}  [3, 4] float32" in text
    assert text.count(" fused_linear_activation  -> ") == 2


def test_leaf_and_stop_gradient_tensors():
    x = paddle.to_tensor([1.0, 2.0])
    assert "stop_gradient=True: no graph" in graph(x)
    x.stop_gradient = False
    assert '"n0" -> "out"' in graph(x) and "leaf" in graph(x)


def test_picture_falls_back_to_text_without_graphviz(monkeypatch):
    _, loss = _mlp_loss()
    monkeypatch.setattr(shutil, "which", lambda name: None)
    real_import = builtins.__import__

    def no_graphviz(name, *args, **kwargs):
        if name == "graphviz":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_graphviz)
    with pytest.warns(UserWarning, match="Graphviz is not installed"):
        out = graph(loss, format="svg")
    assert out == graph(loss, format="text")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_svg_with_graphviz():
    _, loss = _mlp_loss()
    assert b"<svg" in graph(loss, format="svg")


def test_static_program():
    paddle.enable_static()
    try:
        prog = paddle.static.Program()
        with paddle.static.program_guard(prog, paddle.static.Program()):
            x = paddle.static.data("x", [None, 3], "float32")
            fc = paddle.nn.Linear(3, 2)
            y = paddle.nn.functional.relu(fc(x)).sum()
    finally:
        paddle.disable_static()
    text = graph(prog, format="text")
    assert "b0_x data x  [-1, 3] float32" in text
    assert f"param {fc.weight.name}  [3, 2] float32; needs grad" in text
    assert [ln.split()[1] for ln in text.splitlines() if ln.startswith("b0_op")] == \
        ["matmul", "add", "relu", "sum"]
    dot = graph(prog)
    assert f'"b0_{fc.weight.name}" -> "b0_op0" [label="y"];' in dot
    assert f'"b0_op3" -> "b0_{y.name}" [label="out"];' in dot


def test_bad_arguments():
    with pytest.raises(TypeError, match="Tensor or a paddle.static.Program"):
        graph(3)
    with pytest.raises(ValueError, match="format must be one of"):
        graph(paddle.to_tensor([1.0]), format="pdf")


def test_tour_output_is_what_the_code_prints():
    """docs/tour.md shows graph() and step_backward() output: it must stay true."""
    import re
    from pathlib import Path

    from dygrad.autograd import step_backward

    doc = (Path(__file__).resolve().parents[3] / "docs" / "tour.md").read_text()
    blocks = re.findall(r"```text\n(.*?)```", doc, re.S)
    shown_graph = blocks[0].split("\n", 1)[1]           # after the >>> line
    shown_steps = blocks[1].split("\n", 2)[2]           # after the >>> and ... lines
    paddle.seed(0)
    fc = paddle.nn.Linear(3, 2)
    x = paddle.to_tensor([[1.0, 2.0, 3.0]])
    loss = paddle.nn.functional.relu(fc(x)).sum()
    names = {fc.weight.name: "linear_0.w_0", fc.bias.name: "linear_0.b_0"}

    def same_names(text):
        return re.sub(r"linear_\d+\.[wb]_0", lambda m: names.get(m.group(0), m.group(0)), text)
    assert same_names(graph(loss, format="text")) == shown_graph
    assert same_names("".join(f"{s}\n" for s in step_backward(loss))) == shown_steps
