"""Who may use the web board: Host, Origin and token checks (connect6.web.guard),
through Starlette's test client and through ``connect6 gui``'s options."""
import pytest

pytest.importorskip("starlette", reason="the web board needs the web extra: pip install 'connect6[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from connect6 import Engine  # noqa: E402
from connect6.web.guard import POLICY_VIOLATION, AccessPolicy, is_local_host, parse_host  # noqa: E402
from connect6.web.server import create_app  # noqa: E402

from _web_helpers import Served  # noqa: E402

PORT = 8066


def quick(profile="default"):
    return Engine(depth=1, profile=profile)


def client_for(access=None, host="127.0.0.1", port=PORT):
    app = create_app(engine_factory=quick, analysis_factory=quick, access=access)
    return TestClient(app, base_url=f"http://{host}:{port}")


def ws_url(host="127.0.0.1", port=PORT, query=""):
    return f"ws://{host}:{port}/ws" + query


def refused_ws(client, url, **headers):
    """The close code and reason of a WebSocket the board refuses (it closes before sending a state)."""
    with pytest.raises(WebSocketDisconnect) as info:
        with client.websocket_connect(url, headers=dict(headers)) as ws:
            ws.receive_json()
    return info.value.code, info.value.reason


def accepted_ws(client, url, **headers):
    with client.websocket_connect(url, headers=dict(headers)) as ws:
        return ws.receive_json()


# ---------------------------------------------------------------- Host
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]"])
def test_the_local_names_with_the_port_are_served(host):
    with client_for(host=host) as c:
        assert c.get("/api/info").status_code == 200
        assert c.get("/").status_code == 200
        assert accepted_ws(c, ws_url(host))["type"] == "state"


@pytest.mark.parametrize("host", ["evil.example.com:8066", "evil.example.com", "127.0.0.1:9999", "10.1.2.3:8066",
                                  "localhost.evil.example.com:8066", "", "[::1"])
def test_another_host_header_is_refused_with_a_reason(host):
    with client_for() as c:
        r = c.get("/api/info", headers={"Host": host})
        assert r.status_code == 400 and "application/json" not in r.headers["content-type"]
        assert r.text.startswith("connect6 gui refused this request: ") and "Host" in r.text
        if host.startswith("evil"):
            assert f"'{host}'" in r.text and "--allow-host evil.example.com" in r.text
        assert c.get("/", headers={"Host": host}).status_code == 400
        assert c.get("/static/app.js", headers={"Host": host}).status_code == 400


def test_a_dns_rebinding_websocket_is_refused():
    """A page of evil.example.com resolving to 127.0.0.1: Host and Origin both name the attacker."""
    with client_for(host="evil.example.com") as c:
        code, reason = refused_ws(c, ws_url("evil.example.com"), origin="http://evil.example.com:8066")
    assert code == POLICY_VIOLATION and "Host header 'evil.example.com:8066'" in reason
    assert len(reason.encode()) <= 123


def test_allow_host_serves_another_name():
    access = AccessPolicy.for_host("127.0.0.1", allow_hosts=["board.example.org", "proxy.example.org:443"])
    with client_for(access) as c:
        assert c.get("/api/info", headers={"Host": "board.example.org:8080"}).status_code == 200
        assert c.get("/api/info", headers={"Host": "proxy.example.org:443"}).status_code == 200
        assert c.get("/api/info", headers={"Host": "proxy.example.org:80"}).status_code == 400
        assert c.get("/api/info", headers={"Host": "other.example.org"}).status_code == 400
        assert c.get("/api/info").status_code == 200       # the local names still are
    with client_for(access, host="board.example.org", port=8080) as c:
        assert accepted_ws(c, ws_url("board.example.org", 8080), origin="http://board.example.org:8080")


def test_a_named_host_serves_only_that_name():
    access = AccessPolicy.for_host("192.168.1.20")
    with client_for(access, host="192.168.1.20") as c:
        assert c.get("/api/info").status_code == 200
        assert c.get("/api/info", headers={"Host": "127.0.0.1:8066"}).status_code == 400


# ---------------------------------------------------------------- Origin
def test_a_websocket_from_another_origin_is_refused():
    with client_for() as c:
        for origin in ("http://evil.example.com", "http://127.0.0.1:9999", "https://127.0.0.1:8066", "null",
                       "file://", "http://[::1"):                       # the last used to raise: a 500
            code, reason = refused_ws(c, ws_url(), origin=origin)
            assert code == POLICY_VIOLATION and reason.startswith(f"the Origin '{origin}' is not this board's page")
        # the refused sockets left no session behind
        assert c.app.state.board.sessions == set() and c.app.state.board.sessions_total == 0


