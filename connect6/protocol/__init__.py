"""The Connect6 engine protocol of Cloudict and the ConnectMore GUI, in three rooms:

* :mod:`connect6.protocol.wire`: how stones, turns and answers are written
  (shared by both sides, so they cannot drift apart);
* :mod:`connect6.protocol.client`: driving an external engine
  (:class:`ProtocolEngine`, re-exported here with its errors);
* :mod:`connect6.protocol.server`: ``connect6 engine``, this engine behind the protocol.
"""
from connect6.protocol.client import (
    MOVE_REPLY_RE, EngineError, EngineProtocolError, EngineTerminated, EngineTimeout, ProtocolEngine,
    parse_protocol_move,
)

__all__ = [
    "EngineError", "EngineTimeout", "EngineTerminated", "EngineProtocolError", "ProtocolEngine",
    "MOVE_REPLY_RE", "parse_protocol_move",
]
