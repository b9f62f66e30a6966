"""The MNIST demo (``dygrad-demo mnist``), run for a few steps on the shipped subset."""

import os
import subprocess
import sys

import pytest

from dygrad import demo


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
    assert "MNIST: 4000 training digits, 1000 test digits" in out
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


def test_mnist_demo_without_matplotlib_says_how_to_get_the_plot(offline, engine, capsys,
                                                                monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    run_demo(offline, engine)
    out = capsys.readouterr().out
    assert "No plot: matplotlib is not installed; get it with pip install 'dygrad[plot]'" in out
    assert "Test accuracy:" in out and not os.path.exists(offline / "mnist_curves.png")


def test_mnist_demo_reads_idx_files_from_data_dir(offline):
    assert demo._idx_files(str(offline), "train") is None
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte.gz"):
        (offline / name).write_bytes(b"")
    assert demo._idx_files(str(offline), "train") == [
        str(offline / "train-images-idx3-ubyte"), str(offline / "train-labels-idx1-ubyte.gz")]


def test_demo_command_line():
    result = subprocess.run([sys.executable, "-m", "dygrad.demo", "mnist", "--help"],
                            capture_output=True, text=True, check=True)
    for option in ("--epochs", "--batch-size", "--data-dir", "--output-dir", "--engine", "--lr"):
        assert option in result.stdout
    with pytest.raises(SystemExit):
        demo.main(["cifar"])
