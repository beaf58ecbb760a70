"""Issue 7, point 4: every refusal is a stable code worded once, in English and Chinese, by a catalogue.

A static scan reads every place the app makes an error (``EngineError("fifth_copy", field=..., tile=...)``
and its kin of the ledger, the API and the pages) and checks that the code is in the catalogue of the
class that renders it and that the call gives every value the two templates name; every entry of every
catalogue is made somewhere. A runtime check sends a corpus of bad hands, rounds and balances (the
requests of the page-and-API and byte-for-byte tests, and Hypothesis's junk put anywhere in a valid
round) to the engines and checks each error they raise the same way.
"""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.errors import MESSAGES as API_MESSAGES
from calculator.engine import MESSAGES, EngineError, score_from_payload, waits_from_payload
from ledger.errors import MESSAGES as LEDGER_MESSAGES
from settlement.engine import settle_from_payload, settle_up
from tests.fuzz.junk import json_values, paths, put, tile_text
from tests.settlement.engine.random_rounds import random_round
from tests.test_api_answers_unchanged import REQUESTS
from tests.web.test_page_and_api_agree import HANDS, ROUNDS
from web.notation import MESSAGES as NOTATION_MESSAGES

ROOT = Path(__file__).resolve().parent.parent
APP = ("calculator", "settlement", "ledger", "api", "web", "sczmj_site")
CATALOGUES = {"engines": MESSAGES, "ledger": LEDGER_MESSAGES, "api": API_MESSAGES, "web": NOTATION_MESSAGES}

# What makes an error, the catalogue that words it, where in the call its code is (the positional
# argument; the field and the round's event are keywords or the next positional ones, never values), and
# the values the maker gives the message itself.
MAKERS: Mapping[str, tuple[Mapping[str, Any], int, frozenset[str]]] = {
    "EngineError": (MESSAGES, 0, frozenset()),
    "not_a_win": (MESSAGES, 0, frozenset()),
    "DraftRefusal": (MESSAGES, 0, frozenset()),
    "one_of": (MESSAGES, 5, frozenset({"value"})),  # settlement/engine/events.py: quotes what was sent
    "LedgerError": (LEDGER_MESSAGES, 0, frozenset()),
    "Forbidden": (LEDGER_MESSAGES, 0, frozenset()),
    # a LedgerRefusal's kind names its code (ledger/errors.py)
    "super().__init__": (LEDGER_MESSAGES, 0, frozenset()),
    "ApiRefusal": (API_MESSAGES, 0, frozenset()),
    "error_body": (API_MESSAGES, 0, frozenset()),
    "NotationError": (NOTATION_MESSAGES, 0, frozenset()),
    "ledger_words": (LEDGER_MESSAGES, 0, frozenset()),
}
NOT_VALUES = {"field", "event"}
# The makers that pass on a code they were given; every other call must name its code.
FORWARDERS = {
    ("api/errors.py", "error_body"),
    ("ledger/errors.py", "__init__"),
    ("ledger/pages/refusals.py", "ledger_words"),
    ("settlement/engine/events.py", "one_of"),
}
SNAKE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")


def placeholders(message: Any) -> set[str]:
    """The values the English and the Chinese template name."""
    return {
        name.split(".")[0].split("[")[0]
        for template in (message.en, message.zh)
        for _, name, _, _ in string.Formatter().parse(template)
        if name is not None
    }


@dataclass(frozen=True)
class Site:
    where: str  # file:line
    maker: str
    codes: frozenset[str]  # what the code may be; empty when passed on
    values: frozenset[str] | None  # the keyword values given; None when splatted (a copy)
    forwarded: tuple[str, str] | None  # (file, function) when the code is a parameter passed on


def _maker(node: ast.Call, in_a_refusal: bool) -> str | None:
    func = node.func
    if isinstance(func, ast.Name) and func.id in MAKERS:
        return func.id
    if isinstance(func, ast.Attribute) and func.attr == "__init__" and in_a_refusal:
        inner = func.value
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "super":
            return "super().__init__"
    return None


def _refusal_methods(tree: ast.Module) -> set[int]:
    """The methods of the kinds of ``LedgerRefusal`` a module defines (their ``super().__init__`` names a
    code), by the ids of their nodes."""
    kinds = {"LedgerRefusal"}
    methods: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and {getattr(base, "id", "") for base in node.bases} & kinds:
            kinds.add(node.name)
            methods |= {id(item) for item in node.body if isinstance(item, ast.FunctionDef)}
    return methods


