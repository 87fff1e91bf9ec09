"""Game records: Little Golem stone lists, Little Golem SGF and replaying them.

Two text forms of a game are read and written here:

* the **stone list** of the human-games archive, ``"j10,k11,i11,h11,i10"``:
  Black's single first stone, then the stones two by two, one pair per turn;
* the **Little Golem SGF** dialect,
  ``(;FF[4]EV[...]PB[...]PW[...];B[j10];W[k11i11];B[h11i10])``: a root node of
  headers, then one node per turn with both stones of a turn in one value.

Both readers check the *structure* of a record (Black's first turn is one
stone, every later turn two, colours alternate) and build their whole result
before returning: a broken record raises :class:`RecordError` and nothing is
returned.  Whether the moves are *legal* on a board (no stone on an occupied
cell, nothing after the game is won) is checked by :func:`replay`.

Bad content, whatever its bytes, raises only :class:`RecordError`, naming
where (file, line, column, game, move) and why.  Input is checked as it is
read and the first error stops the reading.  Limits: one game (an SGF text or
a stone list, a CSV line) is at most :data:`MAX_GAME_CHARS` = 1 MB and a
bigger one is refused without being read whole; :func:`read_games_csv`
reads at most :data:`MAX_CSV_CHARS` (50 MB) into a list, and
:func:`iter_games_csv` streams a file of any size.

A game ends as soon as a side has six in a row, so a record may end on a
**single stone** where two were due: the winner's six was made by the first
stone of the last turn and the second stone was never played.  About 2% of the
human-games archive ends that way.  Both readers and both writers accept such
a short *last* turn (and only the last).

>>> moves = parse_stone_list("j10,k11,i11,h11,i10")
>>> [str(m) for m in moves]
['j10', 'k11i11', 'h11i10']
>>> format_stone_list(moves)
'j10,k11,i11,h11,i10'
>>> text = write_sgf(moves, {"PB": "alice", "PW": "bob"})
>>> text
'(;FF[4]PB[alice]PW[bob];B[j10];W[k11i11];B[h11i10])'
>>> read_sgf(text) == ({"FF": "4", "PB": "alice", "PW": "bob"}, moves)
True
>>> replay(moves).turn
<Color.WHITE: 1>
"""
from connect6.records.archive import (
    MAX_CSV_CHARS, MAX_LINE_CHARS, GameRecord, iter_games_csv, read_games_csv,
)
from connect6.records.core import (
    MAX_GAME_CHARS, RecordError, format_stone_list, parse_stone_list, replay,
)
from connect6.records.openings import load_openings, random_openings
from connect6.records.sgf import read_sgf, read_sgf_file, write_sgf
from connect6.records.text import read_game_text

RecordError.__module__ = __name__        # the public name, in tracebacks and doctests

__all__ = [
    "RecordError", "GameRecord", "parse_stone_list", "format_stone_list", "read_sgf", "write_sgf",
    "replay", "read_games_csv", "iter_games_csv", "read_sgf_file", "MAX_GAME_CHARS", "MAX_LINE_CHARS",
    "MAX_CSV_CHARS", "load_openings", "random_openings", "read_game_text",
]
