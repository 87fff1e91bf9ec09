"""``python -m connect6.protocol COMMAND...``: ask an engine its name and first move (a debugging aid)."""
import sys
from typing import Optional, Sequence

from connect6.board import Board
from connect6.protocol.client import ProtocolEngine


def main(argv: Optional[Sequence[str]] = None) -> int:  # pragma: no cover - a debugging aid
    argv = list(sys.argv[1:] if argv is None else argv)
    with ProtocolEngine.popen(argv) as engine:
        print(engine.name)
        print(engine.play(Board(), time_limit=10))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
