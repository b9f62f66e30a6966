"""dygrad's demos: ``dygrad-demo mnist`` (or ``python -m dygrad.demo mnist``).

``mnist`` trains paddle.vision.models.LeNet with Adam on MNIST through paddle.Model, as
Paddle's high-level API tutorial does: a progress bar while it trains, then the accuracy on
the held-out test digits, the training speed, a checkpoint and a plot of the curves.

The digits are the real MNIST IDX files when ``--data-dir`` holds them (Paddle's file names:
``train-images-idx3-ubyte.gz`` ..., gzipped or not) or when they are in the dataset cache;
otherwise the 5,000-digit subset shipped inside dygrad (4,000 to train, 1,000 to test),
so the demo runs offline.

``--nproc N`` trains data-parallel on N processes of this machine: the demo starts itself
again through ``dygrad.distributed.launch`` (MPI), each rank wraps LeNet in
``paddle.DataParallel`` and reads its share of every epoch through
``paddle.io.DistributedBatchSampler`` (``--batch-size`` per rank); only rank 0 prints and
saves.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
import warnings

from .. import available_engines, distributed, get_engine, get_num_threads, seed, set_engine
from ..callbacks import Callback
from ..hapi import Model
from ..io import DataLoader, DistributedBatchSampler
from ..metric import Accuracy
from ..nn import CrossEntropyLoss
from ..optimizer import Adam
from ..vision import transforms as T
from ..vision.datasets import MNIST
from ..vision.models import LeNet

__all__ = ["main"]

PLOT_HINT = "pip install 'dygrad[plot]'"


class History(Callback):
    """Records the training loss of every step, the accuracies of every epoch, and the time
    spent in training epochs (evaluation excluded)."""

    def __init__(self):
        super().__init__()
        self.step_loss, self.train_acc, self.eval_acc = [], [], []
        self.train_seconds = 0.0
        self.train_samples = 0

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_start = time.perf_counter()

    def on_train_batch_end(self, step, logs=None):
        self.step_loss.append(logs["loss"][0])
        self.train_samples += logs["batch_size"]

    def on_epoch_end(self, epoch, logs=None):
        self.train_seconds += time.perf_counter() - self._epoch_start
        self.train_acc.append(logs["acc"])

    def on_eval_end(self, logs=None):
        self.eval_acc.append(logs["acc"])  # over the whole test set


def _idx_files(data_dir, mode):
    """(images, labels) paths of ``mode`` in ``data_dir``, or None when either is absent."""
    paths = []
    for name in MNIST.FILES[mode]:
        found = [p for p in (os.path.join(data_dir, name), os.path.join(data_dir, name[:-3]))
                 if os.path.isfile(p)]
        if not found:
            return None
        paths.append(found[0])
    return paths


def _dataset(mode, data_dir):
    transform = T.Compose([T.Transpose(), T.Normalize([127.5], [127.5])])  # [1, 28, 28] in [-1, 1]
    files = _idx_files(data_dir, mode) if data_dir else None
    if files:
        return MNIST(image_path=files[0], label_path=files[1], mode=mode, transform=transform)
    if data_dir:
        print(f"No MNIST {mode} files in {data_dir}: using the cache or the shipped subset.")
    with warnings.catch_warnings(record=True) as caught:  # say where the digits come from
        warnings.simplefilter("always")
        dataset = MNIST(mode=mode, transform=transform)
    for w in caught:
        print(w.message)
    return dataset


def _plot(history, path):
    """Write the loss and accuracy curves to ``path``; False when matplotlib is missing."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return False
    fig = Figure(figsize=(10, 4))
    loss_ax, acc_ax = fig.subplots(1, 2)
    loss_ax.plot(range(1, len(history.step_loss) + 1), history.step_loss, linewidth=0.8)
    loss_ax.set(title="training loss", xlabel="step", ylabel="cross entropy")
    epochs = range(1, len(history.train_acc) + 1)
    acc_ax.plot(epochs, history.train_acc, "o-", label="train")
    acc_ax.plot(range(1, len(history.eval_acc) + 1), history.eval_acc, "s-", label="test")
    acc_ax.set(title="accuracy", xlabel="epoch", ylabel="accuracy", xticks=list(epochs))
    acc_ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return True


