"""Realistic turns: a phone built from a scenario answers a sequence of calls the way a user
expects, each call built only from what the earlier results said (as a model would)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from test_simphone_support import fails, make_phone, ok


def ids(text: str) -> list[str]:
    return re.findall(r"id: ([\w-]+)", text)


def test_text_my_sister_i_am_on_my_way():
    phone = make_phone()
    found = ok(phone, "search_contacts", query="my sister")
    (sister,) = ids(found)
    sent = ok(phone, "send_message", to=sister, text="I'm on my way")
    assert sent == "Message sent to Aoife Byrne (+353 00 111 2233): \"I'm on my way\""
    # Not the other Aoife.
    assert [m.address for m in phone.messages] == ["+353 00 111 2233"]


def test_find_a_free_hour_tomorrow_afternoon_and_book_it():
    phone = make_phone()
    day = ok(phone, "list_events", start="2026-11-05T12:00", end="2026-11-05T18:00")
    busy = [(datetime.fromisoformat(f"{d}T{a}"), datetime.fromisoformat(f"{d}T{b}"))
            for d, a, b in re.findall(r"(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})-(\d{2}:\d{2})", day)]
    assert busy == [(datetime(2026, 11, 5, 12, 30), datetime(2026, 11, 5, 13, 30))]
    slot = datetime(2026, 11, 5, 12, 0)
    while any(start < slot + timedelta(hours=1) and slot < end for start, end in busy):
        slot += timedelta(minutes=30)
    booked = ok(phone, "create_event", title="Call with the landlord", start=f"{slot:%Y-%m-%dT%H:%M}")
    assert booked == "Created event id: evt-6 | Thu 2026-11-05 13:30-14:30 | Call with the landlord"
    assert "evt-6" in ok(phone, "list_events", start="2026-11-05")


def test_tick_off_the_bank_reminder_then_list_what_is_left():
    phone = make_phone()
    (bank,) = ids(ok(phone, "list_reminders", query="bank"))
    ok(phone, "complete_reminder", id=bank)
    left = ok(phone, "list_reminders")
    assert left.startswith("2 open reminders:") and "bank" not in left.lower()


def test_move_my_dentist_to_friday_same_time():
    phone = make_phone()
    (dentist,) = ids(ok(phone, "list_events", start="2026-11-04", end="2026-11-11", query="dentist"))
    # The dentist is Friday 6 November 09:00; "Friday same time" of next week is the 13th.
    moved = ok(phone, "update_event", id=dentist, start="2026-11-13T09:00")
    assert "Fri 2026-11-13 09:00-09:45 | Dentist" in moved and "(was Fri 2026-11-06 09:00-09:45)" in moved


def test_text_marta_the_address_of_my_lunch():
    phone = make_phone()
    lunch = ok(phone, "list_events", start="2026-11-05", query="lunch")
    address = re.search(r"location: ([^|\n]+)", lunch).group(1).strip()
    (marta,) = ids(ok(phone, "search_contacts", query="Marta"))
    ok(phone, "send_message", to=marta, text=f"Lunch is at {address}")
    assert phone.messages[0].text == "Lunch is at The Fumbally, Dublin 8"
    assert phone.messages[0].address == "+34 00 612 345 678"


def test_call_jorg_after_a_first_search_misses():
    phone = make_phone()
    assert fails(phone, "place_call", to="Jorge Webber").startswith("Error: no contact matches")
    retry = ok(phone, "search_contacts", query="Weber")
    (jorg,) = ids(retry)
    assert ok(phone, "place_call", to=jorg) == "Calling Jörg Weber (mobile +49 00 1234567)..."


def test_weather_there_is_the_place_of_a_calendar_event():
    phone = make_phone({"events": [{"title": "Conference", "start": "+3d 09:00", "end": "+3d 17:00",
                                    "location": "Centre de Congrès, 50 Quai Charles de Gaulle, Lyon"}]})
    event = ok(phone, "list_events", start="2026-11-07")
    place = re.search(r"location: ([^|\n]+)", event).group(1).strip()
    weather = ok(phone, "get_weather", place=place, start="2026-11-07")
    assert "Lyon, France" in weather and "precipitation 85%" in weather


def test_when_to_leave_for_the_airport_by_train_and_set_an_alarm_before():
    phone = make_phone()
    route = ok(phone, "get_directions", to="airport", mode="transit", arriveBy="2026-11-05T07:00")
    leave = re.search(r"leave \w+ (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})", route)
    assert leave.groups() == ("2026-11-05", "06:10")
    wake = datetime.fromisoformat(f"{leave.group(1)}T{leave.group(2)}") - timedelta(minutes=45)
    assert "Thu 2026-11-05 05:25" in ok(phone, "schedule_alarm", time=f"{wake:%Y-%m-%dT%H:%M}", label="Airport")


def test_play_something_by_mitski_then_turn_it_down():
    phone = make_phone()
    (artist, *_) = ids(ok(phone, "search_music", query="Mitski", type="artist"))
    assert ok(phone, "play_music", query=artist).startswith("Now playing: Nobody by Mitski")
    ok(phone, "control_playback", action="volume", volume=25)
    assert "volume: 25%" in ok(phone, "get_device_status")


def test_a_new_contact_can_be_messaged_in_the_same_turn():
    phone = make_phone()
    (new,) = ids(ok(phone, "save_contact", name="Ciarán Walsh", phone="+353 00 999 0000"))
    assert ok(phone, "send_message", to="Ciarán", text="Welcome!") == \
        'Message sent to Ciarán Walsh (+353 00 999 0000): "Welcome!"'
    assert new == "con-6"


def test_a_german_phone_finds_mutti_and_books_in_berlin_time():
    base = {"locale": "de_DE", "timeZone": "Europe/Berlin",
            "contacts": [{"name": "Ingrid Schmidt", "relation": "mother", "phone": "+49 00 5550001"},
                         {"name": "Ingrid Bauer", "company": "Nordlicht GmbH", "phone": "+49 00 5550002"}],
            "events": [{"title": "Zahnarzt {weekday+2d}", "start": "+2d 08:00"}]}
    phone = make_phone(base=base, language="de")
    (mum,) = ids(ok(phone, "search_contacts", query="Mama"))
    ok(phone, "send_message", to=mum, text="Ich komme am Freitag")
    assert phone.messages[0].to == "Ingrid Schmidt"
    assert "Zahnarzt Freitag" in ok(phone, "list_events", start="2026-11-06")
