"""Shared data of the simphone tests (no tests here): a realistic phone in Dublin and helpers to
call tools on it. All people, companies and accounts are fictional; streets and places are real."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from orvena_bench.formats.catalog import Catalog, load_catalog
from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.paths import catalog_path
from orvena_bench.formats.tooling import ToolOutcome
from simphone import Phone, run_tool

# Wednesday 2026-11-04 10:30 in Dublin is the moment of every test phone.
DUBLIN_PHONE: dict[str, Any] = {
    "locale": "en_IE",
    "timeZone": "Europe/Dublin",
    "location": {"place": "Grand Canal Dock, Dublin", "lat": 53.3394, "lon": -6.2385,
                 "address": "Grand Canal Quay, Dublin 2"},
    "events": [
        {"title": "Team sync", "start": "+1d 10:00", "duration": "PT30M",
         "attendees": ["Marta Ruiz", "Sam Okafor"], "calendar": "Work"},
        {"title": "Dentist", "start": "+2d 09:00", "end": "+2d 09:45",
         "location": "Pembroke Street Lower 9901, Dublin 2"},
        {"title": "Lunch with Marta", "start": "+1d 12:30", "end": "+1d 13:30",
         "location": "The Fumbally, Dublin 8"},
        {"title": "Late show", "start": "+1d 23:00", "end": "+2d 01:00", "location": "Vicar Street"},
        {"title": "Lisbon trip", "start": "+9d", "end": "+12d", "allDay": True},
    ],
    "reminders": [
        {"title": "Call the bank", "due": "+1d 09:00", "list": "Personal"},
        {"title": "Oat milk", "list": "Groceries"},
        {"title": "Pay rent", "due": "-3d 09:00", "completed": True, "list": "Personal"},
        {"title": "Renew car tax", "due": "-1d 18:00", "list": "Personal", "priority": "high"},
    ],
    "alarms": [
        {"time": "06:45", "repeat": "weekdays", "label": "Work"},
        {"time": "+3d 08:30", "label": "Flight check-in"},
        {"time": "09:00", "repeat": ["sat", "sun"], "enabled": False},
        {"kind": "timer", "label": "Pasta", "duration": "PT12M", "started": "-4m"},
    ],
    "tasks": [{"instruction": "Summarise unread email", "time": "+1d 08:00", "repeat": "weekdays"}],
    "contacts": [
        {"name": "Aoife Byrne", "relation": "sister", "phone": "+353 00 111 2233",
         "email": "aoife.byrne@mail.example"},
        {"name": "Aoife Kelly", "company": "Liffey Analytics", "jobTitle": "Designer",
         "phones": [{"label": "work", "number": "+353 00 444 5566"}]},
        {"name": "Siobhán Byrne", "relation": "mother", "aliases": ["Mam"],
         "phone": "+353 00 777 8899", "address": "Ranelagh Road 9902, Dublin 6"},
        {"name": "Jörg Weber", "relation": "boss", "company": "Liffey Analytics",
         "phone": "+49 00 1234567"},
        {"name": "Marta Ruiz", "relation": "colleague", "phone": "+34 00 612 345 678"},
    ],
    "places": [
        {"name": "Hickey's Pharmacy", "category": "pharmacy", "address": "55 Grafton Street, Dublin 2",
         "lat": 53.3412, "lon": -6.2600, "phone": "+353 00 679 0467", "rating": 4.2,
         "hours": {"weekdays": "08:30-19:00", "sat": "09:00-18:00", "sun": "closed"}},
        {"name": "Boots Pharmacy", "category": "pharmacy", "address": "Grand Canal Street Upper, Dublin 4",
         "lat": 53.3380, "lon": -6.2405, "hours": "08:00-22:00"},
        {"name": "Bread 41", "category": "bakery café", "tags": ["coffee", "café"],
         "address": "41 Pearse Street, Dublin 2", "lat": 53.3440, "lon": -6.2480,
         "hours": {"weekdays": "07:30-16:00", "weekends": "08:30-16:00"}},
        {"name": "Colosseum", "category": "landmark", "address": "Piazza del Colosseo, Roma",
         "lat": 41.8902, "lon": 12.4922, "hours": "08:30-16:30"},
        {"name": "Caffè Propaganda", "category": "café", "address": "Via Claudia 15, Roma",
         "lat": 41.8887, "lon": 12.4950, "hours": "08:00-01:00"},
        {"name": "Whelan's", "category": "pub", "address": "25 Wexford Street, Dublin 2",
         "lat": 53.3362, "lon": -6.2655, "hours": "18:00-02:00"},
    ],
    "routes": [
        {"to": "Dublin Airport (DUB)", "mode": "driving", "duration": "PT35M", "distance": 14.2,
         "summary": "via M1", "traffic": "moderate in the Port Tunnel"},
        {"to": "Dublin Airport (DUB)", "mode": "transit", "duration": "PT50M",
         "summary": "Aircoach 700 from Leeson Street", "departures": ["05:10", "05:40", "06:10", "06:40"]},
        {"from": "Heuston Station", "to": "Guinness Storehouse", "mode": "walking",
         "duration": "PT15M", "distance": 1.1},
    ],
    "weather": [
        {"place": "Dublin, Ireland", "current": {"temperature": 9, "condition": "light rain", "wind": 25},
         "days": [{"date": "+0d", "condition": "showers", "high": 11, "low": 6, "precipitation": 70},
                  {"date": "+1d", "condition": "cloudy", "high": 12, "low": 7, "precipitation": 20}]},
        {"place": "Lyon, France",
         "days": [{"date": "+3d", "condition": "rain", "high": 10, "low": 6, "precipitation": 85,
                   "rain": 12, "hourly": [{"time": "+3d 15:00", "temperature": 9,
                                           "condition": "heavy rain", "precipitation": 90}]},
                  {"date": "+4d", "condition": "sunny", "high": 14, "low": 5, "precipitation": 0}]},
    ],
    "web": [
        {"title": "Louvre Museum: opening hours", "url": "https://www.louvre.fr/en/visit/hours",
         "snippet": "Open every day except Tuesday.", "keywords": ["louvre", "opening hours"]},
        {"title": "DART service updates", "url": "https://www.irishrail.ie/en-ie/travel-updates",
         "snippet": "Planned works on the DART line this weekend.", "keywords": ["dart", "delays"]},
    ],
    "pages": {"https://www.louvre.fr/en/visit/hours":
              "The museum is open 9:00-18:00, and until 21:45 on Wednesday and Friday. Closed on Tuesdays."},
    "files": [
        {"name": "Lease - Ranelagh.pdf", "folder": "iCloud Drive/Home", "kind": "PDF", "modified": "-60d",
         "text": "Residential lease. The deposit is EUR 2,400, payable before {date:+10d}."},
        {"name": "Packing list.txt", "text": "Passport, charger, rain jacket."},
    ],
    "photos": [
        {"time": "-30d 18:40", "place": "Porto, Portugal", "people": ["Aoife Byrne"],
         "description": "sunset over the Douro", "albums": ["Porto trip"]},
        {"time": "-29d 11:00", "place": "Porto, Portugal", "description": "azulejo tiles on a church"},
        {"time": "-2d 20:15", "place": "Dublin, Ireland", "people": ["Marta Ruiz"],
         "description": "team dinner", "kind": "video"},
    ],
    "health": {
        "steps": [{"date": "-2d", "value": 10200}, {"date": "-1d", "value": 8412}, {"date": "+0d", "value": 3120}],
        "sleep": [{"date": "-1d", "value": 6.5}, {"date": "+0d", "value": 7.25}],
        "heartRate": [{"time": "-1d 08:00", "value": 62}, {"time": "-1d 18:00", "value": 110}],
        "workouts": [{"time": "-2d 07:00", "type": "running", "duration": "PT42M", "distance": 7.1,
                      "energy": 480}],
    },
    "music": {
        "songs": [{"title": "Nobody", "artist": "Mitski", "album": "Be the Cowboy", "duration": "PT3M13S"},
                  {"title": "Washing Machine Heart", "artist": "Mitski", "album": "Be the Cowboy"},
                  {"title": "Dreams", "artist": "The Cranberries", "album": "Everybody Else Is Doing It"}],
        "playlists": [{"name": "Running", "songs": ["Dreams", "song-1"]}],
        "playback": {"state": "paused", "song": "Nobody"},
    },
    "device": {"battery": 54, "network": "wifi", "wifiName": "Home", "carrier": "Vodafone IE"},
}


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    return load_catalog(catalog_path())


def make_phone(changes: dict[str, Any] | None = None, base: dict[str, Any] | None = None,
               language: str = "en") -> Phone:
    """A fresh phone: the base data (Dublin by default) with top-level keys replaced."""
    data = copy.deepcopy(DUBLIN_PHONE if base is None else base)
    data.update(copy.deepcopy(changes or {}))
    return Phone.from_scenario(data, clock_for(data, language))


def call(phone: Phone, tool: str, /, **arguments: Any) -> ToolOutcome:
    return run_tool(phone, tool, arguments, catalog())


def ok(phone: Phone, tool: str, /, **arguments: Any) -> str:
    """The text of a call that must succeed."""
    outcome = call(phone, tool, **arguments)
    assert not outcome.failed, outcome.text
    assert outcome.matched
    return outcome.text


def fails(phone: Phone, tool: str, /, **arguments: Any) -> str:
    """The text of a call that must fail; failures are one line starting "Error:"."""
    outcome = call(phone, tool, **arguments)
    assert outcome.failed, outcome.text
    assert outcome.text.startswith("Error: ") and "\n" not in outcome.text, outcome.text
    return outcome.text
