"""The web board's server through Starlette's test client: HTTP, and one
WebSocket per tab playing, undoing, analysing and rejecting bad messages."""
import json
import threading

import pytest

pytest.importorskip("starlette", reason="the web board needs the web extra: pip install 'connect6[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
from starlette.testclient import TestClient  # noqa: E402

import connect6  # noqa: E402
from connect6 import BLACK, Board, Engine, Move, SearchResult, cell_name  # noqa: E402
from connect6.records import parse_stone_list, read_sgf, replay  # noqa: E402
from connect6.web.limits import Limits  # noqa: E402
from _web_helpers import Served, Tab  # noqa: E402
from connect6.web.server import create_app  # noqa: E402
from _fuzz import fuzz_examples  # noqa: E402


#: the address the test client asks for: one the board serves by default (127.0.0.1 and its port)
LOCAL = "http://127.0.0.1:8066"
WS = "ws://127.0.0.1:8066/ws"


def fixed_engine(profile):
    """The tab's opponent in tests: fixed depth 1, quick and reproducible."""
    return Engine(depth=1, profile=profile)


def quick_analysis():
    return Engine(depth=1)


@pytest.fixture
def client():
    app = create_app(engine_factory=fixed_engine, analysis_factory=quick_analysis)
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def board_of(state):
    return replay(state["moves"])


# ---------------------------------------------------------------- HTTP
def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for name in ("app.js", "app.css"):
        assert f"/static/{name}" in page.text
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 500
    assert "http://" not in page.text and "https://" not in page.text   # no CDN: works offline


def test_info_and_watch_without_a_directory(client):
    info = client.get("/api/info").json()
    assert info["profiles"] == list(connect6.options.PROFILES) and info["watch"] is False
    r = client.get("/api/watch")
    assert r.status_code == 404 and "--watch" in r.json()["error"]


# ---------------------------------------------------------------- play
def test_first_state_is_an_empty_board(client):
    with client.websocket_connect(WS) as ws:
        s = Tab(ws).state
    assert s["moves"] == [] and s["turn"] == "black" and s["to_place"] == 1 and s["human"] == "black"
    assert s["pending"] is None and s["outcome"] is None and s["thinking"] is False
    assert s["sgf"].startswith("(;FF[4]") and s["stone_list"] == ""


def test_a_full_game_against_the_fixed_depth_engine(client):
    """The person (guided by a depth-2 engine, clicking one cell at a time) beats depth 1."""
    guide = Engine(depth=2)
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        s = tab.do(type="new", color="black", profile="paper", time=None)
        reference = Board()
        while s["outcome"] is None:
            assert s["turn"] == "black" and not s["thinking"]
            move = guide.search(board_of(s)).move
            first = tab.do(type="click", cell=cell_name(move.stones[0]))
            if len(move) == 2:
                assert first["pending"] == cell_name(move.stones[0]) and first["moves"] == s["moves"]
                s = tab.do(type="click", cell=cell_name(move.stones[1]))
            else:
                s = first
            reference.push(move)
            if s["outcome"] is None:   # the engine replied with its own search's move
                reply = Move.parse(s["moves"][-1])
                assert reply == fixed_engine("paper").search(reference).move
                assert s["last"] == [cell_name(c) for c in reply.stones]
                assert s["info"]["depth"] == 1 and s["info"]["pv"][0] == str(reply)
                reference.push(reply)
            assert s["moves"] == [str(m) for m in reference.move_stack]
    out = reference.outcome()
    assert s["outcome"] == {"result": "black", "termination": "six", "line": [cell_name(c) for c in out.line]}
    assert len(s["outcome"]["line"]) >= 6
    assert read_sgf(s["sgf"])[1] == reference.move_stack
    assert parse_stone_list(s["stone_list"]) == reference.move_stack


def test_the_engine_wins_against_scattered_stones(client):
    scattered = [r * 19 + c for r in (0, 2, 16, 18) for c in range(0, 19, 2)]
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        s = tab.do(type="new", color="white", profile="default", time=None)
        assert s["moves"] and s["turn"] == "white"     # the engine opened
        while s["outcome"] is None:
            free = [c for c in scattered if board_of(s).stone_at(c) is None][:2]
            s = tab.play(str(Move(free)))
        assert s["outcome"]["result"] == "black"
        assert tab.error(type="click", cell="a2").startswith("click a2: the game is over")


def test_pending_stone_and_takeback(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.play("j10")
        s = tab.do(type="click", cell="k11")
        assert s["pending"] == "k11" and len(s["moves"]) == 2 and s["turn"] == "black"
        s = tab.do(type="click", cell="k11")             # clicking it again takes it back
        assert s["pending"] is None and len(s["moves"]) == 2
        tab.do(type="click", cell="k12")
        s = tab.do(type="takeback")
        assert s["pending"] is None
        assert tab.error(type="takeback") == "takeback: there is no pending stone to take back"
        before = tab.do(type="click", cell="a1")
        assert "occupied" in tab.error(type="click", cell="j10")
        assert tab.do(type="state") == before             # the rejected click changed nothing
        s = tab.do(type="click", cell="s19")
        assert s["moves"][2] == "a1s19" and len(s["moves"]) == 4


def test_one_stone_that_makes_six_ends_the_game(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        s = tab.do(type="new", color="black", position="j10,a1,a3,k10,l10,a5,a7,m10,n10,a9,a11")
        assert s["turn"] == "black" and s["outcome"] is None
        s = tab.do(type="click", cell="o10")
        assert s["moves"][-1] == "o10" and s["pending"] is None
        assert s["outcome"] == {"result": "black", "termination": "six",
                                "line": ["j10", "k10", "l10", "m10", "n10", "o10"]}


def test_undo_takes_back_a_whole_turn(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        assert tab.error(type="undo") == "undo: you have not moved yet"
        s = tab.play("j10")
        assert len(s["moves"]) == 2
        s = tab.play("k12l12")
        assert len(s["moves"]) == 4
        s = tab.do(type="undo")
        assert s["moves"] == s["moves"][:2] and len(s["moves"]) == 2 and s["turn"] == "black"
        tab.do(type="click", cell="a1")
        s = tab.do(type="undo")                            # a pending stone goes first
        assert s["pending"] is None and len(s["moves"]) == 2
        s = tab.do(type="undo")
        assert s["moves"] == [] and s["info"] is None
        # as white the engine's opening stays: nothing of yours to undo
        s = tab.do(type="new", color="white")
        assert len(s["moves"]) == 1
        assert tab.error(type="undo") == "undo: you have not moved yet"


def test_undo_after_the_engine_won(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        # black (the engine) has five in a row and white's stones are far away
        s = tab.do(type="new", color="white", position="j10,a1,a3,k10,l10,a5,a7,m10,n10")
        assert s["outcome"] is None and s["turn"] == "white"
        s = tab.play("a9a11")
        assert s["outcome"]["result"] == "black"
        s = tab.do(type="undo")
        assert s["outcome"] is None and s["turn"] == "white" and len(s["moves"]) == 5


def test_new_game_settings_are_checked_before_anything_changes(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        before = tab.play("j10")
        for bad, words in [({"color": "red"}, "color"), ({"profile": "nope"}, "unknown profile"),
                           ({"time": 0}, "time"), ({"time": "1"}, "time"), ({"time": True}, "time"),
                           ({"time": 1e9}, "time"), ({"position": 5}, "position"),
                           ({"position": "j10,j10"}, "bad record"), ({"position": "(;B[j10])"}, "stone list")]:
            assert words in tab.error(type="new", **bad)
            assert tab.do(type="state") == before
        s = tab.do(type="new", color="black", profile="plain", time=0.5)
        assert s["moves"] == [] and s["profile"] == "plain" and s["time"] == 0.5


# ---------------------------------------------------------------- analyse
def _eval_messages(tab, record_id, count):
    evals = {}
    while len(evals) < count:
        msg = tab.receive("eval")
        assert msg["id"] == record_id
        evals[msg["index"]] = msg
    return [evals[i] for i in range(count)]


def test_analyse_a_stone_list_and_an_sgf(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.send(type="analyse", text="j10, k11,i11,h11,i10")
        rec = tab.receive("record")
        assert rec["moves"] == ["j10", "k11i11", "h11i10"] and rec["outcome"] is None
        assert rec["stone_list"] == "j10,k11,i11,h11,i10"
        evals = _eval_messages(tab, rec["id"], 4)
        board = Board()
        for i, e in enumerate(evals):   # each eval is the analysis engine's search, seen from black
            r = quick_analysis().search(board)
            assert e["score"] == (r.score if board.turn == BLACK else -r.score) and e["best"] == str(r.move)
            if i < 3:
                board.push(rec["moves"][i])
        sgf = "(;FF[4]PB[x]PW[y];B[j10];W[a1a3];B[k10l10];W[a5a7];B[m10n10];W[a9a11];B[o10])"
        tab.send(type="analyse", text=sgf)
        rec2 = tab.receive("record")
        assert rec2["id"] == rec["id"] + 1 and rec2["headers"] == {"FF": "4", "PB": "x", "PW": "y"}
        assert rec2["outcome"]["result"] == "black" and len(rec2["outcome"]["line"]) == 6
        evals = _eval_messages(tab, rec2["id"], 8)
        assert evals[-1]["score"] == connect6.engine.WIN_SCORE and evals[-1]["text"] == "black has won"
        assert evals[-1]["best"] is None


def test_a_broken_record_is_an_error_naming_the_problem(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        assert "move 2" in tab.error(type="analyse", text="j10,k11,j10")
        assert "bad record" in tab.error(type="analyse", text="(;FF[4];B[j10];B[k10l10])")
        assert "z99" in tab.error(type="analyse", text="j10,z99")
        assert "text" in tab.error(type="analyse")


# ---------------------------------------------------------------- bad messages
BAD = [
    ("not json", "not a JSON message"),
    ("[1, 2]", "JSON object"),
    ('"click"', "JSON object"),
    ("{}", "unknown message type"),
    ('{"type": "fly"}', "unknown message type"),
    ('{"type": 3}', "unknown message type"),
    ('{"type": "click"}', "missing"),
    ('{"type": "click", "cell": 7}', "cell must be"),
    ('{"type": "click", "cell": "t1"}', "t1"),
    ('{"type": "click", "cell": "j20"}', "j20"),
    ('{"type": "click", "cell": ""}', "click"),
    ('{"type": "move_now"}', "not thinking"),
    ('{"type": "new", "time": NaN}', "time"),
    ('{"type": "new", "time": -Infinity}', "time"),
    ('{"type": "new", "time": ' + "9" * 400 + '}', "time must be seconds"),     # used to close the tab
    ("[" * 100000, "not a JSON message"),
]


def test_bad_messages_get_an_error_and_change_nothing(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        before = tab.play("j10")
        for text, words in BAD:
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] == "error" and words in reply["message"], (text, reply)
            assert tab.do(type="state") == before
        ws.send_bytes(b"\x00\x01")
        assert "binary" in ws.receive_json()["message"]
        assert len(tab.play("k12l12")["moves"]) == 4        # the tab still works


def test_fuzzed_messages_never_kill_the_server(client):
    from hypothesis import HealthCheck, example, given, settings
    from hypothesis import strategies as st

    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=8)
    types = st.sampled_from(["click", "new", "undo", "takeback", "move_now", "analyse", "state", "x"])
    # messages with a known type and fields that are wrong in kind or value
    shaped = st.fixed_dictionaries({"type": types}, optional={
        "cell": json_values | st.sampled_from(["j10", "t5", "a0", "J10 ", "k11k12"]),
        "color": json_values, "profile": json_values, "time": json_values,
        "position": json_values, "text": json_values}).map(json.dumps)
    messages = shaped | json_values.map(json.dumps) | st.text(max_size=30)

    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.play("j10")

        @settings(max_examples=fuzz_examples(300), suppress_health_check=list(HealthCheck))
        @given(messages)
        @example('{"type": "analyse", "text": "", "time": [{}]}')    # well-formed: answered by a record
        def check(text):
            before = tab.do(type="state")
            ws.send_text(text)
            reply = ws.receive_json()
            while reply["type"] in ("eval", "info"):   # late: an earlier analysis, the engine thinking
                reply = ws.receive_json()
            assert reply["type"] in ("error", "state", "record"), reply
            if reply["type"] == "error":
                assert isinstance(reply["message"], str) and reply["message"]
                assert tab.do(type="state") == before
            elif reply["type"] == "record":              # a well-formed analyse: the game is untouched
                assert tab.do(type="state") == before
            else:
                tab.state = reply
                tab.settled()

        check()
        s = tab.do(type="new", color="black", position=None)
        assert tab.play("j10")["moves"][0] == "j10"


# ---------------------------------------------------------------- stoppable searches
#: the longest a stand-in search waits to be stopped: only a broken test gets there
NEVER = 600


class _Handle:
    """An ``Engine.analysis`` handle for a search that reports depths 1..3, then
    thinks until stopped (however slow the machine, it never ends by itself)."""

    def __init__(self, board, stopped_flags):
        self.board = board
        self.stop_event = threading.Event()
        stopped_flags.append(self.stop_event)

    def __iter__(self):
        for depth in range(1, 4):
            if self.stop_event.is_set():
                return
            yield self._result(depth)
        self.stop_event.wait(NEVER)

    def _result(self, depth):
        cells = [c for c in range(361) if self.board.stone_at(c) is None][:self.board.stones_to_place]
        m = Move(cells)
        return SearchResult(move=m, score=10 * depth, pv=(m,), depth=depth, nodes=100 * depth, leaves=depth,
                            time_s=0.01 * depth)

    def stop(self):
        self.stop_event.set()

    def wait(self):
        return self._result(1)


class EndlessEngine:
    """Thinks until told to stop, through the streaming API."""

    def __init__(self):
        self.handles = []

    def analysis(self, board, time=None, depth=None):
        return _Handle(board, self.handles)

    def new_game(self):
        pass


def test_move_now_stops_the_search_and_plays(client):
    engine = EndlessEngine()
    app = create_app(engine_factory=lambda profile: engine, analysis_factory=quick_analysis)
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.send(type="new", color="white")
        s = tab.receive("state")
        assert s["thinking"] and s["can_stop"] and s["moves"] == []
        info = tab.receive("info")
        assert info["depth"] == 1 and info["pv"] == ["a1"] and info["score_text"] == "+10"
        msg = tab.error(type="click", cell="j10")
        assert "engine is thinking" in msg
        tab.send(type="move_now")
        s = tab.receive("state")
        while s["thinking"]:
            s = tab.receive("state")
        assert s["moves"] == ["a1"] and s["turn"] == "white" and engine.handles[0].is_set()
        assert len(engine.handles) == 1                   # one search per game


def test_a_closed_tab_stops_its_search(client):
    engine = EndlessEngine()
    app = create_app(engine_factory=lambda profile: engine, analysis_factory=quick_analysis)
    with TestClient(app, base_url=LOCAL) as c:
        with c.websocket_connect(WS) as ws:
            tab = Tab(ws)
            tab.send(type="new", color="white")
            tab.receive("info")
            assert not engine.handles[0].is_set()
        assert engine.handles[0].wait(NEVER)             # set by the closed tab (the wait ends at once then)


def test_undo_and_new_game_stop_a_running_search(client):
    engine = EndlessEngine()
    app = create_app(engine_factory=lambda profile: engine, analysis_factory=quick_analysis)
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.send(type="click", cell="j10")
        assert tab.receive("state")["thinking"]
        tab.receive("info")
        tab.send(type="undo")
        s = tab.receive("state")
        assert s["moves"] == [] and not s["thinking"] and engine.handles[0].is_set()
        tab.send(type="new", color="white")
        assert tab.receive("state")["thinking"]
        tab.receive("info")      # the search has its handle now (it starts in a thread: under load, later)
        tab.send(type="new", color="black")
        s = tab.receive("state")
        assert not s["thinking"] and s["moves"] == [] and engine.handles[1].is_set()


def test_move_now_with_the_real_engine():
    """A search given ten minutes stops on "move now" and plays its best move so far."""
    app = create_app(engine_factory=lambda profile: Engine(profile=profile), analysis_factory=quick_analysis,
                     limits=Limits(max_time=600))
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.play("j10")            # a fixed-depth reply first (time per move 1 s)
        tab.send(type="new", color="white", profile="plain", time=600, position="j10,k11,k12")
        assert tab.receive("state")["thinking"]
        info = tab.receive("info")
        assert info["depth"] >= 1 and info["pv"] and isinstance(info["score_text"], str)
        tab.send(type="move_now")
        s = tab.receive("state")
        while s["thinking"]:
            s = tab.receive("state")
        assert s["info"]["time_s"] < 600          # stopped, not the ten minutes (a stopped search reports it)
        assert len(s["moves"]) == 3 and s["turn"] == "white" and s["info"]["pv"][0] == s["moves"][-1]


# ---------------------------------------------------------------- connect6 gui
def test_gui_serves_on_localhost_and_warns_for_other_hosts(monkeypatch, capsys):
    from connect6.cli import main
    calls = Served(monkeypatch)
    assert main(["gui", "--port", "8123"]) == 0
    err = capsys.readouterr().err
    assert calls[-1][1:] == ("127.0.0.1", 8123)
    assert "http://127.0.0.1:8123/" in err and "warning" not in err
    assert main(["gui", "--host", "0.0.0.0", "--port", "8124"]) == 0
    err = capsys.readouterr().err
    assert calls[-1][1:] == ("0.0.0.0", 8124) and "warning: listening on 0.0.0.0" in err


def test_gui_says_when_it_cannot_listen_before_printing_a_url(monkeypatch, capsys):
    import socket

    from connect6.cli import main
    calls = Served(monkeypatch, bind=True)
    with socket.socket() as taken:          # a port in use: bound and listening for the whole test
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["gui", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "http://" not in err and len(calls) == 0
    assert main(["gui", "--host", "no-such-host.invalid", "--port", "8125"]) == 2
    err = capsys.readouterr().err
    assert "cannot listen on no-such-host.invalid:8125" in err and "http://" not in err and len(calls) == 0


def test_gui_argument_errors(tmp_path, capsys):
    from connect6.cli import main
    assert main(["gui", "--port", "70000"]) == 2
    assert "--port must be 1..65535" in capsys.readouterr().err
    assert main(["gui", "--port", "0"]) == 2          # it printed http://127.0.0.1:0/
    assert "--port must be 1..65535, not 0" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["gui", "--watch", str(tmp_path / "file")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_gui_can_wait_for_a_match_directory(tmp_path, monkeypatch, capsys):
    from connect6.cli import main
    Served(monkeypatch)
    assert main(["gui", "--watch", str(tmp_path / "later")]) == 0
    assert "does not exist yet" in capsys.readouterr().err
    app = create_app(watch_dir=str(tmp_path / "later"))
    with TestClient(app, base_url=LOCAL) as c:
        assert c.get("/api/info").json()["watch"] is True
        snap = c.get("/api/watch").json()
        assert snap["exists"] is False and snap["games"] == []
        (tmp_path / "later").mkdir()
        (tmp_path / "later" / "games.jsonl").write_text(json.dumps({
            "game": 1, "pair": 1, "black": "x", "white": "y", "a_color": "black", "moves": ["j10"],
            "result": "draw", "winner": None, "termination": "board_full"}) + "\n")
        snap = c.get("/api/watch").json()
        assert snap["exists"] is True and [g["game"] for g in snap["games"]] == [1]
        assert snap["summary"].startswith("Score of x vs y: 0 - 0 - 1")


def test_names_that_are_not_utf8_reach_the_page_as_escapes(tmp_path, client):
    """A lone surrogate (the bytes of a cmd: engine's path that are not UTF-8 in its
    label, or a header of a pasted record) could not be encoded: /api/watch
    answered 500 on every poll, and a tab's record reply was lost with the tab.
    The page now gets JSON in ASCII, the surrogate as an escape."""
    label = "cmd:/opt/engine-\udcff"
    (tmp_path / "match.json").write_text(json.dumps({"a": label, "b": "paper", "games": 2}))
    (tmp_path / "games.jsonl").write_text(json.dumps({
        "game": 1, "pair": 1, "black": label, "white": "paper", "a_color": "black", "moves": ["j10"],
        "result": "draw", "winner": None, "termination": "board_full"}) + "\n")
    with TestClient(create_app(watch_dir=str(tmp_path)), base_url=LOCAL) as c:
        r = c.get("/api/watch")
        assert r.status_code == 200 and r.json()["games"][0]["black"] == label
    with client.websocket_connect(WS) as ws:
        ws.receive_text()                                              # the state
        ws.send_text(json.dumps({"type": "analyse", "text": "(;PB[\ud800];B[j10])"}))
        raw = ws.receive_text()
        raw.encode("utf-8")                                           # what a real server must send
        assert json.loads(raw)["headers"] == {"PB": "\ud800"}


def test_a_stone_list_on_several_lines_is_read_whole(client):
    """The web board read the first line of a stone list and dropped the rest
    without a word (a game pasted wrapped over two lines); it now reads a
    stone list as `connect6 analyze` does."""
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        tab.send(type="analyse", text="j10,k11,i11,h11,i10\n,k9,k10,  # a comment\nl11,l12")
        assert tab.receive("record")["moves"] == ["j10", "k11i11", "h11i10", "k9k10", "l11l12"]


def test_gui_without_the_web_extra_says_how_to_install(monkeypatch, capsys):
    import sys

    from connect6.cli import main
    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.delitem(sys.modules, "connect6.web.server")
    assert main(["gui"]) == 2
    err = capsys.readouterr().err
    assert "needs starlette" in err and 'pip install "connect6[web]"' in err


def test_a_closed_tab_stops_the_real_engine():
    engines = []

    def factory(profile):
        engines.append(Engine(profile=profile))
        return engines[-1]

    app = create_app(engine_factory=factory, analysis_factory=quick_analysis, limits=Limits(max_time=600))
    with TestClient(app, base_url=LOCAL) as c:
        with c.websocket_connect(WS) as ws:
            tab = Tab(ws)
            tab.send(type="new", color="white", profile="plain", time=600)
            tab.receive("info")                            # the ten-minute search is running
        # the engine takes one search at a time: a new one can only run once the old has stopped
        done = []
        worker = threading.Thread(target=lambda: done.append(engines[-1].search(Board("j10"), depth=1)))
        worker.start()
        worker.join(120)
        assert done and done[0].depth == 1


# ---------------------------------------------------------------- refuted
class RefutedEngine:
    """A stand-in whose every move the reply check refuted (SearchResult.refuted)."""

    depth = 1

    def search(self, board, time=None, depth=None):
        import dataclasses
        return dataclasses.replace(Engine(depth=1).search(board), refuted=True)

    def new_game(self):
        pass


def test_a_refuted_engine_move_is_shown_in_play_and_analyse():
    app = create_app(engine_factory=lambda profile: RefutedEngine(), analysis_factory=RefutedEngine)
    with TestClient(app, base_url=LOCAL) as c, c.websocket_connect(WS) as ws:
        tab = Tab(ws)
        assert tab.state["refuted"] is False
        s = tab.play("j10")
        assert len(s["moves"]) == 2 and s["refuted"] is True
        s = tab.do(type="undo")
        assert s["refuted"] is False and s["info"] is None
        tab.send(type="analyse", text="j10,k11,i11")
        rec = tab.receive("record")
        evals = _eval_messages(tab, rec["id"], 3)
        assert [e["refuted"] for e in evals] == [True, True, True]
        tab.send(type="analyse", text="j10,a1,a3,k10,l10,a5,a7,m10,n10,a9,a11,o10")   # ends with six
        rec = tab.receive("record")
        assert _eval_messages(tab, rec["id"], 8)[-1]["refuted"] is False           # no move: nothing refuted


def test_the_real_engine_reports_refuted_too(client):
    with client.websocket_connect(WS) as ws:
        tab = Tab(ws)
        s = tab.play("j10")
        assert s["refuted"] is False                      # a quiet opening: nothing to refute
        tab.send(type="analyse", text="j10")
        rec = tab.receive("record")
        assert all(e["refuted"] is False for e in _eval_messages(tab, rec["id"], 2))
