"""tichusim serve's JSON API without a browser (Starlette's TestClient): each answer is the
library's, in the commands' ``--json`` shape, and its command line gives the same figures;
bad input is the command line's one-line message with a 400, and the server goes on; the
worker pool is bounded; nothing of a request reaches the file system."""

import inspect
import json
import shlex
import threading
import time

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's TestClient) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from tichusim.analysis import gtodds, gttable, passadvice, tichuodds  # noqa: E402
from tichusim.analysis.advise import advise  # noqa: E402
from tichusim.cli import main  # noqa: E402
from tichusim.games.position import Position  # noqa: E402
from tichusim.strategies import ANSWER_STRATEGY  # noqa: E402
from tichusim.web.answers import Limits  # noqa: E402
from tichusim.web.app import MAX_BODY, create_app  # noqa: E402
from tichusim.web.jobs import Busy, Jobs  # noqa: E402

HAND8 = "Dr Ph A A K 9 5 3"
HAND14 = "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"
# the README's advise example
POSITION = {
    "hand": "Aj Kj 5t",
    "trick": "1: 9p; 2: pass; 3: Ks",
    "played": ["0=Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj", "1=9s"],
    "taken": ["0=15"],
}
SMALL = Limits(deals=5000, pass_deals=2000, samples=200, candidates=20)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=2, queue=4, limits=SMALL, table_deals=0)) as c:
        yield c


def _ask(client, kind, body):
    r = client.post(f"/api/{kind}?wait=1", json=body)
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["state"] == "done" and job["kind"] == kind
    return job


def _without_seconds(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in ("seconds", "gt_table")}


def _cli_json(command: str) -> dict:
    """The answer of the command line the server gave, with --json --quiet."""
    args = shlex.split(command)
    assert args[0] == "tichusim"
    quiet = [] if args[1] == "advise" else ["--quiet"]  # advise has no --quiet
    r = CliRunner().invoke(main, [*args[1:], "--json", *quiet])
    assert r.exit_code == 0, r.output
    return json.loads(r.output.strip().splitlines()[-1])


def _cli_error(args: list[str]) -> str:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    line = r.output.strip()
    assert line.startswith("tichusim: error: ") and "\n" not in line
    return line.removeprefix("tichusim: error: ")


