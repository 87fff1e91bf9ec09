"""The compiled Cython core of the connect6 package.

Modules: ``geometry`` (the 924 roads), ``bitboard``, ``roads`` (road table and
evaluation), ``position`` (board state), ``movegen`` (candidates and move
pairs), ``tt`` (transposition table), ``threats`` (threat counting and
threat-space search) and ``search`` (alpha-beta).  Use it through the
``connect6`` package.
"""
