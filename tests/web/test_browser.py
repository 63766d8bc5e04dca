"""tichusim serve in a real browser (slow tier): the server started on a free port, its page
driven in headless Chromium (Debian's ``chromium`` and ``chromium-driver``, through Selenium,
which is pointed at both and downloads nothing). Pick 8 cards, ask, read the decision and its
interval off the page; the same for a pass, a position and a bad hand. Skips, saying what is
missing, where no browser is installed."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pytest
from click.testing import CliRunner

pytestmark = pytest.mark.slow

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

import tichusim  # noqa: E402
from tichusim.analysis import gtodds, passadvice  # noqa: E402
from tichusim.analysis.advise import advise  # noqa: E402
from tichusim.cards import notation as cards  # noqa: E402
from tichusim.cli import main  # noqa: E402
from tichusim.games.position import Position  # noqa: E402
from tichusim.games.tablegame import deal_of  # noqa: E402
from tichusim.stats import Estimate  # noqa: E402

BROWSER = os.environ.get("TICHUSIM_CHROMIUM") or shutil.which("chromium")
DRIVER = os.environ.get("TICHUSIM_CHROMEDRIVER") or shutil.which("chromedriver")
if BROWSER is None or DRIVER is None:
    _missing = " and ".join(
        name for name, path in (("chromium", BROWSER), ("chromedriver", DRIVER)) if path is None
    )
    pytest.skip(
        f"no {_missing} here: apt-get install chromium chromium-driver (Debian) runs the "
        "browser test",
        allow_module_level=True,
    )
COMPILE = 600  # seconds an answer may take with a cold kernel cache on a shared machine


@pytest.fixture(scope="module")
def server():
    """``tichusim serve`` on a free loopback port, in its own process; stopped with Ctrl-C."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tichusim.cli", "serve", "--port", "0", "--table-deals", "2000"],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stderr.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert match, line
    yield match.group(0)
    proc.send_signal(2)  # SIGINT, as Ctrl-C
    try:
        rest = proc.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 0, rest
    assert "Traceback" not in rest and "tichusim serve: stopped" in rest


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager never fetches a browser or driver
    profile = tempfile.mkdtemp(prefix="tichusim-chromium-")
    options = Options()
    options.binary_location = BROWSER
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--window-size=1200,1000",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _wait_for(driver, css: str, seconds: float = COMPILE):
    """The first element matching ``css`` once shown, or the page's error if one shows."""

    def shown(d):
        for el in d.find_elements(By.CSS_SELECTOR, f"{css}, .error"):
            if el.is_displayed():
                return el
        return False

    el = WebDriverWait(driver, seconds).until(shown)
    assert "error" not in (el.get_attribute("class") or ""), el.text
    return el


def _pick(driver, codes):
    driver.find_element(By.ID, "clear").click()
    for code in codes:
        driver.find_element(By.CSS_SELECTOR, f'.card[data-card="{code}"]').click()


def _figure(driver, box: str, label: str) -> str:
    for row in driver.find_elements(By.CSS_SELECTOR, f"#{box} table.figures tr"):
        cells = row.find_elements(By.TAG_NAME, "td")
        if cells and cells[0].text == label:
            return cells[1].text
    raise AssertionError(f"no row {label!r} in #{box}")


def _pts(e: Estimate) -> str:
    """An estimate as the page writes points: +77.0 [+74.1, +79.9]."""
    return f"{e.value:+.1f} [{e.low:+.1f}, {e.high:+.1f}]"


