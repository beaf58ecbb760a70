"""Settings, read from the environment (docs/deployment.md has the table).

Development mode only when ``DJANGO_DEBUG=1`` (the Makefile and the test settings set it); otherwise a
key is required (``DJANGO_SECRET_KEY`` or ``DJANGO_SECRET_KEY_FILE``) and the site runs as deployed.
Behind a TLS proxy the ``DJANGO_CSRF_TRUSTED_ORIGINS``, ``DJANGO_SECURE_*`` and ``DJANGO_NUM_PROXIES``
variables say what the proxy does. With no ``DATABASE_URL`` the app runs on a SQLite file beside manage.py.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

# Django's classes the stubs make generic (admin.ModelAdmin[Group], a formset's model) are subscriptable at
# run time too, as django-stubs asks (its README, "monkeypatch"); nothing else changes.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
# The templates, static files and catalogues sit beside manage.py in a checkout; an installed wheel carries
# them inside this package (pyproject.toml's force-include), and keeps its data (the SQLite file, collected
# static files, Pyodide) in the directory `sczmj` runs in, never inside the virtual environment.
INSTALLED = (Path(__file__).resolve().parent / "templates").is_dir()
FILES_DIR = Path(__file__).resolve().parent if INSTALLED else BASE_DIR
DATA_DIR = Path.cwd() if INSTALLED else BASE_DIR


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


MISSING_KEY = (
    "Set DJANGO_SECRET_KEY or DJANGO_SECRET_KEY_FILE (a deployment), or DJANGO_DEBUG=1 "
    "(development; the Makefile does this)."
)


def secret_key(debug: bool) -> str:
    """The key from DJANGO_SECRET_KEY or the file DJANGO_SECRET_KEY_FILE names; in development a fixed one.

    A deployment without a key gets none: Django refuses whatever would sign with it, and the WSGI and
    ASGI applications refuse to start (wsgi.py), while a command that signs nothing (``makemigrations
    --check``, ``check``) still runs in a plain shell, as a deployment (DEBUG off).
    """
    key = os.environ.get("DJANGO_SECRET_KEY", "")
    if not key and os.environ.get("DJANGO_SECRET_KEY_FILE"):
        key = Path(os.environ["DJANGO_SECRET_KEY_FILE"]).read_text().strip()
    if key or not debug:
        return key
    return "sczmj-development-only-secret-key-do-not-use-in-production"


# Off unless asked for: a server, a shell or a management command started without reading the docs must
# neither show tracebacks to the world nor plant the demo account in a real database.
DEBUG = env_flag("DJANGO_DEBUG", False)
SECRET_KEY = secret_key(DEBUG)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

# Behind a TLS proxy (docs/deployment.md). Each is off until the environment says so, because each is
# wrong for a plain-HTTP server on 127.0.0.1 (`make serve`); the documented deployment sets them all, and
# then `manage.py check --deploy --fail-level WARNING` passes.
# The origins a form may be posted from (https://mahjong.example.org): Django checks Origin on every post.
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
# The header the proxy sets to "https" on a TLS request (X-Forwarded-Proto): request.is_secure() reads it.
# Only a proxy that always overwrites the header may be named, or a client could claim TLS itself.
_ssl_header = os.environ.get("DJANGO_SECURE_PROXY_SSL_HEADER", "").strip()
SECURE_PROXY_SSL_HEADER = ("HTTP_" + _ssl_header.upper().replace("-", "_"), "https") if _ssl_header else None
SECURE_SSL_REDIRECT = env_flag("DJANGO_SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer's plain-HTTP health check gets its answer
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_flag("DJANGO_SECURE_HSTS_PRELOAD", False)
# Secure cookies whenever debug is off: browsers keep them on http://127.0.0.1 and localhost too.
SESSION_COOKIE_SECURE = env_flag("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "calculator",
    "settlement",
    "ledger",
    "pwa",
]

MIDDLEWARE = [
    # First, so it compresses what every other middleware has written: pages and API answers leave the app
    # gzipped, behind any proxy or none (docs/security.md, "Compression": it pads each answer with random
    # bytes against BREACH; WhiteNoise's static files come compressed already and pass through).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "api.middleware.ApiInEnglishMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a log-in refused for a lockout into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "sczmj_site.urls"
WSGI_APPLICATION = "sczmj_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [FILES_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # web is no app (it has no models): its tags are named here
            "libraries": {"web": "web.templatetags"},
        },
    },
]

SQLITE_PATH = DATA_DIR / "db.sqlite3"
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{SQLITE_PATH}",
        # Persistent connections (one per worker thread) instead of a new PostgreSQL connection per
        # request, each checked before reuse so a restarted database costs a reconnect, not a 500.
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "600")),
        conn_health_checks=env_flag("DATABASE_CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside the writer; IMMEDIATE takes the write lock at BEGIN, so two phones
    # recording a round at once queue up instead of failing half-way with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # The concurrency tests need a real file: every thread of an in-memory database sees its own copy.
    # One file per test process, so two test runs on one machine never share a database.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db.{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("简体中文")), ("en", _("English"))]
# One catalogue per area (site-wide, calculator, round, ledger), so each area's strings live beside each
# other and two people translating different areas never edit the same file. Django merges them.
LOCALE_PATHS = sorted(path for path in (FILES_DIR / "locale").glob("*") if path.is_dir())
USE_I18N = True
TIME_ZONE = "Asia/Shanghai"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", DATA_DIR / "staticfiles"))
# Pyodide, the Python runtime the calculator scores with offline (docs/offline.md), as tools/fetch_pyodide.py
# left it: vendor/pyodide/<version>/, served under static/pyodide/. Only when fetched, so a checkout
# without it (no network at setup) passes the system checks and simply offers no offline scoring.
PYODIDE_ROOT = DATA_DIR / "vendor" / "pyodide"
STATICFILES_DIRS = [FILES_DIR / "static", *([("pyodide", PYODIDE_ROOT)] if PYODIDE_ROOT.is_dir() else [])]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Password guessing (django-axes): a user name is locked from one client address after 10 wrong passwords
# in a row, for 15 minutes, counted in the database (every app server sees the same count). The pair,
# never the address alone: a table of friends shares one Wi-Fi, and one of them mistyping must not lock
# out the others. Beside it, a name given 10 wrong passwords from any addresses waits a minute before its
# next try, doubling with each further one to 15 (``sczmj_site/lockout.py``; docs/security.md has the
# numbers). Every log-in counts: the site's page, the admin and the API's token endpoint all go through
# ``authenticate(request, ...)``.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out pair before any password is checked
    "django.contrib.auth.backends.ModelBackend",
]
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_ON_SUCCESS = True  # the right password clears that pair's count
AXES_CLIENT_IP_CALLABLE = "sczmj_site.clients.client_address"  # the throttles' reading of X-Forwarded-For
AXES_LOCKOUT_CALLABLE = "sczmj_site.lockout.lockout_response"
AXES_HANDLER = "sczmj_site.lockout.NameCoolOffHandler"  # axes' database handler plus the name's cool-off
AXES_ENABLE_ACCESS_FAILURE_LOG = True  # the name's count, across addresses
# A try refused by a lockout neither counts nor restarts it: waiting out a wait is enough, and a guesser
# hammering a locked name does not keep its owner out.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False

SECURE_CSP = {
    "default-src": [CSP.SELF],
    # WebAssembly compiles only with 'wasm-unsafe-eval' (the offline engine, docs/offline.md); it allows no
    # JavaScript eval.
    "script-src": [CSP.SELF, CSP.NONCE, CSP.WASM_UNSAFE_EVAL],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
SECURE_CONTENT_TYPE_NOSNIFF = True

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "ledger.tokens.DeviceTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.SiteJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    # The ledger's refusals answered with their statuses (ledger/api/refusals.py), the rest by api.errors.
    "EXCEPTION_HANDLER": "ledger.api.refusals.exception_handler",
    "UNAUTHENTICATED_USER": None,
    # How many proxies in front of the app append to X-Forwarded-For; 0 trusts none of it, so a client
    # cannot dodge the per-address throttles by sending the header itself.
    "NUM_PROXIES": int(os.environ.get("DJANGO_NUM_PROXIES", "0")),
}

# API tokens (django-rest-knox, ledger/tokens.py): one per device, hashed at rest, sent as
# `Authorization: Token <key>`. A token dies DJANGO_API_TOKEN_DAYS (default 30; 0: never) after its last
# use: each use moves its expiry (at most once a minute), so a phone in use stays logged in and a lost
# one stops working on its own (docs/security.md, "API tokens").
_token_days = int(os.environ.get("DJANGO_API_TOKEN_DAYS", "30"))
KNOX_TOKEN_MODEL = "ledger.DeviceToken"  # noqa: S105 - a model's label, not a secret
# knox's own migrations create its AuthToken table even when TOKEN_MODEL names ours, and on PostgreSQL
# that table's key to auth_user stops `flush` (TRUNCATE) cold; the app has nothing else to migrate.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_MODEL": KNOX_TOKEN_MODEL,
    "TOKEN_TTL": timedelta(days=_token_days) if _token_days > 0 else None,
    "AUTO_REFRESH": True,
    "AUTH_HEADER_PREFIX": "Token",
}

# Mail, used only for the password reset by mail, offered when EMAIL_HOST is set (RESET_BY_MAIL;
# docs/security.md, "A forgotten password"). The variables are named as Django's old EMAIL_* settings;
# Django 6.1 takes them as its MAILERS, the deprecated settings' successor. Port 587 with STARTTLS, what
# mail providers ask. Without EMAIL_HOST the default mailer is Django's old default, SMTP on localhost
# (its checks ask for a default one), and no page sends mail.
_mail_host = os.environ.get("EMAIL_HOST", "").strip()
RESET_BY_MAIL = bool(_mail_host)
MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": _mail_host or "localhost",
            "port": int(os.environ.get("EMAIL_PORT", "587" if _mail_host else "25")),
            "username": os.environ.get("EMAIL_HOST_USER", ""),
            "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "use_tls": env_flag("EMAIL_USE_TLS", RESET_BY_MAIL),
        },
    }
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")

# The throttles count in the database, shared by every server process (a per-process LocMem cache would
# give each worker its own count). The table is created by ledger's migration 0004: `migrate` suffices.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "sczmj_cache"},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "sczmj API (川麻计分)",
    "DESCRIPTION": (
        "Scoring and settlement for Sichuan mahjong (Chengdu rules, 血战到底). "
        "The stateless calculators need no login; stored groups, sessions and rounds take a token "
        "(POST /api/v1/auth/token/) or a browser session."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for the suit choice set (a void suit in score, waits and settle), not one per field.
    "ENUM_NAME_OVERRIDES": {
        "SuitEnum": ["m", "p", "s"],
        "RoleEnum": "ledger.models.Role",
        "InviteRoleEnum": "ledger.models.INVITE_ROLE_CHOICES",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
