"""The web board in a real browser: headless Chromium driven by Selenium,
against a real uvicorn server on 127.0.0.1.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs
them when it runs as root) and the Python packages ``selenium``,
``starlette`` and ``uvicorn``; skips with the reason otherwise.
"""
import json
import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web board needs the web extra: pip install 'connect6[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="the web board needs the web extra: pip install 'connect6[web]'")
pytest.importorskip("selenium", reason="the browser test needs selenium: pip install selenium")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import TimeoutException, WebDriverException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from connect6 import Board, Engine, Move, SearchResult, cell_name  # noqa: E402
from connect6.records import replay  # noqa: E402
from connect6.web.guard import AccessPolicy  # noqa: E402
from connect6.web.server import create_app  # noqa: E402

BROWSER = next(filter(None, (shutil.which(n) for n in ("chromium", "chromium-browser"))), None)
DRIVER = shutil.which("chromedriver")
if BROWSER is None or DRIVER is None:
    pytest.skip("no headless browser: install Debian's chromium and chromium-driver "
                "(apt-get install chromium chromium-driver)", allow_module_level=True)

WAIT = 60   # seconds for anything the page must show (generous for slow, loaded CI machines)
NEVER = 600  # a stand-in search that waits to be stopped gives up after this (only a broken test gets there)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """uvicorn serving an app on a free local port, in a thread."""

    def __init__(self, app):
        self.port = _free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}/"

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(WAIT)


@pytest.fixture(scope="module")
def driver():
    options = Options()
    options.binary_location = BROWSER
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,900"):
        options.add_argument(arg)
    try:
        d = webdriver.Chrome(service=Service(DRIVER), options=options)
    except WebDriverException as exc:
        pytest.skip(f"chromium is installed but does not start: {exc.msg}")
    yield d
    d.quit()


def fixed_engine(profile):
    return Engine(depth=1, profile=profile)


def wait_for(driver, condition, what):
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(lambda d: condition())
    except TimeoutException:
        raise AssertionError(f"the page did not show {what} within {WAIT} s; "
                             f"status: {driver.find_element(By.ID, 'status').text!r}") from None


def page_moves(driver):
    """The game's moves as the page lists them ("1.j10 2.k11i11 ...")."""
    text = driver.find_element(By.ID, "moves").text
    return [m.split(".", 1)[1] for m in text.split()]


def board_stones(driver):
    """{cell: colour} of the stones drawn on the board (read in one go: the page redraws often)."""
    return driver.execute_script(
        "const out = {}; for (const e of document.querySelectorAll('#board [data-stone]'))"
        " out[e.dataset.stone] = e.dataset.color; return out;")


def marked(driver, attribute):
    """The cells with a marker (``last``, ``win``, ``pending``) on the board."""
    return set(driver.execute_script(
        f"return [...document.querySelectorAll('#board [data-{attribute}]')].map(e => e.dataset.{attribute});"))


def expected_stones(moves):
    board = replay(moves)
    return {cell_name(c): str(board.stone_at(c)) for c in range(361) if board.stone_at(c) is not None}


def click(driver, cell):
    driver.find_element(By.CSS_SELECTOR, f'#board [data-cell="{cell}"]').click()


