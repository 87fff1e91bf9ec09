"""Weight sets of the road evaluation.

A weight set is two integer vectors over 1..6 stones in a live road: ``f`` (what a
side's own road is worth) and ``g`` (the threat of an opponent's road).
``"paper"`` is Table 1 of Li et al. (2015) and never changes.

In text (an engine spec, a game record) a set is its name or its twelve numbers,
``f`` then ``g``, each six joined by ``/`` and the two joined by ``:``:

>>> weights_text(PAPER)
'1/20/40/200/200/1000000:1/25/50/6000/6000/1000000'
>>> resolve_weights('1/15/40/200/200/1000000:1/25/50/6000/6000/1000000')[0]
(0, 1, 15, 40, 200, 200, 1000000)
"""
from __future__ import annotations

from typing import Dict, Mapping, Sequence, Tuple, Union

from connect6._core import position as _position

Vector = Tuple[int, int, int, int, int, int, int]

#: Table 1 of Li et al. 2015 (index = stones in the road; index 0 unused).
PAPER: Tuple[Vector, Vector] = (
    (0, 1, 20, 40, 200, 200, 1_000_000),
    (0, 1, 25, 50, 6_000, 6_000, 1_000_000),
)

#: Fitted to the human games by tools/tune_weights.py: logistic regression of
#: the result on the leaf features over 75 701 quiet positions (no threat on
#: the board); held-out log loss 0.6364 against 0.6643 for "paper" (0.6787
#: for the side-to-move base rate).  f(4), f(5), g(4), g(5) are set by rule
#: (quiet positions have no such roads; see the script).  A better predictor
#: of human results, but not a stronger engine: in self-play checks at
#: 0.3-0.5 s/move the threat-aware engine with these weights scored 12/40
#: against the same engine with "paper" weights, and 29/60 against the paper
#: engine (with "paper" move ordering), so the default keeps "paper".
TEXEL: Tuple[Vector, Vector] = (
    (0, 29, 55, 290, 435, 435, 1_000_000),
    (0, 26, 354, 1_000, 20_000, 20_000, 1_000_000),
)

WEIGHT_SETS: Dict[str, Tuple[Vector, Vector]] = {"paper": PAPER, "texel": TEXEL}

WeightsLike = Union[str, Tuple[Sequence[int], Sequence[int]], Mapping[str, Sequence[int]]]


def _vector(values: Sequence[Union[int, str]], name: str) -> Vector:
    # the core's one check of a weight vector (whole numbers, six of them, within its bounds)
    return tuple(_position.weight_vector(values, f"weights {name}"))  # type: ignore[return-value]


def weights_text(weights: Tuple[Sequence[int], Sequence[int]]) -> str:
    """``(f, g)`` as text that :func:`resolve_weights` reads back (``f1/../f6:g1/../g6``)."""
    f, g = resolve_weights(weights)
    return ":".join("/".join(str(v) for v in vector[1:]) for vector in (f, g))


def _from_text(text: str) -> Tuple[Vector, Vector]:
    halves = text.split(":")
    if len(halves) != 2:
        raise ValueError(f"weights {text!r}: expected f and g joined by ':', each six numbers joined by '/'")
    f, g = (half.split("/") for half in halves)
    return _vector(f, "f"), _vector(g, "g")


def resolve_weights(spec: WeightsLike) -> Tuple[Vector, Vector]:
    """``"paper"``, a weight-set name, its numbers as text (``f1/../f6:g1/../g6``),
    ``(f, g)`` or ``{"f": ..., "g": ...}`` -> ``(f, g)``."""
    if isinstance(spec, str) and "/" in spec:
        return _from_text(spec)
    if isinstance(spec, str):
        try:
            return WEIGHT_SETS[spec]
        except KeyError:
            raise ValueError(f"unknown weight set {spec!r}: expected one of {', '.join(WEIGHT_SETS)}") from None
    if isinstance(spec, Mapping):
        if set(spec) != {"f", "g"}:
            raise ValueError(f"weights mapping needs exactly the keys 'f' and 'g', got {sorted(spec)}")
        return _vector(spec["f"], "f"), _vector(spec["g"], "g")
    try:
        f, g = spec
    except (TypeError, ValueError):
        raise ValueError(f"weights: expected a weight-set name or (f, g), got {spec!r}") from None
    return _vector(f, "f"), _vector(g, "g")
