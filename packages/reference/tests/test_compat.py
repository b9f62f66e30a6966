"""``python -m dygrad.compat``: unmodified Paddle scripts run on dygrad."""

import subprocess
import sys
import textwrap


def run(tmp_path, code, *args):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(code))
    return subprocess.run([sys.executable, "-m", "dygrad.compat", str(script), *args],
                          capture_output=True, text=True)


def test_paddle_imports_resolve_to_dygrad(tmp_path):
    out = run(tmp_path, """
        import sys
        import paddle
        import paddle.nn.functional as F
        from paddle.autograd import PyLayer
        import dygrad
        assert paddle is dygrad
        assert F is dygrad.nn.functional
        assert PyLayer is dygrad.autograd.PyLayer
        assert dygrad.nn.__name__ == "dygrad.nn"
        assert __name__ == "__main__"
        print("ok", sys.argv[1:])
    """, "--flag", "7")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok ['--flag', '7']"


def test_missing_paddle_module_is_named(tmp_path):
    out = run(tmp_path, "import paddle.no_such_module\n")
    assert out.returncode != 0
    assert "No module named 'paddle.no_such_module'" in out.stderr
    assert "dygrad.no_such_module" in out.stderr


def test_usage_and_missing_file(tmp_path):
    out = subprocess.run([sys.executable, "-m", "dygrad.compat"], capture_output=True, text=True)
    assert out.returncode == 2 and "usage" in out.stderr
    out = subprocess.run([sys.executable, "-m", "dygrad.compat", str(tmp_path / "none.py")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "no such file" in out.stderr


def test_seed_option_makes_a_script_reproducible(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text("import random\nimport numpy as np\nimport paddle\n"
                      "print(paddle.rand([3]).numpy().tolist(), np.random.rand(), random.random())\n")

    def draw(*opts):
        out = subprocess.run([sys.executable, "-m", "dygrad.compat", *opts, str(script)],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert draw("--seed", "3") == draw("--seed", "3") != draw("--seed", "4")
    bad = subprocess.run([sys.executable, "-m", "dygrad.compat", "--seed", "x", str(script)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--seed needs an integer" in bad.stderr


def test_install_in_process():
    import dygrad
    import dygrad.compat as compat
    compat.install()
    try:
        import paddle
        assert paddle is dygrad
    finally:
        compat.uninstall()
    assert "paddle" not in sys.modules
