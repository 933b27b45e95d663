"""Calendar tools: ranges in the phone's zone (also across midnight), writes the next read sees,
conflicts, ids, permission denial, bad arguments and an empty calendar."""

from __future__ import annotations

from test_simphone_support import call, fails, make_phone, ok


def test_a_day_lists_the_events_that_overlap_it_in_time_order_with_ids():
    text = ok(make_phone(), "list_events", start="2026-11-05")
    assert text.splitlines() == [
        "3 events on Thu 2026-11-05:",
        "- id: evt-1 | Thu 2026-11-05 10:00-10:30 | Team sync | attendees: Marta Ruiz, Sam Okafor | calendar: Work",
        "- id: evt-3 | Thu 2026-11-05 12:30-13:30 | Lunch with Marta | location: The Fumbally, Dublin 8",
        "- id: evt-4 | Thu 2026-11-05 23:00 to Fri 2026-11-06 01:00 | Late show | location: Vicar Street",
    ]


def test_an_event_across_midnight_shows_on_both_days_and_in_a_range_across_midnight():
    phone = make_phone()
    assert "Late show" in ok(phone, "list_events", start="2026-11-06")
    text = ok(phone, "list_events", start="2026-11-05T22:00", end="2026-11-06T02:00")
    assert text.startswith("1 event between Thu 2026-11-05 22:00 and Fri 2026-11-06 02:00:")
    assert "evt-4" in text


def test_a_range_of_days_includes_its_last_day_and_all_day_events():
    text = ok(make_phone(), "list_events", start="2026-11-13", end="2026-11-16")
    assert text.splitlines() == [
        "1 event between Fri 2026-11-13 and Mon 2026-11-16:",
        "- id: evt-5 | Fri 2026-11-13 to Mon 2026-11-16 all day | Lisbon trip",
    ]


def test_ranges_are_read_in_the_phone_time_zone():
    base = {"timeZone": "Pacific/Auckland", "locale": "en_NZ",
            "events": [{"title": "Early flight", "start": "+1d 00:30"}]}
    phone = make_phone(base=base)
    assert "Early flight" in ok(phone, "list_events", start="2026-11-05")
    assert ok(phone, "list_events", start="2026-11-04") == "No events found on Wed 2026-11-04."


def test_a_query_filters_by_title_place_notes_or_attendee_ignoring_case_and_accents():
    phone = make_phone()
    assert "evt-1" in ok(phone, "list_events", start="2026-11-04", end="2026-11-10", query="sam")
    assert "evt-3" in ok(phone, "list_events", start="2026-11-04", end="2026-11-10", query="FUMBALLY")
    text = ok(phone, "list_events", start="2026-11-04", end="2026-11-10", query="dentist")
    assert text.startswith("1 event") and "evt-2" in text
    assert ok(phone, "list_events", start="2026-11-04", end="2026-11-04", query="yoga") == \
        'No events found on Wed 2026-11-04 matching "yoga".'


def test_a_search_by_text_alone_looks_90_days_ahead_from_today():
    phone = make_phone()
    text = ok(phone, "list_events", query="lisbon")
    assert text.splitlines() == [
        '1 event between Wed 2026-11-04 and Mon 2027-02-01 matching "lisbon":',
        "- id: evt-5 | Fri 2026-11-13 to Mon 2026-11-16 all day | Lisbon trip",
    ]
    assert ok(phone, "list_events").startswith("No events found on Wed 2026-11-04")


def test_a_created_event_shows_in_the_next_list_and_reports_an_overlap():
    phone = make_phone()
    text = ok(phone, "create_event", title="Coffee with Aoife", start="2026-11-05T10:15",
              location="Bread 41")
    assert text.splitlines() == [
        "Created event id: evt-6 | Thu 2026-11-05 10:15-11:15 | Coffee with Aoife | location: Bread 41",
        "Overlaps: evt-1 Team sync (Thu 2026-11-05 10:00-10:30)",
    ]
    assert "evt-6 | Thu 2026-11-05 10:15-11:15 | Coffee with Aoife" in ok(phone, "list_events", start="2026-11-05")