def _possible_codes(node: ast.expr, assigned: Mapping[str, ast.expr]) -> set[str]:
    """The codes an argument can be: a literal, either branch of a conditional, a name assigned one of
    those in its function or its module, or a value of a table of them (``INVITE_REFUSALS[reason]``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _possible_codes(node.body, assigned) | _possible_codes(node.orelse, assigned)
    if isinstance(node, ast.Name) and node.id in assigned:
        return _possible_codes(assigned[node.id], assigned)
    if isinstance(node, ast.Subscript):
        return _possible_codes(node.value, assigned)
    if isinstance(node, ast.Dict):
        return {
            code for value in node.values if value is not None for code in _possible_codes(value, assigned)
        }
    return set()


def _assignments(node: ast.AST, *, top_only: bool = False) -> dict[str, ast.expr]:
    """Names assigned in ``node`` (its own statements only for a module: a function's are its own)."""
    statements = node.body if top_only and isinstance(node, ast.Module) else ast.walk(node)
    return {
        target.id: child.value
        for child in statements
        if isinstance(child, ast.Assign)
        for target in child.targets
        if isinstance(target, ast.Name)
    }


def _functions(tree: ast.AST) -> Iterator[ast.AST]:
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def scan(root: Path = ROOT, packages: tuple[str, ...] = APP) -> list[Site]:
    sites: list[Site] = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if "/migrations/" in name:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), name)
            refusal_methods = _refusal_methods(tree)
            module_names = _assignments(tree, top_only=True)
            seen: set[int] = set()
            # Innermost function first, so a call is credited to the function it is written in.
            for function in sorted(_functions(tree), key=lambda node: -getattr(node, "lineno", 0)):
                parameters = (
                    {argument.arg for argument in function.args.args + function.args.kwonlyargs}
                    if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
                    else set()
                )
                assigned = {**module_names, **_assignments(function)}
                for node in ast.walk(function):
                    if not isinstance(node, ast.Call) or id(node) in seen:
                        continue
                    maker = _maker(node, id(function) in refusal_methods)
                    if maker is None or not node.args:
                        continue
                    seen.add(id(node))
                    code = node.args[MAKERS[maker][1]]
                    forwarded = (
                        (name, getattr(function, "name", ""))
                        if (isinstance(code, ast.Name) and code.id in parameters)
                        or isinstance(code, ast.Attribute)
                        else None
                    )
                    splat = any(keyword.arg is None for keyword in node.keywords)
                    values = (
                        frozenset(keyword.arg for keyword in node.keywords if keyword.arg) - NOT_VALUES
                    ) | MAKERS[maker][2]
                    sites.append(
                        Site(
                            f"{name}:{node.lineno}",
                            maker,
                            frozenset(_possible_codes(code, assigned)),
                            None if splat else values,
                            forwarded,
                        )
                    )
    return sites


SITES = scan()


def test_the_scan_finds_the_raise_sites():
    assert len(SITES) > 150
    assert {site.maker for site in SITES} == set(MAKERS)


def test_every_site_names_its_code_or_passes_one_on():
    unnamed = [site.where for site in SITES if not site.codes and site.forwarded is None]
    assert unnamed == []
    assert {site.forwarded for site in SITES if site.forwarded} == FORWARDERS


def test_every_code_made_is_in_the_catalogue_of_its_maker():
    missing = [
        f"{site.where}: {code}" for site in SITES for code in site.codes if code not in MAKERS[site.maker][0]
    ]
    assert missing == []


def test_every_site_gives_the_values_its_templates_name():
    short = [
        f"{site.where}: {code} lacks {sorted(placeholders(MAKERS[site.maker][0][code]) - site.values)}"
        for site in SITES
        if site.values is not None
        for code in site.codes
        if code in MAKERS[site.maker][0] and not placeholders(MAKERS[site.maker][0][code]) <= site.values
    ]
    assert short == []


def test_no_catalogue_entry_is_unused():
    made = {code for site in SITES for code in site.codes}
    unused = {code for catalogue in CATALOGUES.values() for code in catalogue} - made
    assert unused == set()


def test_every_code_is_snake_case_in_one_catalogue_only():
    codes = [code for catalogue in CATALOGUES.values() for code in catalogue]
    assert len(codes) == len(set(codes))
    assert [code for code in codes if not SNAKE.fullmatch(code)] == []


