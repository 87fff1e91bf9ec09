"""Suite-wide options: ``pytest --fuzz-long`` runs the property and fuzz
tests with 20 times more examples (tests/_fuzz.py); under CI they are seeded."""
import os

from hypothesis import settings


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run the property and fuzz tests with 20x more examples (minutes)")


def pytest_configure(config):
    settings.register_profile("ci", derandomize=True, deadline=None)
    if config.getoption("--fuzz-long"):
        os.environ["CONNECT6_FUZZ_LONG"] = "1"     # read by tests/_fuzz.py when the tests are collected
    elif os.environ.get("CI"):
        settings.load_profile("ci")
