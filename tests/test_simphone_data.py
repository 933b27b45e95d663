"""The phone's data: building a Phone from a scenario's ``phone`` object, as docs/phone-data.md
says (relative times, tokens, derived ids, shorthands, clear errors for bad data)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import orjson
import pytest
from test_simphone_support import DUBLIN_PHONE, make_phone

from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.errors import FormatError
from simphone import Phone

DOC = Path(__file__).resolve().parent.parent / "docs" / "phone-data.md"


def phone_of(data: dict, language: str = "en") -> Phone:
    return Phone.from_scenario(data, clock_for(data, language))


def test_relative_times_resolve_from_the_moment_in_the_phone_zone():
    phone = phone_of({"timeZone": "Asia/Tokyo", "events": [
        {"title": "a", "start": "+1d 10:00"}, {"title": "b", "start": "-2h"},
        {"title": "c", "start": "2026-11-06T08:15"}, {"title": "d", "start": "2026-11-06T08:15+01:00"}]})
    starts = [e.start.strftime("%Y-%m-%d %H:%M %Z") for e in phone.events]
    assert starts == ["2026-11-05 10:00 JST", "2026-11-04 08:30 JST", "2026-11-06 08:15 JST",
                      "2026-11-06 16:15 JST"]
    # The default length of an event is an hour.
    assert phone.events[0].end - phone.events[0].start == timedelta(hours=1)


def test_tokens_in_text_are_expanded_in_the_phone_language():
    phone = phone_of({"locale": "de_DE", "timeZone": "Europe/Berlin",
                      "files": [{"name": "Brief {+1d}.txt", "text": "Termin am {weekday+1d}, {date:+15d}"}]},
                     "de")
    assert phone.files[0].name == "Brief 2026-11-05.txt"
    assert phone.files[0].text == "Termin am Donnerstag, 19. November 2026"


def test_missing_ids_are_derived_from_the_position_among_their_kind():
    phone = make_phone()
    assert [e.id for e in phone.events] == ["evt-1", "evt-2", "evt-3", "evt-4", "evt-5"]
    # Alarms and timers share a list but count apart.
    assert [a.id for a in phone.alarms] == ["alm-1", "alm-2", "alm-3", "tmr-1"]
    assert phone.music.songs[0].id == "song-1" and phone.music.playlists[0].id == "pl-1"


def test_explicit_ids_are_kept_and_new_items_continue_after_the_highest():
    phone = phone_of({"events": [{"id": "evt-7", "title": "a", "start": "+1d"},
                                 {"id": "dentist", "title": "b", "start": "+2d"}]})
    assert [e.id for e in phone.events] == ["evt-7", "dentist"]
    assert phone.new_id("events") == "evt-8"


def test_a_derived_id_that_collides_with_an_explicit_one_is_an_error():
    with pytest.raises(FormatError, match=r"phone\.events.*evt-2"):
        phone_of({"events": [{"id": "evt-2", "title": "a", "start": "+1d"},
                             {"title": "b", "start": "+2d"}]})


def test_duplicate_ids_are_an_error():
    with pytest.raises(FormatError, match="duplicate id 'x'"):
        phone_of({"contacts": [{"id": "x", "name": "A"}, {"id": "x", "name": "B"}]})


@pytest.mark.parametrize("data, field, words", [
    ({"events": [{"title": "a", "start": "tomorrow"}]}, "phone.events[0].start", "relative time"),
    ({"events": [{"title": "a", "start": "+1d", "descripton": "x"}]}, "phone.events[0].descripton",
     "unknown field"),
    ({"reminders": [{"due": "+1d"}]}, "phone.reminders[0].title", "required"),
    ({"alarms": [{"label": "x"}]}, "phone.alarms[0]", "needs time"),
    ({"alarms": [{"time": "07:00", "repeat": "fridays"}]}, "phone.alarms[0].repeat", "mon..sun"),
    ({"places": [{"name": "x", "hours": "9-5"}]}, "phone.places[0].hours", "09:00-19:00"),
    ({"routes": [{"to": "x", "mode": "train", "duration": "PT5M"}]}, "phone.routes[0].mode", "transit"),
    ({"routes": [{"to": "x", "mode": "walking", "duration": 25}]}, "phone.routes[0].duration", "PT25M"),
    ({"health": [{"metric": "steps", "date": "-1d"}]}, "phone.health[0]", "needs value"),
    ({"device": {"permissions": {"contacts": "no"}}}, "phone.device.permissions.contacts", "denied"),
    ({"device": {"battery": 140}}, "phone.device.battery", "100"),
    ({"files": [{"name": "x", "text": "on {weekday+1x}"}]}, "phone.files[0].text", "bad token"),
    ({"events": [{"title": "a", "start": "+1d 10:00", "end": "+1d 09:00"}]}, "phone.events[0]",
     "end must be after start"),
])
def test_bad_data_names_the_field_and_what_was_expected(data, field, words):
    with pytest.raises(FormatError) as raised:
        phone_of(data)
    message = str(raised.value)
    assert f"field {field}" in message and words in message, message
    assert "\n" not in message  # one bad field, one line


def test_several_bad_fields_are_all_reported():
    with pytest.raises(FormatError) as raised:
        phone_of({"events": [{"title": "a"}], "contacts": [{"phone": "+353 00 1"}]})
    assert str(raised.value).count("\n") == 1


def test_shorthands_and_map_forms():
    phone = phone_of({
        "contacts": [{"name": "A", "phone": "+353 00 1", "email": "a@mail.example",
                      "phones": [{"label": "work", "number": "+353 00 2"}]}],
        "pages": {"https://a.example/x": "text", "https://b.example": {"title": "B", "text": "b"}},
        "health": {"steps": [{"date": "-1d", "value": 5}], "weight": {"date": "-1d", "value": 70}},
    })
    contact = phone.contacts[0]
    assert [(p.label, p.number) for p in contact.phones] == [("mobile", "+353 00 1"), ("work", "+353 00 2")]
    assert contact.emails[0].address == "a@mail.example"
    assert [(p.url, p.title) for p in phone.pages] == [("https://a.example/x", None), ("https://b.example", "B")]
    assert [s.metric for s in phone.health] == ["steps", "weight"]


def test_all_day_events_cover_whole_days_and_end_on_the_last_day_inclusive():
    trip = make_phone().events[4]
    assert trip.start == datetime(2026, 11, 13, tzinfo=trip.start.tzinfo)
    assert trip.end == datetime(2026, 11, 17, tzinfo=trip.start.tzinfo)


def test_timers_start_at_the_moment_unless_told_and_albums_come_from_songs():
    phone = phone_of({"alarms": [{"kind": "timer", "duration": "PT5M"}],
                      "music": {"songs": [{"title": "Nobody", "artist": "Mitski", "album": "Be the Cowboy"}]}})
    assert phone.alarms[0].started == phone.now
    assert [(a.id, a.title, a.artist) for a in phone.music.albums] == [("alb-1", "Be the Cowboy", "Mitski")]


def test_an_empty_phone_is_a_phone():
    phone = phone_of({})
    assert phone.events == [] and phone.device.allows("contacts") and phone.location is None


def test_the_phone_is_not_an_object():
    with pytest.raises(FormatError, match="field phone: expected an object"):
        Phone.from_scenario(["events"], clock_for({}, "en"))


def _doc_examples() -> list[tuple[int, dict]]:
    """Every JSON example of docs/phone-data.md, as a phone object."""
    out = []
    for n, block in enumerate(re.findall(r"```json\n(.*?)```", DOC.read_text(), flags=re.S)):
        if "[...]" in block:
            continue  # the overview of the top-level keys
        text = block.strip()
        out.append((n, orjson.loads(text if text.startswith("{") else "{" + text + "}")))
    return out


@pytest.mark.parametrize("n, example", _doc_examples(), ids=lambda v: str(v) if isinstance(v, int) else "")
def test_every_example_of_the_contract_loads(n, example):
    phone = phone_of(example)
    loaded = phone.model_dump(exclude_defaults=True)
    for key in example:
        assert key in loaded or key in ("device",), key


def test_the_contract_documents_every_top_level_key_and_every_field():
    text = DOC.read_text()
    for key in DUBLIN_PHONE:
        assert f"`{key}`" in text, key
    from simphone import data
    for model in (data.Event, data.Reminder, data.Alarm, data.ScheduledTask, data.Contact,
                  data.Place, data.Route, data.Weather, data.WeatherDay, data.WebResult,
                  data.File, data.Photo, data.HealthSample, data.Device):
        for name, field in model.model_fields.items():
            assert f"`{field.alias or name}`" in text, f"{model.__name__}.{name}"