def test_play_a_game_by_clicking(driver, tmp_path):
    app = create_app(engine_factory=fixed_engine, analysis_factory=lambda: Engine(depth=1))
    guide, reply_engine = Engine(depth=2), fixed_engine("paper")
    with LiveServer(app) as url:
        driver.get(url + "#play")
        wait_for(driver, lambda: driver.find_element(By.ID, "status").text.startswith("Your move"), "the board")
        driver.find_element(By.CSS_SELECTOR, "#profile option[value=paper]").click()
        driver.find_element(By.CSS_SELECTOR, "#new-game button[type=submit]").click()
        wait_for(driver, lambda: driver.find_element(By.ID, "profile").get_attribute("value") == "paper"
                 and page_moves(driver) == [], "a new game")
        reference = Board()
        while not reference.is_game_over():
            move = guide.search(reference).move
            click(driver, cell_name(move.stones[0]))
            if len(move) == 2:
                wait_for(driver, lambda: marked(driver, "pending") == {cell_name(move.stones[0])},
                         "the pending stone")
                click(driver, cell_name(move.stones[1]))
            reference.push(move)
            if not reference.is_game_over():
                reference.push(reply_engine.search(reference).move)   # what the engine must answer
            want = [str(m) for m in reference.move_stack]
            wait_for(driver, lambda: page_moves(driver) == want, f"the moves {want[-2:]}")
            wait_for(driver, lambda: board_stones(driver) == expected_stones(want), "the stones of the moves")
            assert marked(driver, "last") == {cell_name(c) for c in reference.peek().stones}
        wait_for(driver, lambda: driver.find_element(By.ID, "status").text.startswith("You win"), "the win")
        assert marked(driver, "win") == {cell_name(c) for c in reference.outcome().line}
        # illegal click: a visible message, nothing changes
        click(driver, cell_name(reference.move_stack[0].stones[0]))
        wait_for(driver, lambda: "game is over" in driver.find_element(By.ID, "message").text, "the error")
        assert page_moves(driver) == [str(m) for m in reference.move_stack]
        driver.find_element(By.ID, "export-sgf").click()
        sgf = driver.find_element(By.ID, "export").get_attribute("value")
        assert sgf.startswith("(;FF[4]") and sgf.endswith(f"[{reference.peek()}])")
        shot = tmp_path / "play.png"
        assert driver.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_undo_and_take_back_in_the_browser(driver, tmp_path):
    app = create_app(engine_factory=fixed_engine, analysis_factory=lambda: Engine(depth=1))
    with LiveServer(app) as url:
        driver.get(url + "#play")
        wait_for(driver, lambda: driver.find_element(By.ID, "status").text.startswith("Your move"), "the board")
        click(driver, "j10")
        wait_for(driver, lambda: len(page_moves(driver)) == 2, "the engine's reply")
        free = next(c for c in ("a1", "b2", "c3") if c not in board_stones(driver))
        click(driver, free)
        wait_for(driver, lambda: marked(driver, "pending") == {free}, "the pending stone")
        driver.find_element(By.ID, "takeback").click()
        wait_for(driver, lambda: marked(driver, "pending") == set(), "the take-back")
        driver.find_element(By.ID, "undo").click()
        wait_for(driver, lambda: page_moves(driver) == [] and board_stones(driver) == {}, "the undone turn")


def test_analyse_steps_through_a_record(driver, tmp_path):
    app = create_app(engine_factory=fixed_engine, analysis_factory=lambda: Engine(depth=1))
    with LiveServer(app) as url:
        driver.get(url + "#analyse")
        box = driver.find_element(By.ID, "record-text")
        box.send_keys("j10,k11,i11,h11,i10,k9,k10")
        driver.find_element(By.ID, "load-record").click()
        wait_for(driver, lambda: len(board_stones(driver)) == 7, "the loaded record")
        wait_for(driver, lambda: driver.execute_script("return document.querySelectorAll('#graph polyline').length")
                 == 1 and driver.find_element(By.ID, "a-eval").text.startswith("Evaluation"), "the evaluations")
        slider = driver.find_element(By.ID, "slider")
        slider.click()
        slider.send_keys(Keys.END)
        for want in (5, 3, 1):
            slider.send_keys(Keys.ARROW_LEFT)
            wait_for(driver, lambda: len(board_stones(driver)) == want, f"{want} stones")
        assert driver.find_element(By.ID, "a-status").text.startswith("Position 1 of 4")
        driver.find_element(By.ID, "step-next").click()
        wait_for(driver, lambda: len(board_stones(driver)) == 3, "3 stones")
        box.clear()
        box.send_keys("j10,j10")
        driver.find_element(By.ID, "load-record").click()
        wait_for(driver, lambda: "bad record" in driver.find_element(By.ID, "message").text, "the error")
        assert len(board_stones(driver)) == 3
        assert driver.save_screenshot(str(tmp_path / "analyse.png"))


def _game_record(game, moves, result):
    """A games.jsonl line as ``connect6 match`` writes it (A = paper is black in odd games)."""
    a_black = game % 2 == 1
    winner = None if result == "draw" else "a" if (result == "black") == a_black else "b"
    return {"game": game, "pair": (game + 1) // 2, "a": "paper", "b": "default",
            "black": "paper" if a_black else "default", "white": "default" if a_black else "paper",
            "a_color": "black" if a_black else "white", "opening": "j10", "moves": moves, "result": result,
            "winner": winner, "termination": "six", "reason": f"{result} made six"}


