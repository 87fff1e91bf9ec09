"""Suite-wide options: ``pytest --fuzz-long`` runs the property and fuzz
tests with many more examples (the CI run keeps them short and seeded)."""
import os

from hypothesis import settings


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run property/fuzz tests with 20x more examples (minutes)")


def pytest_configure(config):
    settings.register_profile("ci", derandomize=True, deadline=None)
    settings.register_profile("long", max_examples=4000, deadline=None)
    if config.getoption("--fuzz-long"):
        settings.load_profile("long")
    elif os.environ.get("CI"):
        settings.load_profile("ci")
