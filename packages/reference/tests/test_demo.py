"""The MNIST demo (``dygrad-demo mnist``), run for a few steps on the shipped subset."""

import os
import subprocess
import sys

import pytest

from dygrad import demo
from dygrad.vision.datasets import MNIST
from dygrad.vision.datasets.idx import write_idx
from dygrad.vision.datasets.mnist import shipped_subset


@pytest.fixture
def offline(tmp_path, monkeypatch):
    """No MNIST files anywhere: the demo must use the subset shipped with dygrad."""
    monkeypatch.setenv("DYGRAD_HOME", str(tmp_path / "home"))
    return tmp_path


def run_demo(out_dir, engine, *extra):
    return demo.main(["mnist", "--epochs", "1", "--num-iters", "4", "--batch-size", "16",
                      "--output-dir", str(out_dir), "--engine", engine, *extra])


def test_mnist_demo_trains_saves_and_plots(offline, engine, capsys):
    out_dir = offline / "out"
    assert run_demo(out_dir, engine, "--data-dir", str(offline)) == 0
    out = capsys.readouterr().out
    assert "MNIST: 4000 training digits, 1000 test digits; engine " in out
    assert "step 4/4" in out  # the progress bar
    accuracy = float(out.split("Test accuracy: ")[1].split()[0])
    assert 0.0 <= accuracy <= 1.0 and "on 1000 digits" in out
    assert "samples/s (64 samples in" in out
    assert os.path.isfile(out_dir / "lenet.pdparams") and os.path.isfile(out_dir / "lenet.pdopt")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "pip install 'dygrad[plot]'" in out
    else:
        assert (out_dir / "mnist_curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def write_mnist_files(folder, n_train, n_test, gzipped):
    """A small MNIST in IDX files under Paddle's names, cut from the shipped subset."""
    for mode, n in (("train", n_train), ("test", n_test)):
        images, labels = shipped_subset(mode)
        for name, array in zip(MNIST.FILES[mode], (images[:n], labels[:n])):
            write_idx(folder / (name if gzipped else name[:-3]), array)


@pytest.mark.parametrize("gzipped", [True, False])
def test_mnist_demo_reads_idx_files_from_data_dir(offline, engine, capsys, monkeypatch,
                                                  gzipped):
    write_mnist_files(offline, 48, 20, gzipped)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    run_demo(offline / "out", engine, "--data-dir", str(offline))
    out = capsys.readouterr().out
    assert "MNIST: 48 training digits, 20 test digits; engine " in out and "on 20 digits" in out
    assert "No plot: matplotlib is not installed; get it with pip install 'dygrad[plot]'" in out
    assert not os.path.exists(offline / "out" / "mnist_curves.png")
    assert os.path.isfile(offline / "out" / "lenet.pdparams")


def test_demo_command_line():
    result = subprocess.run([sys.executable, "-m", "dygrad.demo", "mnist", "--help"],
                            capture_output=True, text=True, check=True)
    for option in ("--epochs", "--batch-size", "--data-dir", "--output-dir", "--engine", "--lr"):
        assert option in result.stdout
    for bad in (["cifar"], ["mnist", "--epochs", "0"], ["mnist", "--batch-size", "-1"]):
        with pytest.raises(SystemExit):
            demo.main(bad)
