# cython: language_level=3
"""Where the root decides the move.

The root keeps a table of its moves (``search_t.root_moves``: each root
pair with its value, the depth that gave it, and the reply check's verdict
with the refuting reply) and one chosen move (``search_t.chosen``, with its
line in ``search_t.line``) whose ``source`` says where it came from:

* ``SOURCE_SOLVER``: the root's threat-space solver proved a win before any
  alpha-beta (:c:func:`root_adopt_solver`);
* ``SOURCE_SEARCH``: the best pair of the deepest finished iteration
  (:c:func:`root_finish_iteration`);
* ``SOURCE_UNFINISHED``: the clock stopped an iteration in which a later root
  pair finished better than the previous best (:c:func:`root_take_unfinished`);
* ``SOURCE_RESIST``: the opponent would still win by VCDT after the chosen
  move, and another root pair stops it (:c:func:`root_resist`).

When the reply check refutes every root pair it judged, the root's list
can grow once by pairs from further down the pair list that it does not
refute (:c:func:`root_rescue`, option ``rescue_width``); they are searched
like the others.

(The opening book, a fifth source, is the Python layer's: ``connect6.engine``.)

Inside alpha-beta, every root child's value passes through
:c:func:`root_consider`: a new best is first checked against the opponent's
replies (the reply check); a refuted pair *ranks* below every unrefuted one
(its rank is its value less ``REFUTED``) but keeps its own value in the
table, and the verdict is a field, never read back from a score.
"""
from engine_core.search_state cimport root_move_t, search_t
from engine_core.types cimport score_t

cdef void root_iteration_start(search_t* s) noexcept nogil
cdef score_t root_consider(search_t* s, int a, int b, score_t v, int depth, score_t best) noexcept nogil
cdef void root_tentative(search_t* s, int a, int b, score_t v, root_move_t* kept) noexcept nogil
cdef void root_untentative(search_t* s, const root_move_t* kept) noexcept nogil
cdef void root_finish_iteration(search_t* s, int depth, score_t v) noexcept nogil
cdef void root_take_unfinished(search_t* s, bint full_window) noexcept nogil
cdef void root_adopt_solver(search_t* s) noexcept nogil
cdef void root_resist(search_t* s, bint defending) noexcept nogil
cdef int root_rescue(search_t* s) noexcept nogil
cdef void root_report(search_t* s, int depth) noexcept nogil
cdef void root_keep_even(search_t* s, int depth) noexcept nogil
cdef void root_even(search_t* s, int decided) noexcept nogil
