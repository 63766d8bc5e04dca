"""``tichusim serve``'s own bad input: one line and exit status 2, before anything listens."""

import importlib.util
import socket

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
