"""The Review tab's JSON API and the Play tab's round review, without a browser (Starlette's
TestClient): a round of a real log reviewed, with a frame per action to step through and each
decision at its frame; a Play table's finished round reviewed for the person's decisions; bad
requests one line each, never a traceback."""

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="httpx2 (Starlette's TestClient) is not installed")

from starlette.testclient import TestClient  # noqa: E402

from tichusim.logs import read_game  # noqa: E402
from tichusim.web.app import create_app  # noqa: E402

LOG = Path(__file__).parents[1] / "data" / "bsw" / "2417500.tch"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(workers=1, queue=4, table_deals=0)) as c:
        yield c


def test_a_round_of_a_log_is_reviewed_with_its_frames(client):
    text = LOG.read_text()
    r = client.post("/api/review?wait=1", json={"log": text, "round": 3, "effort": "quick"})
    assert r.status_code == 200, r.text
    job = r.json()
    a = job["result"]
    record = read_game(LOG).game.rounds[2]
    assert a["round"] == 3 and a["rounds_in_log"] == 10
    assert [f["action"] for f in a["frames"]] == [str(x) for x in record.actions]
    last = a["frames"][-1]
    assert sum(last["taken"]) + 0 >= 0 and len(last["hands"]) == 4
    assert all(f["counts"][s] == len(f["hands"][s].split()) for f in a["frames"] for s in range(4))
    (round_,) = a["rounds"]
    assert tuple(round_["score"]) == record.score
    for d in round_["decisions"]:  # each at the frame of the action that made it, or the next
        assert 0 <= d["frame"] < len(a["frames"])
        if d["action"] >= 0:
            assert d["frame"] == d["action"]
    assert job["command"].startswith("tichusim review GAME --round 3 --effort quick")


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"log": "hello"}, "not a game log"),
        ({"log": "LOG", "round": 11}, "rounds 1..10"),
        ({"log": "LOG", "effort": "huge"}, "effort: one of quick, normal, deep"),
        ({"log": "LOG", "what": 1}, "unknown field 'what'"),
        ({"round": 1}, "log: the game's text"),
        ({"log": "LOG", "player": "nobody"}, "nobody"),
        ([1, 2], "a JSON object"),
    ],
)
def test_a_bad_review_request_is_one_line(client, body, said):
    if isinstance(body, dict) and body.get("log") == "LOG":
        body = {**body, "log": LOG.read_text()}
    r = client.post("/api/review?wait=1", json=body)
    assert r.status_code == 400, r.text
    error = r.json().get("error") or r.json().get("result")
    assert said in error and "\n" not in error and "Traceback" not in error


def test_a_play_tables_finished_round_is_reviewed_for_the_person(client):
    state = client.post("/api/play", json={"seed": 5}).json()
    while not state["rounds"]:
        d = state["decision"]
        choice = state["round"]["hand"][: len(d["receivers"])] if d["kind"] == "pass" else 0
        state = client.post(
            f"/api/play/{state['table']}/act", json={"step": state["step"], "choice": choice}
        ).json()
    r = client.post(
        f"/api/play/{state['table']}/review?wait=1", json={"round": 1, "effort": "quick"}
    )
    assert r.status_code == 200, r.text
    a = r.json()["result"]
    assert {d["seat"] for d in a["rounds"][0]["decisions"]} == {0}
    assert [p["seat"] for p in a["players"]] == [0]
    bad = client.post(f"/api/play/{state['table']}/review", json={"round": 9})
    assert bad.status_code == 400 and "rounds 1..1" in bad.json()["error"]