def test_eight_cards_ask_and_read_the_decision(server, browser):
    browser.get(server)
    codes = ["Dr", "Ph", "Aj", "As", "Kj", "9j", "5j", "3j"]
    _pick(browser, codes)
    assert browser.find_element(By.ID, "hand").get_attribute("value") == " ".join(codes)
    assert browser.find_element(By.ID, "count").text == "8 cards of 8"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".card.on")) == 8
    browser.find_element(By.ID, "ask-gt").click()
    verdict = _wait_for(browser, "#answer-gt .verdict")
    want = gtodds.gt_odds(" ".join(codes), deals=2000)
    assert verdict.get_attribute("data-decision") == want.decision
    assert _figure(browser, "answer-gt", "call − no call (same deals)") == _pts(want.ev_diff)
    assert _figure(browser, "answer-gt", "P(out first | call)").startswith(
        f"{100 * want.p_success.value:.1f}%"
    )
    command = browser.find_element(By.CSS_SELECTOR, "#answer-gt code.command").text
    assert command.startswith("tichusim gt-odds --hand 'Dr Ph Aj As Kj 9j 5j 3j' --rounds 2000")
    assert browser.find_elements(By.CSS_SELECTOR, "#answer-gt svg.plot circle")
    # the table's row waits for the start-up table: ask again once it is there
    deadline = time.time() + COMPILE
    while not browser.find_elements(By.ID, "gt-table-row") and time.time() < deadline:
        time.sleep(1)
        browser.find_element(By.ID, "ask-gt").click()
        _wait_for(browser, "#answer-gt .verdict")
    assert "2 Aces, Dragon, Phoenix, no bomb" in browser.find_element(By.ID, "gt-table-row").text


def test_a_pass_from_fourteen_cards(server, browser):
    hand = "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"
    browser.get(server)
    browser.find_element(By.ID, "tab-t14").click()
    box = browser.find_element(By.ID, "hand")
    box.clear()
    box.send_keys(hand)
    assert browser.find_element(By.ID, "count").text == "14 cards of 14"
    deals = browser.find_element(By.ID, "pass-deals")
    deals.clear()
    deals.send_keys("1000")
    browser.find_element(By.ID, "ask-pass").click()
    best = _wait_for(browser, "#best-pass")
    want = passadvice.pass_advice(hand, deals=1000).best
    assert best.text == f"{want.right} → right · {want.partner} → partner · {want.left} → left"


def test_a_position_ranks_the_plays(server, browser):
    browser.get(server)
    browser.find_element(By.ID, "tab-pos").click()
    fields = {
        "hand": "Aj Kj 5t",
        "p-trick": "1: 9p; 2: pass; 3: Ks",
        "p-played": "0=Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj\n1=9s",
        "p-taken": "0=15",
        "p-samples": "200",
    }
    for name, text in fields.items():
        el = browser.find_element(By.ID, name)
        el.clear()
        el.send_keys(text)
    browser.find_element(By.ID, "ask-pos").click()
    best = _wait_for(browser, "#best-play")
    position = Position.parse(
        {
            "hand": "Aj Kj 5t",
            "trick": "1: 9p; 2: pass; 3: Ks",
            "played": ["0=Ma 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj", "1=9s"],
            "taken": ["0=15"],
        }
    )
    want = advise(position, 200).to_dict()["plays"][0]["play"] or "pass"
    assert best.text == want


def test_a_bad_hand_is_one_line_on_the_page_and_the_page_goes_on(server, browser):
    """A refused hand is the command line's one line, and the answer of the hand asked
    before is not left under it as if it were this one's (issue 55, item 7)."""
    browser.get(server)
    _pick(browser, ["Dr", "Ph", "Aj", "As", "Kj", "9j", "5j", "3j"])
    browser.find_element(By.ID, "ask-gt").click()
    _wait_for(browser, "#answer-gt .verdict", 120)
    box = browser.find_element(By.ID, "hand")
    for bad in ("Dr Ph A A K 9 5 3 2", "Dr Dr A A K 9 5 3", "A A A A A K 9 5", "Zz A A K 9 5 3 2"):
        box.clear()
        box.send_keys(bad)
        browser.find_element(By.ID, "ask-gt").click()
        error = WebDriverWait(browser, 60).until(
            ec.visibility_of_element_located((By.ID, "error-gt"))
        )
        said = CliRunner().invoke(main, ["gt-odds", "--hand", bad]).output.strip()
        assert said == f"tichusim: error: {error.text}"  # the command line's one line
        assert "Traceback" not in browser.page_source
        assert not browser.find_element(By.ID, "answer-gt").is_displayed()
    _pick(browser, ["Dr", "Ph", "Aj", "As", "Kj", "9j", "5j", "3j"])
    browser.find_element(By.ID, "ask-gt").click()
    _wait_for(browser, "#answer-gt .verdict", 120)
    assert not browser.find_element(By.ID, "error-gt").is_displayed()


