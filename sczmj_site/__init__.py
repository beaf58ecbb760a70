"""The site's wiring. ``__version__`` is the one place the version is written: the wheel takes it
(pyproject.toml's ``[tool.hatch.version]``), ``/healthz`` shows it, CHANGELOG.md says what each brought."""

__version__ = "0.4.0"
