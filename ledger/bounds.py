"""How much one session and one group may hold, so that no sum the app takes can overflow.

Every total the app shows is a ``SUM`` in the database over ledger rows: a session's running totals and
settle-up (one session's rows), a group's standings and statistics (every session of the group). Three
limits meet there: SQLite's ``SUM`` of integers raises "integer overflow" as soon as a partial sum passes
2^63 - 1 (in whatever order it reads the rows), PostgreSQL's bigint column holds 2^63 - 1 per row, and a
JavaScript client reads a JSON number exactly only up to 2^53 - 1. Any partial sum over a set of rows is
at most the sum of their absolute values, so bounding that ("points moved", reversals included) bounds
every sum over those rows:

    points moved by a session  <=  MAX_SESSION_POINTS = 9 * 10**10
    sessions of a group        <=  MAX_GROUP_SESSIONS = 100_000
    so any sum over a group    <=  9 * 10**15  <  2**53 - 1 = 9_007_199_254_740_991  <  2**63 - 1

Coins are conserved within a session (every version's coin rows sum to zero and no balance goes below
zero), so a balance never exceeds the four starting balances (4 * 10**12); only SQLite's partial sums over
many versions could grow, and ``MAX_SESSION_COINS`` keeps them below 2^53 too. No sum of the app spans
coins of several sessions.

A write that would take its session past a bound is refused as a 400 and stores nothing (the check runs
last, inside the write's transaction). The figures are far from any real table: the demo's twelve hands
move 746 points (``load_demo``, then ``Session.points_moved``); 2,000 rounds of twelve payments of 64,000
points (base 1,000 at the 64-fold cap), both rows of each, move about 3.1 * 10**9.
"""

from __future__ import annotations

from .errors import LedgerError
from .models import Group, Session

MAX_SESSION_POINTS = 9 * 10**10
MAX_SESSION_COINS = 2 * 10**15
MAX_GROUP_SESSIONS = 100_000


def moved(session: Session) -> tuple[int, int]:
    """The points and the coins the session's rows have moved: the sum of their absolute values, which
    ``integrity.seal`` adds up on the session row as each version is written (one read by key, not a scan
    of the session's rows)."""
    return Session.objects.values_list("points_moved", "coins_moved").get(pk=session.pk)


def check_session(session: Session, field: str) -> None:
    """Refuse (400 on ``field``) a write that has just taken the session past a bound."""
    check_moved(*moved(session), field=field)


def check_moved(points: int, coins: int, *, field: str) -> None:
    """``check_session`` given what the session has moved (as ``integrity.seal`` returns it)."""
    if points > MAX_SESSION_POINTS:
        raise LedgerError("session_points_bound", field=field, points=points, maximum=MAX_SESSION_POINTS)
    if coins > MAX_SESSION_COINS:
        raise LedgerError("session_coins_bound", field=field, coins=coins, maximum=MAX_SESSION_COINS)


def check_group(group: Group) -> None:
    """Refuse (400 on ``name``) a new session beyond the group's last one."""
    check_group_sessions(Session.objects.filter(group=group).count())


def check_group_sessions(count: int) -> None:
    """Refuse a session beyond the group's ``count`` sessions when that is the bound already."""
    if count >= MAX_GROUP_SESSIONS:
        raise LedgerError("group_sessions_bound", field="name", maximum=MAX_GROUP_SESSIONS)