def test_a_websocket_from_the_boards_own_page_or_no_browser_is_accepted():
    with client_for() as c:
        assert accepted_ws(c, ws_url(), origin="http://127.0.0.1:8066")["type"] == "state"
        assert accepted_ws(c, ws_url())["type"] == "state"                  # no Origin: not a browser
    with client_for(host="localhost") as c:
        assert accepted_ws(c, ws_url("localhost"), origin="http://LOCALHOST:8066")["type"] == "state"
        code, _ = refused_ws(c, ws_url("localhost"), origin="http://127.0.0.1:8066")   # another origin
        assert code == POLICY_VIOLATION


def test_http_from_another_origin_is_refused():
    with client_for() as c:
        r = c.get("/api/info", headers={"Origin": "http://evil.example.com"})
        assert r.status_code == 403 and "Origin 'http://evil.example.com'" in r.text and "--allow-origin" in r.text
        r = c.get("/api/info", headers={"Origin": "http://[::1"})           # malformed: refused, named
        assert r.status_code == 403 and "Origin 'http://[::1'" in r.text
        assert c.get("/api/info", headers={"Origin": "http://127.0.0.1:8066"}).status_code == 200


def test_no_other_page_may_frame_the_board():
    """Every page and reply says which pages may frame it (clickjacking): the
    board's own, and the --allow-origin ones; it used to say nothing."""
    with client_for() as c:
        r = c.get("/")
        assert r.headers["content-security-policy"] == "frame-ancestors 'self'"
        assert r.headers["x-frame-options"] == "SAMEORIGIN"
    access = AccessPolicy.for_host("127.0.0.1", allow_origins=["https://club.example.org"])
    with client_for(access) as c:
        r = c.get("/api/info")
        assert r.headers["content-security-policy"] == "frame-ancestors 'self' https://club.example.org:443"
        assert "x-frame-options" not in r.headers


def test_allow_origin_lets_another_page_in():
    access = AccessPolicy.for_host("127.0.0.1", allow_origins=["https://club.example.org"])
    with client_for(access) as c:
        assert accepted_ws(c, ws_url(), origin="https://club.example.org:443")["type"] == "state"
        assert c.get("/api/info", headers={"Origin": "https://club.example.org"}).status_code == 200
        assert refused_ws(c, ws_url(), origin="http://club.example.org")[0] == POLICY_VIOLATION
    with pytest.raises(ValueError, match="--allow-origin 'club.example.org'"):
        AccessPolicy.for_host("127.0.0.1", allow_origins=["club.example.org"])


# ---------------------------------------------------------------- token
def test_the_token_is_needed_by_the_page_and_the_websocket():
    access = AccessPolicy.for_host("192.168.1.20", token="s3cret-token")
    with client_for(access, host="192.168.1.20") as c:
        for path in ("/", "/api/info", "/static/app.js", "/?token=wrong", "/api/info?token="):
            r = c.get(path)
            assert r.status_code == 403 and "needs its token" in r.text, path
        assert "no token" in c.get("/").text and "a wrong token" in c.get("/?token=wrong").text
        for query in ("", "?token=wrong"):
            code, reason = refused_ws(c, ws_url("192.168.1.20", query=query), origin="http://192.168.1.20:8066")
            assert code == POLICY_VIOLATION and "needs its token" in reason
        # the printed URL: the page, and a cookie for everything that follows
        r = c.get("/?token=s3cret-token")
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("connect6_token_8066=s3cret-token;") and "HttpOnly" in cookie
        assert "SameSite=Strict" in cookie
        assert c.get("/api/info").status_code == 200                     # the client keeps the cookie
        assert accepted_ws(c, ws_url("192.168.1.20"), origin="http://192.168.1.20:8066")["type"] == "state"
    with client_for(access, host="192.168.1.20") as c:                  # a fresh client: no cookie
        assert accepted_ws(c, ws_url("192.168.1.20", query="?token=s3cret-token"))["type"] == "state"
        assert c.get("/api/info", headers={"Cookie": "connect6_token_8066=nope"}).status_code == 403
        assert c.get("/api/info", headers={"Cookie": "connect6_token_9999=s3cret-token"}).status_code == 403


