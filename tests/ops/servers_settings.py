"""The settings of test_several_servers' gunicorn processes: production's (debug off, a real key), with a
quick password hasher, because PBKDF2's deliberate slowness would be most of the time of its 30 log-ins."""

from sczmj_site.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