# ---- the Play tab --------------------------------------------------------------------------


def _play_step(driver) -> str:
    """One click of the player, the first legal option (the passing: the hand's first
    cards); ``"end"`` once the round's end is shown, ``""`` while the page is busy."""
    from selenium.common.exceptions import (
        ElementNotInteractableException,
        StaleElementReferenceException,
    )

    try:
        if driver.find_element(By.ID, "pl-round-end").is_displayed():
            return "end"
        if "waiting" in driver.find_element(By.ID, "pl-decision").get_attribute("class"):
            return ""
        if driver.find_element(By.ID, "pl-gives").is_displayed():
            for _ in range(3):
                driver.find_element(By.CSS_SELECTOR, "#pl-hand .card:not(.on)").click()
            driver.find_element(By.ID, "pl-give").click()
            return "pass"
        options = driver.find_elements(By.CSS_SELECTOR, "#pl-options button.option")
        if options and options[0].is_enabled():
            options[0].click()
            return "option"
    except (StaleElementReferenceException, ElementNotInteractableException):
        pass  # drawn again, or hidden for the bots' moves, as it was clicked
    return ""


def _hint(driver):
    driver.find_element(By.ID, "pl-hint").click()
    box = _wait_for(driver, "#pl-hint-box", COMPILE)
    return box.find_elements(By.CSS_SELECTOR, "tr[data-rank]")


def test_a_round_played_by_clicks_scores_as_the_engine(server, browser):
    """A whole round at the Play tab by clicks (the first legal option each time), one hint
    asked at a play; the round's score read off the page is the engine's for the same seed
    and answers through the Step API; an illegal answer sent to the API is refused."""
    from selenium.webdriver.support.ui import Select

    browser.get(server)
    browser.execute_script("localStorage.clear()")
    browser.refresh()
    browser.find_element(By.ID, "tab-play").click()
    seed = browser.find_element(By.ID, "pl-seed")
    seed.send_keys("21")
    Select(browser.find_element(By.ID, "pl-pace")).select_by_value("0")
    browser.find_element(By.ID, "pl-new").click()
    hinted = None
    deadline = time.time() + COMPILE
    while time.time() < deadline:
        prompt = browser.find_element(By.ID, "pl-prompt").text
        if (
            hinted is None
            and prompt.startswith("Your turn: play or pass")
            and browser.find_elements(By.CSS_SELECTOR, "#pl-options button.option")
        ):
            hinted = _hint(browser)
            assert hinted and "best" in (hinted[0].get_attribute("class") or "")
            shot = os.environ.get("TICHUSIM_PLAY_SCREENSHOT")
            if shot:  # docs/play.png: python -m pytest -m slow -k round_played (this variable set)
                browser.set_window_size(1200, 1250)
                browser.save_screenshot(shot)
        if _play_step(browser) == "end":
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the round did not end")
    assert hinted, "no play was hinted"
    us = int(browser.find_element(By.ID, "pl-round-us").text)
    them = int(browser.find_element(By.ID, "pl-round-them").text)
    assert browser.find_element(By.ID, "pl-us").text == str(us)
    kept = browser.execute_script("return JSON.parse(localStorage.getItem('tichusim-play'))")
    record = kept["record"]
    assert record["seed"] == 21 and record["strategies"] == [None, "learned", "learned", "learned"]
    # the engine: the same deal, seed and answers through the Step API
    r = tichusim.Round(21, 0, record["strategies"], deal=deal_of("nanjing", 21, 0))
    answers = iter(record["answers"])
    while True:
        r.advance()
        if r.done:
            break
        value = next(answers)
        legal = r.legal()
        r.act(tuple(cards.parse(c) for c in value) if isinstance(value, list) else legal[value])
    rounds, _ = r.tables()
    assert (int(rounds.score_team0[0]), int(rounds.score_team1[0])) == (us, them)
    assert next(answers, None) is None
    # an illegal answer sent to the API: refused in one line, the table as it was
    said = browser.execute_async_script(
        """const [table, step, done] = arguments;
        fetch(`/api/play/${table}/act`, {method: "POST",
          headers: {"Content-Type": "application/json"},
          body: JSON.stringify({step: step, choice: 999})})
          .then(async (r) => done([r.status, await r.text()]));""",
        kept["table"],
        len(record["answers"]),
    )
    assert said[0] == 400 and "does not exist" in said[1] and "Traceback" not in said[1]
    # the round reviewed: the person's decisions weighed, the par beside the result
    browser.find_element(By.CSS_SELECTOR, "#pl-review button.review-round").click()
    WebDriverWait(browser, COMPILE).until(
        lambda d: "par" in d.find_element(By.CSS_SELECTOR, "#pl-review .review-out").text
    )
    reviewed = browser.find_element(By.CSS_SELECTOR, "#pl-review .review-out").text
    assert f"Score {us} : {them}" in reviewed and "decisions weighed" in reviewed
    browser.find_element(By.ID, "pl-continue").click()
    _wait_for(browser, "#pl-options button.option", 60)
    assert browser.find_element(By.ID, "pl-prompt").text.startswith("Your first cards")
    hand = browser.find_element(By.ID, "pl-hand").text
    # a reload resumes the table; a table the server has lost reopens from its record
    assert f"table={kept['table']}" in browser.current_url
    for lost in (False, True):
        if lost:
            browser.execute_async_script(
                "fetch(`/api/play/${arguments[0]}`, {method: 'DELETE'}).then(() => arguments[1]())",
                kept["table"],
            )
        browser.refresh()
        _wait_for(browser, "#pl-options button.option", 60)
        assert browser.find_element(By.ID, "pl-prompt").text.startswith("Your first cards")
        assert browser.find_element(By.ID, "pl-hand").text == hand
        assert browser.find_element(By.ID, "pl-us").text == str(us)
    assert f"table={kept['table']}" not in browser.current_url  # reopened: a new id
    assert "Traceback" not in browser.page_source


