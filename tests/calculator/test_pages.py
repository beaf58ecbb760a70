"""The calculator page ``/``: full pages in both languages, htmx fragments, errors and waits."""

import re

import pytest
from django.test import Client

HTMX = {"HTTP_HX_REQUEST": "true"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


def text_of(response) -> str:
    """The visible text of a response, tags dropped and spaces squeezed, for readable assertions."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def client() -> Client:
    return Client()


def test_the_page_is_chinese_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    assert '<html lang="zh-hans">' in response.content.decode()
    assert "胡牌算番" in text_of(response)
    assert "Score a win" not in text_of(response)


def test_the_page_follows_the_browser_language(client):
    response = client.get("/", **ENGLISH)
    assert '<html lang="en">' in response.content.decode()
    assert "Score a win" in text_of(response)


def test_the_language_cookie_switches_to_english(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Score a win" in text_of(client.get("/"))


def test_the_picker_has_three_rows_of_nine_tiles(client):
    body = client.get("/").content.decode()
    assert len(re.findall(r'class="pick"', body)) == 27
    assert re.findall(r'data-tile="(\w\w)"', body)[:10] == [*(f"{rank}m" for rank in range(1, 10)), "1p"]


def test_the_page_loads_only_its_own_scripts_with_the_nonce(client):
    body = client.get("/").content.decode()
    scripts = re.findall(r"<script[^>]*>", body)
    assert scripts, "htmx and the picker script are on the page"
    assert all('nonce="' in tag and 'src="/static/' in tag for tag in scripts)
    assert "http://" not in body and "https://" not in body
    assert "style=" not in body


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        pytest.param(
            {"concealed": "1111234567899s", "win_tile": "9s", "win_by": "discard"},
            ["清一色", "+3", "根", "+1", "4 番", "×8"],
            id="full_flush_with_a_gen_is_four_fan",
        ),
        pytest.param(
            {"concealed": "111m333m9m", "win_tile": "9m", "melds": "明杠5p 碰7p", "win_by": "discard"},
            ["对对胡", "3 番", "×4"],
            id="melds_typed_in_chinese",
        ),
        pytest.param(
            {"concealed": "23445677筒345789条", "win_by": "self_draw"},
            ["平胡", "1 番"],
            id="chinese_suits_and_the_last_tile_wins",
        ),
        pytest.param(
            {"concealed": "123s678s234m2m", "melds": "暗杠5s", "win_tile": "2m", "after_kong": "on"},
            ["杠上花", "3 番"],
            id="gang_shang_hua_toggle",
        ),
    ],
)
def test_an_htmx_post_returns_the_result_fragment(client, fields, expected):
    response = client.post("/", fields, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="result"'), "only the fragment, not the page"
    text = text_of(response)
    for part in expected:
        assert part in text


def test_the_fragment_speaks_english_when_asked(client):
    response = client.post("/", {"concealed": "1111234567899s", "win_tile": "9s"}, **HTMX, **ENGLISH)
    text = text_of(response)
    assert "Full flush" in text and "4 fan" in text and "points per payer" in text


def test_the_fragment_shows_the_zero_based_count(client):
    text = text_of(client.post("/", {"concealed": "11s333s222s456s99s", "win_tile": "9s"}, **HTMX))
    assert "按平胡 0 番算：2 番" in text


def test_a_hand_being_built_shows_how_many_tiles_are_missing(client):
    text = text_of(client.post("/", {"concealed": "123m45p"}, **HTMX))
    assert "还差 9 张牌" in text


def test_a_plain_post_renders_the_whole_page_with_the_result(client):
    response = client.post("/", {"concealed": "11s333s222s456s99s", "win_tile": "9s"})
    assert response.status_code == 200
    text = text_of(response)
    assert "清一色" in text and "胡牌算番" in text


def test_a_tile_button_without_javascript_adds_the_tile(client):
    response = client.post("/", {"concealed": "11s333s222s456s9s", "win_tile": "9s", "add": "9s"})
    text = text_of(response)
    assert "清一色" in text
    assert re.search(r'name="concealed" value="11s333s222s456s9s9s9s"', response.content.decode())


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        pytest.param(
            {"concealed": "123m456p789s11sx", "win_tile": "1s"}, "concealed", "“x”不是牌", id="unknown_char"
        ),
        pytest.param(
            {"concealed": "123m456m789m11s222s", "win_tile": "2s"},
            "concealed",
            "手牌应为 13 张",
            id="fifteenth_tile",
        ),
        pytest.param({"concealed": "1111m22223333m4m", "win_tile": "1m"}, "", "", id="fifth_copy"),
        pytest.param(
            {"concealed": "11s333s222s456s99s", "win_tile": "9s", "preset": "vegas"},
            "",
            "vegas",
            id="unknown_preset",
        ),
        pytest.param({"concealed": "11s333s222s456s", "melds": "吃5p"}, "melds", "吃5p", id="unknown_meld"),
        pytest.param(
            {"concealed": "11s333s222s456s99s", "win_tile": "9s", "rule_cap_multiplier": "3"},
            "",
            "2 的幂",
            id="bad_option",
        ),
    ],
)
def test_bad_input_gets_a_clear_message_never_a_500(client, fields, field, message):
    fragment = client.post("/", fields, **HTMX)
    assert fragment.status_code == 200, "htmx swaps only 2xx, so the error fragment is a 200"
    assert 'role="alert"' in fragment.content.decode()
    assert message in text_of(fragment)
    page = client.post("/", fields)
    assert page.status_code == 400
    assert message in text_of(page)
    if field:
        assert re.search(rf'name="{field}"[^>]*class="[^"]*invalid', page.content.decode())


def test_the_error_is_in_english_on_the_english_page(client):
    text = text_of(client.post("/", {"concealed": "123m456p789s11sx", "win_tile": "1s"}, **HTMX, **ENGLISH))
    assert "&#x27;x&#x27; at position 16 is not a tile." in text


def test_waits_mode_lists_each_wait_with_its_fan(client):
    text = text_of(client.post("/", {"mode": "waits", "concealed": "1112345678999m"}, **HTMX))
    assert "有叫" in text
    assert "清一色" in text


def test_waits_mode_with_fourteen_tiles_lists_the_discards(client):
    text = text_of(client.post("/", {"mode": "waits", "concealed": "11123456789999m"}, **HTMX))
    assert "打出其中一张即可听牌" in text


def test_waits_mode_says_a_fourteen_that_is_a_pig_can_discard_into_ready(client):
    """RULES.md 3.4: 3p is the void suit; as it stands a 花猪, and discarding 3p leaves it ready on 5s, 9s."""
    form = {"mode": "waits", "concealed": "3p2222334445699s", "void_suit": "p"}
    text = text_of(client.post("/", form, **HTMX))
    assert "这手牌现在是花猪" in text and "有叫" in text and "打出其中一张即可听牌" in text
    assert "不能胡。" not in text and "没叫" not in text
    english = text_of(client.post("/", form, **HTMX, **ENGLISH))
    assert "As it stands the hand is a flower pig" in english and "Ready" in english


def test_waits_mode_says_when_a_hand_is_not_ready(client):
    text = text_of(client.post("/", {"mode": "waits", "concealed": "147m258p369s1357m"}, **HTMX))
    assert "没叫" in text or "花猪" in text


def test_the_options_come_from_the_rules_table(client):
    from calculator.engine import OPTIONS

    body = client.get("/").content.decode()
    for option in OPTIONS:
        assert f'name="rule_{option.key}"' in body


@pytest.mark.parametrize(
    ("fields", "expected", "absent"),
    [
        pytest.param({"win_by": "self_draw"}, "自摸加底 +1：每家实付 9", None, id="self_draw_adds_one_base"),
        pytest.param(
            {"win_by": "self_draw", "rule_base_points": "2"},
            "自摸加底 +2：每家实付 18",
            None,
            id="the_bonus_is_one_base",
        ),
        pytest.param({"win_by": "discard"}, "8 分／每家", "自摸加底", id="no_bonus_on_a_discard"),
        pytest.param(
            {"win_by": "self_draw", "rule_zimo_bonus": "none"},
            "8 分／每家",
            "自摸加底",
            id="bonus_turned_off",
        ),
    ],
)
def test_a_self_draw_says_what_each_payer_really_pays(client, fields, expected, absent):
    """RULES.md 4: 自摸加底 is added after the fan; the score API's points leave it out, the page must not."""
    hand = {"concealed": "2344445678s", "win_tile": "8s", "melds": "碰9s"}  # 清一色 3 + 1根: 4 fan ×8
    text = text_of(client.post("/", {**hand, **fields}, **HTMX))
    assert expected in text
    if absent:
        assert absent not in text


@pytest.mark.parametrize(
    ("headers", "gen_wait", "plain_wait"),
    [
        pytest.param({}, "清一色 + 1根 4 番", "清一色 3 番", id="chinese"),
        pytest.param(ENGLISH, "Full flush + 1 gen 4 fan", "Full flush 3 fan", id="english"),
    ],
)
def test_a_wait_that_makes_a_gen_says_so(client, headers, gen_wait, plain_wait):
    """九莲 shape: 1m and 9m make a fourth copy, so they score a gen more than 2m-8m; the row says why."""
    text = text_of(client.post("/", {"mode": "waits", "concealed": "1112345678999m"}, **HTMX, **headers))
    assert text.count(gen_wait) == 2
    assert text.count(plain_wait) == 7


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"rule_base_points": "²"}, id="superscript-digit"),
        pytest.param({"rule_base_points": "9" * 5000}, id="five-thousand-digits"),
        pytest.param({"rule_pattern_fan": "[" * 100_000 + "]" * 100_000}, id="deeply-nested-json"),
    ],
)
def test_hostile_option_values_get_a_message_never_a_500(client, fields):
    hand = {"concealed": "11s333s222s456s99s", "win_tile": "9s"}
    assert client.post("/", {**hand, **fields}, **HTMX).status_code == 200
    assert client.post("/", {**hand, **fields}).status_code == 400
    assert client.get("/", {**hand, **fields}).status_code in {200, 400}


def test_the_players_name_of_a_composition_shows_beside_the_breakdown(client):
    hand = {"concealed": "5p", "win_tile": "5p", "melds": "明杠2s 弯杠5s 暗杠8s 明杠8p"}
    assert "十八罗汉" in text_of(client.post("/", hand, **HTMX))
    english = text_of(client.post("/", hand, **HTMX, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Eighteen arhats (十八罗汉)" in english
    assert "十八罗汉" not in text_of(
        client.post("/", {"concealed": "11s333s222s456s99s", "win_tile": "9s"}, **HTMX)
    )
