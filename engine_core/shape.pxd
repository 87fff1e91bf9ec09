# cython: language_level=3
"""Shape terms of the leaf evaluation (options ``shape2``, ``shape3``, ``cross_f``, ``cross_g``,
``cross_three``).

The road evaluation counts roads, so one line holding three overlapping live
3-roads is worth as much as three lines holding one each, although one stone
stops the first and the second needs two stones where lines cross, else three.  A *three-line* of a colour is a
line (a row, a column or a diagonal) holding at least one live road with
exactly three of its stones: one more stone there makes a threat.  With two
lines the side can make a double threat in one turn; with three or more the
opponent's two stones of one turn stop every line only where lines cross.

A *cross cell* of a colour is an empty cell that live roads of that colour
holding two or three of its stones reach from two or more directions: a stone
there adds to two lines at once, the set-up of a double threat.  The road
evaluation is a sum over roads and does not see where they meet.
"""
from engine_core.position cimport position_t
from engine_core.roads cimport rt_live_roads
from engine_core.types cimport score_t

cdef int three_lines(const position_t* p, int color) noexcept nogil
cdef int cross_cells(const position_t* p, int color, bint three) noexcept nogil


cdef inline score_t cross_term(const position_t* p, int side, score_t own, score_t other, bint three) noexcept nogil:
    """``own`` for each cross cell of ``side`` less ``other`` for each of its
    opponent's (options ``cross_f``, ``cross_g``, ``cross_three``; two tests when both are off)."""
    cdef score_t v = 0
    if own != 0:
        v = own * cross_cells(p, side, three)
    if other != 0:
        v -= other * cross_cells(p, 1 - side, three)
    return v


cdef inline score_t shape_bonus(const position_t* p, int color, score_t two, score_t three) noexcept nogil:
    """``three`` if ``color`` has three or more three-lines, ``two`` if it has two, else 0.
    Inline: every leaf calls it, and with both terms off (every profile) it costs one test."""
    cdef int n
    if (two == 0 and three == 0) or rt_live_roads(&p.rt, color, 3) < 2:
        return 0                    # fewer than two live 3-roads: at most one line
    n = three_lines(p, color)
    if n >= 3:
        return three
    return two if n == 2 else 0


cdef inline score_t initiative_term(const position_t* p, int mover, int h, score_t w) noexcept nogil:
    """Option ``initiative``: the side with the initiative at a leaf, by its
    three-lines.  With no threat of the opponent's to block (``h`` 0) the
    mover has it, and with two three-lines it makes a double threat now; when
    the opponent's threats take both of its stones (``h`` 2) the opponent, who
    moves next with its hands free, has it.  ``w`` for two or more lines, a
    quarter for one; added for the mover, taken for the opponent.  One test
    when off (every profile)."""
    cdef int side, n
    cdef score_t v
    if w == 0 or h == 1 or h > 2:
        return 0
    side = mover if h == 0 else 1 - mover
    if rt_live_roads(&p.rt, side, 3) == 0:
        return 0
    n = three_lines(p, side)
    v = w if n >= 2 else (w // 4 if n == 1 else 0)
    return v if h == 0 else -v
