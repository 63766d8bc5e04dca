"""``tichusim serve``'s own bad input: one line and exit status 2, before anything listens;
Ctrl-C stops it cleanly."""

import importlib.util
import signal
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from tichusim.cli import main


def _error(args) -> str:
    r = CliRunner().invoke(main, ["serve", *args])
    assert r.exit_code == 2, r.output
    line = r.output.strip()
    assert "\n" not in line and "Traceback" not in line
    return line


def test_a_port_in_use_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        line = _error(["--port", str(port), "--table-deals", "0"])
    assert line.startswith(f"tichusim: error: cannot listen on 127.0.0.1:{port}: ")


def test_bad_options_are_one_line():
    assert "--table-deals: 0 or at least 1,000" in _error(["--table-deals", "500"])
    assert "--workers" in _error(["--workers", "0"])
    assert "--port" in _error(["--port", "70000"])


def test_without_the_web_extra_it_says_how_to_install_it(monkeypatch):
    find = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else find(name, *a)
    )
    assert _error([]) == (
        "tichusim: error: serve needs uvicorn, the web extra: pip install -e '.[web]'"
    )


@pytest.mark.parametrize("wait", [0.0, 3.0])
def test_ctrl_c_stops_it_cleanly_at_once_or_while_it_warms_up(wait):
    """SIGINT right after the server says where it listens, or while its start-up table is
    being made: "stopped", exit status 0, no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tichusim.cli", "serve", "--port", "0", "--table-deals", "20000"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert "http://127.0.0.1:" in proc.stderr.readline()
        time.sleep(wait)
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=60)[1]
    finally:
        proc.kill()
    assert proc.returncode == 0, rest
    assert rest.strip().splitlines()[-1] == "tichusim serve: stopped" and "Traceback" not in rest