def test_a_played_game_is_reviewed_and_stepped_through(server, browser):
    """The Review tab: a real log pasted, one round reviewed (each decision's loss, the
    worst first, the par beside the result), then stepped through move by move, a decision
    shown at its move; a log that is none is one line on the page."""
    from pathlib import Path

    from selenium.webdriver.support.ui import Select

    log = (Path(__file__).parents[1] / "data" / "bsw" / "2417500.tch").read_text()
    browser.get(server)
    browser.find_element(By.ID, "tab-review").click()
    browser.execute_script("document.getElementById('rv-log').value = arguments[0]", "hello")
    browser.find_element(By.ID, "ask-review").click()
    error = _wait_for_error(browser, "#error-review")
    assert "not a game log" in error.text
    browser.execute_script("document.getElementById('rv-log').value = arguments[0]", log)
    round_ = browser.find_element(By.ID, "rv-round")
    round_.clear()
    round_.send_keys("2")
    Select(browser.find_element(By.ID, "rv-effort")).select_by_value("quick")
    browser.find_element(By.ID, "ask-review").click()
    answer = _wait_for(browser, "#answer-review")
    assert "Round 2 of 10" in answer.text and "par" in answer.text
    assert browser.find_element(By.ID, "error-review").is_displayed() is False
    where = browser.find_element(By.ID, "rv-where")
    assert where.text.startswith("move 1 of ")
    browser.find_element(By.ID, "rv-next").click()
    assert where.text.startswith("move 2 of ")
    shown = browser.find_elements(By.CSS_SELECTOR, "#answer-review button.goto")
    if shown:
        shown[0].click()
        assert browser.find_elements(By.CSS_SELECTOR, "#rv-frame .notes li")
    rows = browser.find_elements(By.CSS_SELECTOR, "#rv-frame table.seats-open tr")
    assert len(rows) == 4
    shot = os.environ.get("TICHUSIM_REVIEW_SCREENSHOT")
    if shot:  # docs/review.png: python -m pytest -m slow -k reviewed (this variable set)
        browser.set_window_size(1200, 1800)
        browser.save_screenshot(shot)
    assert "Traceback" not in browser.page_source


def _wait_for_error(driver, css: str, seconds: float = 60):
    def shown(d):
        el = d.find_element(By.CSS_SELECTOR, css)
        return el if el.is_displayed() else False

    return WebDriverWait(driver, seconds).until(shown)
