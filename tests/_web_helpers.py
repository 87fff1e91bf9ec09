"""Shared by the web board's tests: a test-client WebSocket tab that waits on messages, never on time."""
from connect6 import Move
from connect6.notation import cell_name


class Tab:
    """A WebSocket of the test client: remembers every message (``seen``) and
    the engine's info lines (``infos``); helpers wait for the state."""

    def __init__(self, ws):
        self.ws, self.seen, self.infos = ws, [], []
        self.state = self.receive("state")

    def _next(self):
        msg = self.ws.receive_json()
        self.seen.append(msg)
        if msg["type"] == "info":
            self.infos.append(msg)
        return msg

    def receive(self, kind=None):
        """The next message of ``kind`` (any kind: None); an error on the way fails the test."""
        while True:
            msg = self._next()
            if kind is None or msg["type"] == kind:
                return msg
            assert msg["type"] != "error", msg

    def receive_both(self, first, second):
        """The next message of each of two kinds, which may come in either order."""
        got = {}
        while len(got) < 2:
            msg = self._next()
            assert msg["type"] != "error", msg
            if msg["type"] in (first, second):
                got.setdefault(msg["type"], msg)
        return got[first], got[second]

    def saw(self, kind):
        return [m for m in self.seen if m["type"] == kind]

    def send(self, **msg):
        self.ws.send_json(msg)

    def settled(self):
        """The state once the engine has stopped thinking."""
        while self.state["thinking"]:
            self.state = self.receive("state")
        return self.state

    def do(self, **msg):
        """Send a message and return the settled state it leads to."""
        self.send(**msg)
        self.state = self.receive("state")
        return self.settled()

    def error(self, **msg):
        """Send a message that must be rejected; return the error text."""
        self.send(**msg)
        reply = self._next()
        while reply["type"] == "info":          # the engine thinking meanwhile
            reply = self._next()
        assert reply["type"] == "error", reply
        return reply["message"]

    def play(self, move):
        for c in Move.parse(move).stones:
            s = self.do(type="click", cell=cell_name(c))
        return s


class Served:
    """What ``connect6 gui`` would serve, with nothing run: each call records
    ``(app, host, port)``.  Nothing is bound either, unless ``bind`` (then the
    real socket is bound and closed, as serving would)."""

    def __init__(self, monkeypatch, bind=False):
        import socket

        import uvicorn

        import connect6.web.server as server
        self.calls = []

        def fake_run(uv_server, sockets=None):
            assert sockets and sockets[0].fileno() >= 0
            self.calls.append((uv_server.config.app, uv_server.config.host, uv_server.config.port))

        if not bind:
            monkeypatch.setattr(server, "_listen", lambda host, port: socket.socket())
        monkeypatch.setattr(uvicorn.Server, "run", fake_run)

    def __len__(self):
        return len(self.calls)

    def __getitem__(self, i):
        return self.calls[i]
