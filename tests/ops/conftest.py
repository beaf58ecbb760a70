"""Fixtures of the operations tests: quick password hashing and nothing counted from an earlier test."""

from typing import Any

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def fresh_throttles(db: Any) -> None:
    """The API throttles count per address in the cache table; a test that logs in often starts at 0."""
    cache.clear()