def mnist(args):
    """Train LeNet on MNIST, evaluating after each epoch; returns the final test accuracy.
    In a job of several ranks, trains data-parallel; ranks other than 0 print nothing and
    save nothing."""
    nproc = 1
    if args.nproc > 1:
        distributed.init_parallel_env()
        nproc = distributed.get_world_size()
        if distributed.get_rank() != 0:
            with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
                return _train(args, nproc)
    return _train(args, nproc)


def _train(args, nproc):
    start = time.perf_counter()
    if args.engine:
        set_engine(args.engine)
    seed(args.seed)
    train_set, test_set = _dataset("train", args.data_dir), _dataset("test", args.data_dir)
    print(f"MNIST: {len(train_set)} training digits, {len(test_set)} test digits; "
          f"engine {get_engine()}, {get_num_threads()} threads"
          + (f", {nproc} ranks (DataParallel, batch size {args.batch_size} per rank)"
             if nproc > 1 else ""))
    network, train_data = LeNet(), train_set
    if nproc > 1:
        network = distributed.DataParallel(network)
        train_data = DataLoader(train_set, batch_sampler=DistributedBatchSampler(
            train_set, args.batch_size, shuffle=True))
    model = Model(network)
    model.prepare(Adam(learning_rate=args.lr, parameters=model.parameters()),
                  CrossEntropyLoss(), Accuracy())
    history = History()
    model.fit(train_data, test_set, batch_size=[args.batch_size, 250], epochs=args.epochs,
              verbose=1 if distributed.get_rank() == 0 else 0, callbacks=[history],
              num_iters=args.num_iters)
    if distributed.get_rank() != 0:
        return history.eval_acc[-1]
    os.makedirs(args.output_dir, exist_ok=True)
    checkpoint = os.path.join(args.output_dir, "lenet")
    model.save(checkpoint)
    speed = nproc * history.train_samples / history.train_seconds if history.train_seconds \
        else 0.0
    print(f"Test accuracy: {history.eval_acc[-1]:.4f} on {len(test_set)} digits")
    print(f"Training speed: {speed:.1f} samples/s ({nproc * history.train_samples} samples in "
          f"{history.train_seconds:.1f} s" + (f" on {nproc} ranks)" if nproc > 1 else ")"))
    print(f"Checkpoint: {checkpoint}.pdparams, {checkpoint}.pdopt")
    plot_path = os.path.join(args.output_dir, "mnist_curves.png")
    if _plot(history, plot_path):
        print(f"Curves: {plot_path}")
    else:
        print(f"No plot: matplotlib is not installed; get it with {PLOT_HINT}")
    print(f"Total time: {time.perf_counter() - start:.1f} s")
    return history.eval_acc[-1]


def _positive(text):
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def _parser():
    parser = argparse.ArgumentParser(prog="dygrad-demo", description="dygrad's demos.")
    demos = parser.add_subparsers(dest="demo", required=True, metavar="DEMO")
    p = demos.add_parser("mnist", help="train LeNet on MNIST with paddle.Model",
                         description="Train LeNet on MNIST with Adam through paddle.Model.")
    p.add_argument("--epochs", type=_positive, default=3, help="training epochs (default 3)")
    p.add_argument("--batch-size", type=_positive, default=64, help="samples per batch (default 64)")
    p.add_argument("--lr", type=float, default=0.001, help="Adam's learning rate (default 0.001)")
    p.add_argument("--data-dir", default=None,
                   help="a directory with the MNIST IDX files (default: the dataset cache, "
                        "else the 5,000-digit subset shipped with dygrad)")
    p.add_argument("--output-dir", default="dygrad-mnist",
                   help="where the checkpoint and the plot go (default ./dygrad-mnist)")
    p.add_argument("--engine", choices=available_engines(), default=None,
                   help="the engine to compute with (default: dygrad's default)")
    p.add_argument("--num-iters", type=_positive, default=None,
                   help="stop training after this many steps (a quick run)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--nproc", type=_positive, default=1,
                   help="train data-parallel on this many processes (MPI; needs "
                        "pip install 'dygrad[distributed]'; default 1)")
    return parser


def main(argv=None):
    """The ``dygrad-demo`` command; returns its exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser().parse_args(argv)
    if args.demo == "mnist":
        if args.nproc > 1 and distributed.collective.env_rank_and_size()[1] == 1:
            from ..distributed.launch import mpiexec_command
            command, env = mpiexec_command(args.nproc, ["-m", "dygrad.demo", *argv])
            return subprocess.run(command, env=env).returncode
        mnist(args)
    return 0
