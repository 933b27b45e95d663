"""The clock: the card's fixed moment, relative phone times and every token it lists."""

from datetime import datetime

import pytest

from orvena_bench.formats.clock import Clock, clock_for, find_tokens, parse_relative
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.languages import LANGUAGES

DUBLIN = clock_for({"locale": "en_IE", "timeZone": "Europe/Dublin"}, "en")


def test_every_scenario_starts_wednesday_4_november_2026_at_1030_local():
    for zone in ("Europe/Dublin", "Asia/Tokyo", "America/Sao_Paulo", "Pacific/Auckland"):
        now = Clock(time_zone=zone).now
        assert (now.year, now.month, now.day, now.hour, now.minute) == (2026, 11, 4, 10, 30)
        assert now.strftime("%A") == "Wednesday"
        assert str(now.tzinfo) == zone


def test_the_moment_can_be_overridden():
    clock = Clock(time_zone="Europe/Paris", moment=datetime(2027, 1, 1, 9, 0))
    assert clock.expand("{+1d}") == "2027-01-02"
    assert clock.expand("{iso:now}") == "2027-01-01T09:00:00+01:00"


@pytest.mark.parametrize("expr, expected", [
    ("+1d 10:00", "2026-11-05T10:00:00+00:00"),   # tomorrow at 10:00
    ("-2h", "2026-11-04T08:30:00+00:00"),         # two hours ago
    ("+15d", "2026-11-19T10:30:00+00:00"),        # same time of day
    ("10:00", "2026-11-04T10:00:00+00:00"),       # today at a time
    ("now", "2026-11-04T10:30:00+00:00"),
    ("+1w -1d 9:30", "2026-11-10T09:30:00+00:00"),
    ("-2h30m", "2026-11-04T08:00:00+00:00"),      # the sign carries over to the minutes
    ("+1d -2h", "2026-11-05T08:30:00+00:00"),
    ("+90m", "2026-11-04T12:00:00+00:00"),
    ("-1d 23:59:30", "2026-11-03T23:59:30+00:00"),
])
def test_relative_phone_times(expr, expected):
    assert DUBLIN.resolve(expr).isoformat() == expected


@pytest.mark.parametrize("expr", ["tomorrow", "+1x", "1d", "+1d 25:00", "+1d 10:60", "+1d 9:5", ""])
def test_a_relative_time_that_does_not_parse_is_an_error(expr):
    with pytest.raises(ValueError):
        parse_relative(expr)


def test_day_offsets_keep_the_wall_time_across_a_dst_change_and_hours_do_not():
    # New York leaves summer time on Sunday 1 November 2026, three days before the moment.
    clock = Clock(time_zone="America/New_York")
    assert clock.resolve("-4d").isoformat() == "2026-10-31T10:30:00-04:00"
    assert clock.resolve("-96h").isoformat() == "2026-10-31T11:30:00-04:00"
    assert clock.expand("{utc:-4d}") == "2026-10-31T14:30:00Z"
    assert clock.expand("{utc:now}") == "2026-11-04T15:30:00Z"


def test_a_wall_time_in_the_spring_forward_gap_is_the_instant_it_denotes():
    # Berlin jumps from 02:00 to 03:00 on 29 March 2026, 220 days before the moment:
    # 02:30 does not exist that night, so it comes out as 03:30 summer time.
    clock = Clock(time_zone="Europe/Berlin", locale="de")
    assert clock.expand("{iso:-220d 02:30}") == "2026-03-29T03:30:00+02:00"
    assert clock.expand("{utc:-220d 02:30}") == "2026-03-29T01:30:00Z"


def test_the_cards_tokens_with_the_cards_example_phone():
    assert DUBLIN.expand("{+1d}T07:30") == "2026-11-05T07:30"
    assert DUBLIN.expand("{weekday+1d}") == "Thursday"
    assert DUBLIN.expand("{iso:+1d 10:00}") == "2026-11-05T10:00:00+00:00"
    assert DUBLIN.expand("{utc:-2h}") == "2026-11-04T08:30:00Z"
    assert DUBLIN.expand("{date:+15d}") == "19 November 2026"
    assert DUBLIN.expand("{datetime:+1d 10:00}") == "5 November 2026, 10:00"


def test_the_project_extension_tokens():
    assert DUBLIN.expand("{time:+2h}") == "12:30"
    assert DUBLIN.expand("{local:+1d 10:00}") == "2026-11-05T10:00"
    assert DUBLIN.expand("{weekday:+2d}") == "Friday"


def test_iso_and_utc_tokens_carry_the_phone_zone():
    tokyo = Clock(time_zone="Asia/Tokyo", locale="ja_JP")
    assert tokyo.expand("{iso:+1d 10:00}") == "2026-11-05T10:00:00+09:00"
    assert tokyo.expand("{utc:+1d 10:00}") == "2026-11-05T01:00:00Z"