def test_watch_follows_the_results_file(driver, tmp_path):
    out = tmp_path / "match"
    out.mkdir()
    (out / "match.json").write_text(json.dumps({"format": 1, "a": "paper", "b": "default", "games": 4}))
    win = ["j10", "a1a3", "k10l10", "a5a7", "m10n10", "a9a11", "o10"]
    games = out / "games.jsonl"
    games.write_text(json.dumps(_game_record(1, win, "black")) + "\n")
    app = create_app(watch_dir=str(out), engine_factory=fixed_engine)
    with LiveServer(app) as url:
        driver.get(url)
        rows = lambda: driver.execute_script("return document.querySelectorAll('#w-games tbody tr').length")  # noqa: E731
        wait_for(driver, lambda: rows() == 1, "the first game")
        assert "Score of paper vs default: 1 - 0 - 0" in driver.find_element(By.ID, "w-summary").text
        wait_for(driver, lambda: marked(driver, "win") == {"j10", "k10", "l10", "m10", "n10", "o10"}, "the six")
        with open(games, "a") as fh:                 # the match finishes another game
            fh.write(json.dumps(_game_record(2, win, "black")) + "\n")
        wait_for(driver, lambda: rows() == 2, "the second game (polled)")
        wait_for(driver, lambda: "1 - 1 - 0" in driver.find_element(By.ID, "w-summary").text, "the new score")
        assert driver.save_screenshot(str(tmp_path / "watch.png"))


class _EndlessHandle:
    """An ``Engine.analysis`` handle deepening until stopped: depth d proposes a PV of d turns."""

    def __init__(self, board):
        self.board, self.stopped = board, threading.Event()
        empty = [c for c in range(361) if board.stone_at(c) is None and c % 19 > 1]
        self.pv = [Move(empty[2 * k:2 * k + 2]) for k in range(3)]

    def __iter__(self):
        for depth in range(1, 4):
            yield self._result(depth)
        self.stopped.wait(NEVER)

    def _result(self, depth):
        return SearchResult(move=self.pv[0], score=7 * depth, pv=tuple(self.pv[:depth]), depth=depth,
                            nodes=1000 * depth, leaves=depth, time_s=0.1 * depth)

    def stop(self):
        self.stopped.set()

    def wait(self):
        return self._result(3)


class EndlessEngine:
    depth = 1

    def __init__(self):
        self.handles = []

    def analysis(self, board, time=None, depth=None):
        self.handles.append(_EndlessHandle(board))
        return self.handles[-1]

    def new_game(self):
        pass


def test_live_thinking_and_move_now(driver, tmp_path):
    engine = EndlessEngine()
    app = create_app(engine_factory=lambda profile: engine, analysis_factory=lambda: Engine(depth=1))
    with LiveServer(app) as url:
        driver.get(url + "#play")
        wait_for(driver, lambda: driver.find_element(By.ID, "status").text.startswith("Your move"), "the board")
        click(driver, "j10")
        wait_for(driver, lambda: driver.find_element(By.ID, "t-depth").text == "3", "depth 3 of the live search")
        pv = engine.handles[0].pv
        assert driver.find_element(By.ID, "t-pv").text == " ".join(str(m) for m in pv)
        assert driver.find_element(By.ID, "t-score").text == "+21"
        assert "thinking" in driver.find_element(By.ID, "status").text
        faint = driver.execute_script("return document.querySelectorAll('#board .stone.pv').length")
        assert faint == 6                                  # three turns of two stones, drawn faintly
        assert driver.save_screenshot(str(tmp_path / "thinking.png"))
        driver.find_element(By.ID, "move-now").click()
        wait_for(driver, lambda: page_moves(driver) == ["j10", str(pv[0])], "the engine's move")
        assert engine.handles[0].stopped.is_set()
        assert driver.execute_script("return document.querySelectorAll('#board .stone.pv').length") == 0
        assert driver.find_element(By.ID, "move-now").get_attribute("disabled") is not None