def test_page_and_its_files(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert 'id="cards"' in r.text and "/static/app.js" in r.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../answers.py").status_code == 404


def test_info_reads_the_defaults_from_the_library(client):
    info = client.get("/api/info").json()
    d = info["defaults"]
    assert d["gt_odds"]["seat_strategy"] == d["gt_odds"]["others"] == ANSWER_STRATEGY == "learned"
    assert d["tichu_odds"]["seat_strategy"] == d["tichu_odds"]["others"] == "learned"
    library = inspect.signature(passadvice.pass_advice).parameters
    assert d["pass_advice"]["seat_strategy"] == library["strategy"].default == ANSWER_STRATEGY
    assert d["pass_advice"]["others"] == "learned"
    assert d["pass_advice"]["deals"] == library["deals"].default
    library = inspect.signature(advise).parameters
    assert d["advise"] == {k: library[k].default for k in ("samples", "candidates", "rollout")}
    assert d["advise"]["rollout"] == "learned"
    assert set(d["variants"]) == {"nanjing", "tientsin", "wuwang"}
    assert info["limits"]["deals"] == SMALL.deals
    assert ANSWER_STRATEGY in {s["name"] for s in info["strategies"]}
    assert info["gt_table"]["seat_strategy"] == info["gt_table"]["others"] == "learned"


def test_gt_odds_is_the_library_answer_and_its_command_gives_it(client, estimates_json):
    job = _ask(client, "gt-odds", {"hand": HAND8, "deals": 300, "seed": 7})
    got = job["result"]
    want = gtodds.gt_odds(HAND8, deals=300, seed=7).to_dict()
    assert _without_seconds(got) == _without_seconds(want)
    estimates_json(got, gtodds.GTOdds.ESTIMATES, {"p_success": ("ci_low", "ci_high")})
    assert got["decision"] in ("call", "do not call", "too close to tell")
    assert got["gt_table"] is None  # this server makes no table
    assert "--rounds 300" in job["command"] and "--seed 7" in job["command"]
    # the players that sat, named even as the defaults: the command gives this answer later too
    assert got["strategies"] == ["learned"] * 4
    assert "--seat-strategy learned --others learned" in job["command"]
    assert _without_seconds(_cli_json(job["command"])) == _without_seconds(got)


def test_gt_odds_other_table_and_players(client):
    body = {
        "hand": "Dr Ph A K 9 5",
        "deals": 200,
        "variant": "tientsin",
        "seat_strategy": "heuristic",
        "others": "random",
    }
    job = _ask(client, "gt-odds", body)
    got = job["result"]
    assert got["strategies"][0].startswith("heuristic") and len(got["strategies"]) == 6
    assert "--variant tientsin" in job["command"]
    assert _without_seconds(_cli_json(job["command"])) == _without_seconds(got)


def test_rules_options_reach_the_library_and_the_command(client):
    body = {"hand": HAND8, "deals": 200, "options": {"phoenix_led_half": True}}
    job = _ask(client, "gt-odds", body)
    assert "--option phoenix_led_half=true" in job["command"]
    want = gtodds.gt_odds(HAND8, deals=200, options={"phoenix_led_half": True}).to_dict()
    assert _without_seconds(job["result"]) == _without_seconds(want)
    assert job["result"]["gt_table"] is None  # the table is the game's without options
    assert _without_seconds(_cli_json(job["command"])) == _without_seconds(want)
    r = client.post("/api/gt-odds", json={"hand": HAND8, "options": {"no_such_rule": True}})
    assert r.status_code == 400 and "no_such_rule" in r.json()["error"]


def test_tichu_odds_is_the_library_answer(client):
    hand = "Dr Ph Aj As Ap Kj Ks Kp Qj Qs Jj Tj 9j 8j"
    job = _ask(client, "tichu-odds", {"hand": hand, "deals": 200})
    want = tichuodds.tichu_odds(hand, deals=200).to_dict()
    assert _without_seconds(job["result"]) == _without_seconds(want)
    assert _without_seconds(_cli_json(job["command"])) == _without_seconds(want)


def test_pass_advice_is_the_library_answer(client):
    job = _ask(client, "pass-advice", {"hand": HAND14, "deals": 100, "seed": 3})
    want = passadvice.pass_advice(HAND14, deals=100, seed=3).to_dict()
    assert _without_seconds(job["result"]) == _without_seconds(want)
    assert _without_seconds(_cli_json(job["command"])) == _without_seconds(want)


def test_advise_is_the_library_answer(client):
    position = POSITION | {"variant": "nanjing"}  # as the page sends it
    job = _ask(client, "advise", {"position": position, "samples": 40, "candidates": 6})
    assert "#" not in job["command"] and "--rollout learned" in job["command"]
    want = advise(Position.parse(POSITION), 40, candidates=6).to_dict()
    assert want["rollout"] == "learned"
    assert job["result"] == want
    assert _cli_json(job["command"]) == want


def test_a_job_is_followed_to_its_answer(client):
    r = client.post("/api/gt-odds", json={"hand": HAND8, "deals": 200, "seed": 1})
    assert r.status_code == 202
    job = r.json()
    assert job["state"] in ("queued", "compiling", "running", "done")
    for _ in range(600):
        job = client.get(f"/api/jobs/{job['job']}").json()
        if job["state"] in ("done", "error"):
            break
        time.sleep(0.05)
    assert job["state"] == "done" and job["done"] == job["total"] == 200
    assert job["note"].startswith("P(out first | call)")
    assert client.get("/api/jobs/nosuchjob").status_code == 404


BAD = [
    # (kind, body, the command line's arguments for the same input, or a piece of the message)
    ("gt-odds", {"hand": "Dr Ph A A K 9 5 3 2"}, ["gt-odds", "--hand", "Dr Ph A A K 9 5 3 2"]),
    ("gt-odds", {"hand": "Dr Dr A A K 9 5 3"}, ["gt-odds", "--hand", "Dr Dr A A K 9 5 3"]),
    ("gt-odds", {"hand": "A A A A A K 9 5"}, ["gt-odds", "--hand", "A A A A A K 9 5"]),
    ("gt-odds", {"hand": "Xx Ph A A K 9 5 3"}, ["gt-odds", "--hand", "Xx Ph A A K 9 5 3"]),
    (
        "gt-odds",
        {"hand": HAND8, "others": "nosuchplayer"},
        ["gt-odds", "--hand", HAND8, "--others", "nosuchplayer"],
    ),
    # the command line's message names its flag (--others), the server's its field
    (
        "gt-odds",
        {"hand": HAND8, "others": "expert,expert"},
        "others: give 1 or 3 strategies, not 2",
    ),
    (
        "tichu-odds",
        {"hand": "Dr Ph Aj As Ap Kj Ks Kp Qj Qs Jj Tj 9j"},
        ["tichu-odds", "--hand", "Dr Ph Aj As Ap Kj Ks Kp Qj Qs Jj Tj 9j"],
    ),
    ("pass-advice", {"hand": HAND8}, ["pass-advice", "--hand", HAND8]),
    (
        "pass-advice",
        {"hand": HAND14.replace("Dog", "A")},
        ["pass-advice", "--hand", HAND14.replace("Dog", "A")],
    ),
    (
        "advise",
        {"position": {"hand": "Dr Aj", "trick": "3: Aj"}},
        ["advise", "--hand", "Dr Aj", "--trick", "3: Aj"],
    ),
    ("gt-odds", {"hand": HAND8, "deals": 5001}, "at most 5,000 deals"),
    ("pass-advice", {"hand": HAND14, "deals": 2001}, "at most 2,000 deals"),
    ("advise", {"position": {"hand": "Dr Aj"}, "samples": 201}, "at most 200 deals"),
    ("gt-odds", {"hand": HAND8, "deals": "many"}, "deals: not 'many'"),
    ("gt-odds", {"hand": HAND8, "rounds": 10}, "unknown field 'rounds'"),
    ("gt-odds", {"hand": HAND8, "seed": -1}, "seed: a whole number from 0 to 2**64 - 1, not -1"),
    ("tichu-odds", {"hand": HAND14, "played": 57}, "played: a number of cards 0..56"),
    ("pass-advice", {"hand": HAND14, "candidates": ["Dr,Ks,2j"] * 21}, "at most 20 passes"),
    ("pass-advice", {"hand": HAND14, "candidates": ["Dr,Ks,Ks"]}, "'Ks' given twice"),
    ("gt-odds", {}, "hand: missing"),
    ("gt-odds", [1, 2], "a JSON object"),
    ("gt-odds", {"hand": HAND8, "variant": "poker"}, "variant: a team game"),
    ("advise", {"position": {"hand": "Dr Aj", "colour": 1}}, "unknown key 'colour'"),
]


@pytest.mark.parametrize("kind, body, same", BAD)
def test_bad_input_is_the_command_lines_line_and_the_server_goes_on(client, kind, body, same):
    r = client.post(f"/api/{kind}", json=body)
    assert r.status_code == 400, r.text
    message = r.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    if isinstance(same, list):
        assert message == _cli_error(same)
    else:
        assert same in message
    assert client.get("/api/info").status_code == 200  # still serving


def test_not_json_too_large_and_unknown_answers(client):
    r = client.post(
        "/api/gt-odds", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and r.json()["error"].startswith("the request is not JSON")
    r = client.post("/api/gt-odds", content=b"[" + b"1," * (MAX_BODY // 2 + 1) + b"1]")
    assert r.status_code == 400 and "bytes" in r.json()["error"]
    assert client.post("/api/poker-odds", json={}).status_code == 404


@pytest.mark.parametrize(
    "strategy", ["mine.toml", "agent:examples/dog_passer.py:DogPasser", "search:samples=4"]
)
def test_no_strategy_reads_a_file_or_runs_code(client, tmp_path, monkeypatch, strategy):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text('base = "heuristic"\n')
    before = sorted(p.name for p in tmp_path.iterdir())
    r = client.post("/api/gt-odds", json={"hand": HAND8, "others": strategy})
    assert r.status_code == 400
    assert "named strategies and their changes only" in r.json()["error"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_changed_strategies_are_played(client):
    job = _ask(client, "gt-odds", {"hand": HAND8, "deals": 100, "others": "heuristic:pass=lowest"})
    assert "heuristic[pass=lowest]" in job["result"]["strategies"][1]


def test_the_pool_is_bounded_and_a_full_queue_is_refused_at_once():
    gate = threading.Event()
    jobs = Jobs(workers=1, queue=1)
    first = jobs.submit("x", lambda progress: gate.wait(10) and {"ok": 1})
    second = jobs.submit("x", lambda progress: {"ok": 2})
    with pytest.raises(Busy, match="busy"):
        jobs.submit("x", lambda progress: {"ok": 3})
    gate.set()
    first.future.result(10)
    second.future.result(10)
    assert (first.state, second.state) == ("done", "done") and jobs.busy == 0
    jobs.submit("x", lambda progress: {"ok": 4}).future.result(10)
    jobs.close()


def test_a_full_queue_is_a_503_and_the_page_still_answers():
    gate = threading.Event()
    app = create_app(workers=1, queue=0, limits=SMALL, table_deals=0)
    with TestClient(app) as c:
        app.state.jobs.submit("x", lambda progress: gate.wait(10) and {})
        r = c.post("/api/gt-odds", json={"hand": HAND8, "deals": 100})
        assert r.status_code == 503 and "busy" in r.json()["error"]
        assert c.get("/").status_code == 200 and c.get("/api/info").json()["busy"] == 1
        gate.set()


def test_stopping_ends_a_job_at_its_next_progress():
    jobs = Jobs(workers=1, queue=2)
    started = threading.Event()

    def run(progress):
        started.set()
        for i in range(1000):
            progress(i, 1000)
            time.sleep(0.01)
        return {}

    job = jobs.submit("x", run)
    waiting = jobs.submit("x", run)
    started.wait(5)
    jobs.close()
    job.future.result(5)
    assert job.state == "error" and "stopped" in job.error
    assert waiting.state == "error"
    with pytest.raises(Busy):
        jobs.submit("x", run)


def test_only_the_names_given_may_address_the_server():
    app = create_app(workers=1, queue=1, limits=SMALL, table_deals=0, hosts=["127.0.0.1"])
    with TestClient(app, base_url="http://127.0.0.1:8047") as c:
        assert c.get("/api/info").status_code == 200
    with TestClient(app, base_url="http://tichu.example.com") as c:
        assert c.get("/api/info").status_code == 400
        assert c.post("/api/gt-odds", json={"hand": HAND8}).status_code == 400


def test_finished_jobs_kept_are_bounded():
    jobs = Jobs(workers=1, queue=10, keep=3)
    done = [jobs.submit("x", lambda progress: {}) for _ in range(8)]
    for j in done:
        j.future.result(5)
    jobs.submit("x", lambda progress: {}).future.result(5)
    assert sum(jobs.get(j.id) is not None for j in done) <= 3
    jobs.close()


def test_the_gt_table_row_beside_the_answer():
    with TestClient(create_app(workers=1, queue=2, limits=SMALL, table_deals=2000)) as c:
        for _ in range(1200):
            if c.get("/api/info").json()["gt_table"]["ready"]:
                break
            time.sleep(0.05)
        job = _ask(c, "gt-odds", {"hand": HAND8, "deals": 100})
    row = job["result"]["gt_table"]
    assert row["class"] == {"aces": 2, "dragon": True, "phoenix": True, "bomb": False}
    # the same row the library's table gives for these deals
    classes = gttable.by_class(gttable.experiment(2000, seed=0), gttable.CLASS_KEYS)
    want = gttable.class_row(classes, HAND8)
    assert row["deals"] == want["deals"] > 0 and row["estimates"] == want["estimates"]
    assert row["table_deals"] == 2000 and row["command"] == (
        "tichusim gt-table --deals 2000 --seed 0 --seat-strategy learned --others learned"
    )
    assert row["seat_strategy"] == row["others"] == "learned"