def test_the_locale_decides_the_long_date_not_only_the_language():
    assert Clock(locale="en_IE").expand("{date:+15d}") == "19 November 2026"
    assert Clock(locale="en_US").expand("{date:+15d}") == "November 19, 2026"


@pytest.mark.parametrize("language, weekday, long_date", [
    ("de", "Donnerstag", "19. November 2026"),
    ("fr", "jeudi", "19 novembre 2026"),
    ("es", "jueves", "19 de noviembre de 2026"),
    ("ja", "木曜日", "2026年11月19日"),
    ("ko", "목요일", "2026년 11월 19일"),
    ("ru", "четверг", "19 ноября 2026 г."),
    ("uk", "четвер", "19 листопада 2026 р."),
    ("el", "Πέμπτη", "19 Νοεμβρίου 2026"),
    ("ar", "الخميس", "19 نوفمبر 2026"),
    ("hi", "गुरुवार", "19 नवंबर 2026"),
    ("tr", "Perşembe", "19 Kasım 2026"),
    ("pl", "czwartek", "19 listopada 2026"),
])
def test_weekday_names_and_long_dates_come_from_cldr(language, weekday, long_date):
    clock = Clock(locale=language)
    assert clock.expand("{weekday+1d}") == weekday
    # CLDR puts narrow no-break spaces in some dates ("2026\u202fг."); the matcher folds them.
    assert clock.expand("{date:+15d}").replace("\u202f", " ").replace("\xa0", " ") == long_date


def test_the_weekday_token_is_the_stand_alone_name_so_inflected_forms_contain_it():
    # Finnish says "torstaina" (on Thursday) in a sentence; the name is "torstai".
    assert Clock(locale="fi").expand("{weekday+1d}") == "torstai"


@pytest.mark.parametrize("language", LANGUAGES)
def test_all_30_languages_have_seven_distinct_weekday_names_and_a_long_date(language):
    clock = Clock(locale=language)
    names = [clock.expand(f"{{weekday+{n}d}}") for n in range(7)]
    assert len(set(names)) == 7 and all(names)
    english = [DUBLIN.expand(f"{{weekday+{n}d}}") for n in range(7)]
    if language != "en":
        assert names != english
    long_date = clock.expand("{date:+15d}")
    assert "2026" in long_date and "19" in long_date
    datetime_text = clock.expand("{datetime:+1d 10:00}")
    assert "10" in datetime_text and "2026" in datetime_text and "'" not in datetime_text


@pytest.mark.parametrize("text", [
    "{+1x}", "{iso:tomorrow}", "{weekdy+1d}", "{date:+1d 25:00}", "{iso}", "{weekday}", "{utc:+1d 9:5}",
])
def test_a_malformed_token_is_an_error_naming_it_not_a_silent_literal(text):
    with pytest.raises(ValueError, match="bad token"):
        DUBLIN.expand(f"call at {text} please")


@pytest.mark.parametrize("text", ['{"a": -1}', "{x}", "{}", "{name}", 'f(x) {return -1;}'])
def test_braces_that_are_not_token_shaped_are_left_alone(text):
    assert DUBLIN.expand(text) == text


def test_expand_data_expands_every_string_and_names_the_place_of_a_bad_token():
    data = {"calls": [{"tool": "schedule_task", "args": ["{+1d}T07:30", 3]}], "answer": "{weekday+1d}"}
    assert DUBLIN.expand_data(data) == {
        "calls": [{"tool": "schedule_task", "args": ["2026-11-05T07:30", 3]}], "answer": "Thursday"}
    with pytest.raises(ValueError, match=r"expect\.calls\[0\]\.args\[1\]: bad token \{iso:soon\}"):
        DUBLIN.expand_data({"calls": [{"args": ["ok", "{iso:soon}"]}]}, "expect")


def test_find_tokens_lists_valid_and_malformed_tokens():
    assert find_tokens("a {+1d} b {iso:oops} c {\"json\": 1}") == ["{+1d}", "{iso:oops}"]


def test_unknown_time_zone_or_locale_is_a_format_error():
    with pytest.raises(FormatError, match="time zone"):
        Clock(time_zone="Mars/Olympus_Mons")
    with pytest.raises(FormatError, match="locale"):
        Clock(locale="xx_YY")


def test_clock_for_reads_the_phone_and_falls_back_to_the_language():
    clock = clock_for({}, "de")
    assert (clock.time_zone, clock.locale) == ("UTC", "de")
    assert clock_for({"timeZone": "Asia/Seoul", "locale": "ko_KR"}, "ko").expand("{iso:now}") == \
        "2026-11-04T10:30:00+09:00"
