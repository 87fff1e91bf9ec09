"""Suite-wide options: ``pytest --fuzz-long`` runs the property and fuzz
tests with 20 times more examples (tests/_fuzz.py); under CI they are seeded.
``pytest --artefacts`` (or CONNECT6_TEST_ARTEFACTS=1, set by .ci/run) also runs
the tests marked ``artefacts``: build the release artefacts and test them
installed (tests/test_release.py, minutes)."""
import os

import pytest
from hypothesis import HealthCheck, settings


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run the property and fuzz tests with 20x more examples (minutes)")
    parser.addoption("--artefacts", action="store_true", default=False,
                     help="also build the sdist and wheel and test them installed (minutes)")


def pytest_configure(config):
    # Nothing in the suite may depend on the machine's speed: no deadline for an
    # example, and no health check that fails when drawing examples is slow (a
    # busy machine starved a run of test_options for 37 s).
    settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("ci", parent=settings.get_profile("suite"), derandomize=True)
    if config.getoption("--fuzz-long"):
        os.environ["CONNECT6_FUZZ_LONG"] = "1"     # read by tests/_fuzz.py when the tests are collected
    settings.load_profile("ci" if os.environ.get("CI") and not config.getoption("--fuzz-long") else "suite")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--artefacts") or os.environ.get("CONNECT6_TEST_ARTEFACTS", "") not in ("", "0"):
        return
    skip = pytest.mark.skip(reason="builds the release artefacts: pytest --artefacts or CONNECT6_TEST_ARTEFACTS=1")
    for item in items:
        if "artefacts" in item.keywords:
            item.add_marker(skip)