def _socket_from_page(driver, ws_url):
    """Open a WebSocket from the current page; its close code, reason and the messages it got."""
    driver.set_script_timeout(WAIT)
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const ws = new WebSocket(arguments[0]);
        let messages = 0;
        ws.onmessage = () => { messages += 1; ws.close(); };   // served: one message is enough
        ws.onclose = (e) => done({code: e.code, reason: e.reason, messages: messages});
    """, ws_url)


def test_a_game_with_the_token_and_a_page_of_another_origin_refused(driver):
    """The board with a token (as with a non-local --host): the printed URL lets the browser in and a
    cookie keeps it in; without the token the page is refused; a page of another origin (another port)
    cannot use the board's WebSocket, although the browser sends the cookie with it."""
    token = "browser-test-token"
    app = create_app(engine_factory=fixed_engine, analysis_factory=lambda: Engine(depth=1),
                     access=AccessPolicy.for_host("127.0.0.1", token=token))
    other = create_app(engine_factory=fixed_engine)
    with LiveServer(app) as url, LiveServer(other) as other_url:
        driver.delete_all_cookies()
        driver.get(url)
        body = driver.find_element(By.TAG_NAME, "body").text
        assert "refused" in body and "needs its token" in body
        driver.get(url + "?token=" + token + "#play")
        wait_for(driver, lambda: driver.find_element(By.ID, "status").text.startswith("Your move"), "the board")
        click(driver, "j10")
        wait_for(driver, lambda: len(page_moves(driver)) == 2, "the engine's reply")
        free = [c for c in ("a1", "b2", "c3") if c not in board_stones(driver)][:2]
        click(driver, free[0])
        wait_for(driver, lambda: marked(driver, "pending") == {free[0]}, "the pending stone")
        click(driver, free[1])
        wait_for(driver, lambda: len(page_moves(driver)) == 4, "the second reply")
        driver.get(url + "#play")                    # the cookie: no token in the URL any more
        wait_for(driver, lambda: driver.find_element(By.ID, "status").text.startswith("Your move"), "the board again")
        board_ws = url.replace("http://", "ws://") + "ws"
        assert _socket_from_page(driver, board_ws)["messages"] >= 1     # the board's own page: served
        driver.get(other_url)
        refused = _socket_from_page(driver, board_ws)
        assert refused["code"] == 1008 and refused["messages"] == 0
        assert refused["reason"].startswith(f"the Origin '{other_url.rstrip('/')}' is not this board's page")


def test_watch_shows_games_in_progress_live(driver, tmp_path):
    out = tmp_path / "match"
    out.mkdir()
    (out / "match.json").write_text(json.dumps({"format": 1, "a": "paper", "b": "default", "games": 4}))
    (out / "games.jsonl").write_text("")
    running = out / "running.json"

    def write_running(*games):
        tmp = out / "running.json.tmp"
        tmp.write_text(json.dumps({"updated": time.time(), "games": list(games)}))
        tmp.replace(running)                         # whole, as the runner writes it

    def status(game, moves, clock):
        return {"game": game, "black": "paper", "white": "default", "turns": len(moves),
                "to_move": "white" if len(moves) % 2 else "black", "clock": clock, "moves": moves}

    write_running(status(1, ["j10", "k11k9"], {"black": 58.5, "white": 57.0}), status(2, ["j10"], None))
    app = create_app(watch_dir=str(out), engine_factory=fixed_engine)
    with LiveServer(app) as url:
        driver.get(url)
        rows = lambda: driver.execute_script("return document.querySelectorAll('#w-running tbody tr').length")  # noqa: E731
        wait_for(driver, lambda: rows() == 2, "the two games in progress")
        wait_for(driver, lambda: board_stones(driver) == expected_stones(["j10", "k11k9"]), "game 1's board")
        game = driver.find_element(By.ID, "w-game").text
        assert "Game 1: paper (black) - default (white), 2 turns, black to move, clocks 58.5 / 57.0" == game
        assert "2 in progress" in driver.find_element(By.ID, "w-dir").text
        write_running(status(1, ["j10", "k11k9", "l10m10"], {"black": 55.25, "white": 57.0}), status(2, ["j10"], None))
        wait_for(driver, lambda: board_stones(driver) == expected_stones(["j10", "k11k9", "l10m10"]), "the new turn")
        wait_for(driver, lambda: "clocks 55.2 / 57.0" in driver.find_element(By.ID, "w-game").text
                 or "clocks 55.3 / 57.0" in driver.find_element(By.ID, "w-game").text, "the new clocks")
        driver.find_element(By.CSS_SELECTOR, '#w-running tr[data-game="2"]').click()
        wait_for(driver, lambda: board_stones(driver) == {"j10": "black"}, "game 2's board")
        assert driver.save_screenshot(str(tmp_path / "watch-running.png"))
        # game 2 ends: it leaves the running table and is listed (and still shown) as finished
        win = ["j10", "a1a3", "k10l10", "a5a7", "m10n10", "a9a11", "o10"]
        record = dict(_game_record(2, win, "black"), black="paper", white="default")
        (out / "games.jsonl").write_text(json.dumps(record) + "\n")
        write_running(status(1, ["j10", "k11k9", "l10m10"], {"black": 55.25, "white": 57.0}))
        wait_for(driver, lambda: rows() == 1, "one game in progress")
        wait_for(driver, lambda: marked(driver, "win") == {"j10", "k10", "l10", "m10", "n10", "o10"}, "game 2's six")
        assert driver.find_element(By.ID, "w-game").text.startswith("Game 2: paper (black) - default (white), black won")