def test_host_names_are_parsed_and_checked():
    assert parse_host("Board.Example.org:8080") == ("board.example.org", 8080)
    assert parse_host("::1") == ("::1", None)
    assert parse_host("[fe80::1%eth0]:80") == ("fe80::1%eth0", 80) and parse_host("my_box.lan.") == ("my_box.lan", None)
    for bad in ("host:0", "host:99999", "host:x", "[::1]x", ":80", "[example.com]", "a:b:c", "a b", "x/y",
                "user@host", "a..b", "-a.org", "a-.org", "\u00e9t\u00e9.fr", "a" * 64 + ".org", "a." * 127 + "a"):
        with pytest.raises(ValueError):
            parse_host(bad)
    assert is_local_host("127.0.0.1") and is_local_host("::1") and is_local_host("LocalHost")
    assert is_local_host("127.0.0.2") and not is_local_host("0.0.0.0") and not is_local_host("example.com")


# ---------------------------------------------------------------- connect6 gui
def _served(monkeypatch):
    return Served(monkeypatch)


def test_gui_prints_a_token_url_for_a_non_local_host(monkeypatch, capsys):
    from connect6.cli import main
    calls = _served(monkeypatch)
    assert main(["gui", "--host", "192.168.1.20", "--port", "8125"]) == 0
    err = capsys.readouterr().err
    url = next(w for w in err.split() if w.startswith("http://"))
    assert url.startswith("http://192.168.1.20:8125/?token=") and len(url.split("token=")[1]) >= 24
    token = url.split("token=")[1]
    app = calls[-1][0]
    with TestClient(app, base_url="http://192.168.1.20:8125") as c:
        assert c.get("/api/info").status_code == 403
        assert c.get(f"/?token={token}").status_code == 200
    assert main(["gui", "--host", "192.168.1.20", "--port", "8125"]) == 0
    assert token not in capsys.readouterr().err                           # a new token each run


def test_gui_no_token_warns_and_serves_without_one(monkeypatch, capsys):
    from connect6.cli import main
    calls = _served(monkeypatch)
    assert main(["gui", "--host", "192.168.1.20", "--no-token"]) == 0
    err = capsys.readouterr().err
    assert "token=" not in err and "warning: --no-token" in err
    with TestClient(calls[-1][0], base_url="http://192.168.1.20:8066") as c:
        assert c.get("/api/info").status_code == 200
        assert c.get("/api/info", headers={"Host": "evil.example.com"}).status_code == 400


def test_gui_local_host_has_no_token_and_allows_more(monkeypatch, capsys):
    from connect6.cli import main
    calls = _served(monkeypatch)
    assert main(["gui", "--allow-host", "board.example.org", "--allow-origin", "http://board.example.org"]) == 0
    err = capsys.readouterr().err
    assert "http://127.0.0.1:8066/" in err and "token" not in err and "warning" not in err
    with TestClient(calls[-1][0], base_url="http://127.0.0.1:8066") as c:
        assert c.get("/api/info", headers={"Host": "board.example.org"}).status_code == 200
        assert c.get("/api/info", headers={"Origin": "http://board.example.org"}).status_code == 200
        assert c.get("/api/info", headers={"Origin": "http://other.example.org"}).status_code == 403


@pytest.mark.parametrize("argv, words", [
    (["--allow-origin", "board.example.org"], "--allow-origin 'board.example.org'"),
    (["--allow-host", "host:99999"], "port must be 1..65535"),
    (["--allow-host", "evil.com/x"], "--allow-host: bad host 'evil.com/x'"),
    (["--allow-host", "a b"], "--allow-host: bad host 'a b'"),
    (["--allow-host", "[board.example.org]"], "is not an IPv6 address"),
    (["--max-searches", "0"], "--max-searches must be a whole number >= 1"),
    (["--max-sessions", "-1"], "--max-sessions"),
    (["--max-time", "0"], "--max-time must be seconds > 0"),
    (["--idle", "nan"], "--idle"),
])
def test_gui_option_errors(monkeypatch, capsys, argv, words):
    from connect6.cli import main
    calls = _served(monkeypatch)
    assert main(["gui"] + argv) == 2
    assert words in capsys.readouterr().err and len(calls) == 0


def test_gui_passes_its_limits_to_the_board(monkeypatch, capsys):
    from connect6.cli import main
    calls = _served(monkeypatch)
    assert main(["gui", "--max-searches", "3", "--max-sessions", "7", "--max-time", "12.5", "--idle", "30"]) == 0
    with TestClient(calls[-1][0], base_url="http://127.0.0.1:8066") as c:
        info = c.get("/api/info").json()
    assert info["limits"] == {"max_searches": 3, "max_sessions": 7, "max_time": 12.5, "idle": 30.0}
    assert info["load"]["searches"]["limit"] == 3 and info["load"]["sessions"] == 0
