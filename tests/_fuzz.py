"""How many examples a property or fuzz test tries: the number it names in
the normal run (short and seeded in CI), 20 times as many under
``pytest --fuzz-long`` (conftest.py sets CONNECT6_FUZZ_LONG)."""
import os

LONG_FACTOR = 20


def fuzz_examples(n: int) -> int:
    return n * LONG_FACTOR if os.environ.get("CONNECT6_FUZZ_LONG") else n