def test_an_all_day_event_can_be_created():
    phone = make_phone()
    text = ok(phone, "create_event", title="Mum's birthday", start="2026-11-08T00:00", allDay=True)
    assert "Sun 2026-11-08 all day" in text and "Overlaps" not in text


def test_moving_an_event_keeps_its_length_and_says_where_it_was():
    phone = make_phone()
    text = ok(phone, "update_event", id="evt-2", start="2026-11-07T09:00")
    assert text == ("Updated event id: evt-2 | Sat 2026-11-07 09:00-09:45 | Dentist | "
                    "location: Pembroke Street Lower 9901, Dublin 2 (was Fri 2026-11-06 09:00-09:45)")
    assert ok(phone, "list_events", start="2026-11-06").count("Dentist") == 0
    assert "Dentist" in ok(phone, "list_events", start="2026-11-07")


def test_attendees_can_be_added_or_replaced():
    phone = make_phone()
    assert "attendees: Marta Ruiz, Sam Okafor, Aoife Kelly" in \
        ok(phone, "update_event", id="evt-1", addAttendees=["Aoife Kelly", "Sam Okafor"])
    assert "attendees: Jörg Weber |" in ok(phone, "update_event", id="evt-1", attendees=["Jörg Weber"])


def test_a_deleted_event_is_gone_and_its_id_is_not_reused():
    phone = make_phone()
    assert ok(phone, "delete_event", id="evt-3") == \
        "Deleted event evt-3: Lunch with Marta, Thu 2026-11-05 12:30-13:30"
    assert "Lunch" not in ok(phone, "list_events", start="2026-11-05")
    assert "id: evt-6" in ok(phone, "create_event", title="x", start="2026-11-05T12:30")


def test_unknown_ids_fail_with_how_to_find_the_id():
    phone = make_phone()
    assert fails(phone, "update_event", id="evt-42", title="x") == \
        "Error: no event with id 'evt-42'; call list_events to find its id"
    assert fails(phone, "delete_event", id="Dentist").startswith("Error: no event with id 'Dentist'")


def test_an_end_before_the_start_fails():
    phone = make_phone()
    assert "must be after start" in fails(phone, "create_event", title="x",
                                          start="2026-11-05T10:00", end="2026-11-05T09:00")
    assert "must be after start" in fails(phone, "list_events", start="2026-11-06", end="2026-11-05")


def test_bad_arguments_name_the_field_and_the_expected_form():
    phone = make_phone()
    assert fails(phone, "list_events", start="tomorrow") == (
        "Error: field 'start': expected a date like 2026-11-05 or a local date-time like "
        '2026-11-05T07:30, got "tomorrow"')
    assert fails(phone, "create_event", title="x", start="2026-11-05T25:00").startswith(
        "Error: start: '2026-11-05T25:00' is not a valid date-time")
    assert fails(phone, "create_event", start="2026-11-05T10:00") == "Error: missing required field 'title'"


def test_calendar_permission_denied():
    phone = make_phone({"device": {"permissions": {"calendar": "denied"}}})
    for name, args in (("list_events", {"start": "2026-11-05"}),
                       ("create_event", {"title": "x", "start": "2026-11-05T10:00"})):
        outcome = call(phone, name, **args)
        assert outcome.failed and outcome.matched
        assert outcome.text == ("Error: access to Calendars is denied for the assistant; the user can "
                                "allow it in Settings > Privacy & Security > Calendars")
    assert len(phone.events) == 5


def test_an_empty_calendar():
    phone = make_phone(base={"timeZone": "Europe/Dublin"})
    assert ok(phone, "list_events", start="2026-11-04", end="2026-11-10") == \
        "No events found between Wed 2026-11-04 and Tue 2026-11-10."


def test_events_in_other_scripts_are_found_by_their_own_words():
    phone = make_phone(base={"locale": "ja_JP", "timeZone": "Asia/Tokyo", "events": [
        {"title": "歯医者", "start": "+1d 15:00"}, {"title": "Встреча с Ольгой", "start": "+1d 17:00"}]}, language="ja")
    assert "歯医者" in ok(phone, "list_events", start="2026-11-05", query="歯医者")
    text = ok(phone, "list_events", start="2026-11-05", query="ольгой")
    assert text.startswith("1 event") and "Встреча" in text