@pytest.mark.parametrize("name", list(CATALOGUES))
def test_every_entry_has_both_languages(name):
    for code, message in CATALOGUES[name].items():
        assert message.en.strip() and message.zh.strip(), code
        worded_in_chinese = re.search(r"[\u3400-\u9fff]", message.zh)
        only_values = not re.sub(r"\{[^}]*\}", "", message.zh).strip()
        assert worded_in_chinese or only_values, code  # "{reason_zh}": the words come with the error


def documented() -> dict[str, tuple[str, str]]:
    """docs/errors.md's tables: code -> (English, Chinese) as written there."""
    rows = re.findall(
        r"^\| `([a-z0-9_]+)` \| (.*?) \| (.*?) \|$", (ROOT / "docs" / "errors.md").read_text(), re.M
    )
    return {code: (en.replace("\\|", "|"), zh.replace("\\|", "|")) for code, en, zh in rows}


def test_docs_errors_md_lists_every_code_as_the_catalogues_word_it():
    def unescaped(template: str) -> str:
        return template.replace("{{", "{").replace("}}", "}")

    catalogued = {
        code: (unescaped(message.en), unescaped(message.zh))
        for catalogue in CATALOGUES.values()
        for code, message in catalogue.items()
    }
    assert documented() == catalogued


def test_the_scan_catches_an_unknown_code_and_a_missing_value(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "bad.py").write_text(
        "def f(x):\n"
        "    raise EngineError('no_such_code', field='x')\n"
        "def g(x):\n"
        "    raise EngineError('fifth_copy', field='x')\n"
        "def h(code):\n"
        "    raise EngineError(code, field='x')\n",
        encoding="utf-8",
    )
    sites = {site.where: site for site in scan(tmp_path, ("app",))}
    assert sites["app/bad.py:2"].codes - MESSAGES.keys() == {"no_such_code"}
    assert placeholders(MESSAGES["fifth_copy"]) - sites["app/bad.py:4"].values == {"tile"}
    assert sites["app/bad.py:6"].forwarded == ("app/bad.py", "h")


# ---- at runtime


def check(error: EngineError) -> str:
    """The error is a catalogue's code with every value its templates name, rendered in both languages."""
    assert error.code in error.catalogue, error.code
    assert placeholders(error.catalogue[error.code]) <= error.params.keys(), error.code
    assert str(error) == error.message == error.localized("en")
    assert error.message_zh == error.localized("zh-hans")
    assert error.to_dict()["code"] == error.code
    return error.code


def refused(call: Any, body: Any) -> str | None:
    try:
        call(body)
    except EngineError as error:
        return check(error)
    return None


ENDPOINTS = {"score": score_from_payload, "waits": waits_from_payload, "settle": settle_from_payload}


def test_the_corpus_of_bad_requests_is_refused_with_codes_of_the_catalogue():
    bodies = [(ENDPOINTS[path], body) for name, path, body in REQUESTS if name.startswith("bad:")]
    bodies += [(score_from_payload, param.values[1]) for param in HANDS]
    bodies += [
        (settle_from_payload, {"dealer": 0, "rules": {"preset": "chengdu"}, "events": param.values[1]})
        for param in ROUNDS
    ]
    codes = [refused(call, body) for call, body in bodies]
    assert None not in codes
    assert len(set(codes)) >= 20


@settings(max_examples=300, deadline=None)
@given(rng=st.randoms(use_true_random=False), junk=json_values)
def test_junk_anywhere_in_a_round_is_refused_with_a_code_of_the_catalogue(rng: random.Random, junk: Any):
    body = random_round(rng)
    refused(settle_from_payload, put(body, rng.choice(paths(body)), junk))


@settings(max_examples=300, deadline=None)
@given(concealed=tile_text | json_values, win_tile=tile_text | json_values, junk=json_values)
def test_junk_hands_are_refused_with_codes_of_the_catalogue(concealed: Any, win_tile: Any, junk: Any):
    refused(score_from_payload, {"concealed": concealed, "win_tile": win_tile})
    refused(waits_from_payload, {"concealed": concealed, "void_suit": junk})
    refused(score_from_payload, {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rules": junk})


@settings(max_examples=100, deadline=None)
@given(balances=st.lists(json_values | st.integers(-100, 100), max_size=5))
def test_junk_balances_are_refused_with_codes_of_the_catalogue(balances: list[Any]):
    refused(settle_up, balances)
