"""Health, photos, files, web and music: reads from the phone's data only, realistic not-found
answers, permissions, and the state play_music and control_playback change."""

from __future__ import annotations

from test_simphone_support import call, fails, make_phone, ok


# --- health ---------------------------------------------------------------------------------
def test_steps_per_day_with_total_average_and_extremes():
    text = ok(make_phone(), "get_health_data", metric="steps", start="2026-11-02", end="2026-11-04")
    assert text.splitlines() == [
        "steps from Mon 2026-11-02 to Wed 2026-11-04 (3 days):",
        "- Mon 2026-11-02: 10200 steps",
        "- Tue 2026-11-03: 8412 steps",
        "- Wed 2026-11-04: 3120 steps",
        "total 21732 steps; average 7244 steps per day over 3 days with data; lowest 3120 steps "
        "(Wed 2026-11-04), highest 10200 steps (Mon 2026-11-02)",
    ]


def test_sleep_is_hours_per_night_and_days_without_data_are_counted():
    text = ok(make_phone(), "get_health_data", metric="sleep", start="2026-11-01", end="2026-11-04")
    assert "- Wed 2026-11-04: 7.25 h (7 h 15 min)" in text
    assert text.splitlines()[-1].startswith("average 6.88 h (6 h 52 min) per night over 2 days with data")
    assert text.endswith("no data for 2 of 4 days")


def test_heart_rate_readings_are_averaged_per_day_and_listed_one_by_one():
    text = ok(make_phone(), "get_health_data", metric="heartRate", start="2026-11-03")
    assert text.splitlines()[1:4] == ["- Tue 2026-11-03: 86 bpm (min 62 bpm, max 110 bpm, 2 readings)",
                                      "  08:00 62 bpm", "  18:00 110 bpm"]


def test_workouts_list_each_session_with_totals():
    text = ok(make_phone(), "get_health_data", metric="workouts", start="2026-10-29", end="2026-11-04")
    assert text.splitlines() == [
        "1 workout from Thu 2026-10-29 to Wed 2026-11-04 (7 days):",
        "- Mon 2026-11-02 07:00 | running | 42 min | 7.1 km | 480 kcal",
        "total time 42 min; total distance 7.1 km; total energy 480 kcal",
    ]


def test_health_units_follow_a_us_locale():
    phone = make_phone({"locale": "en_US", "health": {"weight": [{"date": "-1d", "value": 72.5}],
                                                      "distance": [{"date": "-1d", "value": 5}]}})
    assert "159.8 lb" in ok(phone, "get_health_data", metric="weight", start="2026-11-03")
    assert "3.1 mi" in ok(phone, "get_health_data", metric="distance", start="2026-11-03")


def test_health_no_data_permission_and_bad_metric():
    phone = make_phone()
    assert ok(phone, "get_health_data", metric="flights", start="2026-11-04") == \
        "No flights data on Wed 2026-11-04."
    assert "one of steps, distance" in fails(phone, "get_health_data", metric="stress", start="2026-11-04")
    denied = make_phone({"device": {"permissions": {"health": "denied"}}})
    assert "Health is denied" in fails(denied, "get_health_data", metric="steps", start="2026-11-04")


# --- photos ---------------------------------------------------------------------------------
def test_photos_by_place_person_text_and_dates_newest_first():
    phone = make_phone()
    text = ok(phone, "search_photos", place="porto")
    assert text.splitlines() == [
        "2 photos found at porto, newest first:",
        "- id: pho-2 | Tue 2026-10-06 11:00 | Porto, Portugal | azulejo tiles on a church",
        "- id: pho-1 | Mon 2026-10-05 18:40 | Porto, Portugal | people: Aoife Byrne | sunset over the Douro | albums: Porto trip",
    ]
    assert "pho-1" in ok(phone, "search_photos", person="my sister")
    assert "pho-1" in ok(phone, "search_photos", query="Porto trip")
    recent = ok(phone, "search_photos", start="2026-11-01", end="2026-11-04")
    assert recent.startswith("1 photo") and "video" in recent
    assert ok(phone, "search_photos", query="snow") == 'No photos found matching "snow".'
    assert "Photos is denied" in fails(make_phone({"device": {"permissions": {"photos": "denied"}}}),
                                       "search_photos", query="x")


# --- files ----------------------------------------------------------------------------------
def test_files_by_name_or_content_then_read_with_tokens_expanded():
    phone = make_phone()
    found = ok(phone, "search_files", query="deposit")
    assert found.splitlines()[1] == ('- id: fil-1 | Lease - Ranelagh.pdf | iCloud Drive/Home | PDF | '
                                     'modified Sat 2026-09-05 10:30 | "Residential lease. The deposit is EUR '
                                     '2,400, payable before 14 November 2026."')
    assert ok(phone, "search_files", query="lease").startswith('1 file matching "lease":')
    text = ok(phone, "read_file", id="fil-1")
    assert "The deposit is EUR 2,400, payable before 14 November 2026." in text
    assert ok(phone, "read_file", id="Packing list.txt").endswith("Passport, charger, rain jacket.")
    assert fails(phone, "read_file", id="fil-9") == "Error: no file with id 'fil-9'; call search_files to find its id"
    assert ok(phone, "search_files", query="tax return") == 'No files found matching "tax return".'


# --- web ------------------------------------------------------------------------------------
def test_web_search_then_fetch_answers_only_from_the_phone():
    phone = make_phone()
    text = ok(phone, "search_web", query="Louvre opening hours Friday")
    assert text.splitlines()[:3] == ['1 result for "Louvre opening hours Friday":',
                                     "1. Louvre Museum: opening hours", "   https://www.louvre.fr/en/visit/hours"]
    page = ok(phone, "fetch_url", url="http://louvre.fr/en/visit/hours/")
    assert "until 21:45 on Wednesday and Friday" in page
    assert ok(phone, "search_web", query="best pizza in Naples") == 'No results found for "best pizza in Naples".'
    assert fails(phone, "fetch_url", url="https://www.irishrail.ie/en-ie/travel-updates") == \
        "Error: could not load https://www.irishrail.ie/en-ie/travel-updates (page not found)"


def test_the_web_needs_a_connection():
    offline = make_phone({"device": {"airplaneMode": True}})
    assert fails(offline, "search_web", query="louvre") == \
        "Error: no internet connection (the phone is offline, airplane mode is on)"
    no_signal = make_phone({"device": {"network": "none"}})
    assert fails(no_signal, "fetch_url", url="https://www.louvre.fr/en/visit/hours") == \
        "Error: no internet connection (the phone is offline)"


# --- music ----------------------------------------------------------------------------------
def test_the_library_is_searched_for_artists_albums_playlists_and_songs():
    text = ok(make_phone(), "search_music", query="mitski")
    assert text.splitlines() == [
        '4 results in your library for "mitski":',
        "- id: art-1 | artist | Mitski | 2 songs",
        "- id: alb-1 | album | Be the Cowboy | Mitski | 2 songs",
        "- id: song-1 | song | Nobody | Mitski | Be the Cowboy | 3:13",
        "- id: song-2 | song | Washing Machine Heart | Mitski | Be the Cowboy",
    ]
    assert ok(make_phone(), "search_music", query="cranberries", type="song").count("- id:") == 1
    assert ok(make_phone(), "search_music", query="Taylor Swift") == 'Nothing in your library matches "Taylor Swift".'


def test_albums_and_songs_show_their_year_so_the_newest_can_be_chosen():
    phone = make_phone({"music": {
        "songs": [{"title": "Nobody", "artist": "Mitski", "album": "Be the Cowboy", "year": 2018},
                  {"title": "My Love Mine All Mine", "artist": "Mitski",
                   "album": "The Land Is Inhospitable and So Are We", "year": 2023}],
        "albums": [{"title": "Be the Cowboy", "artist": "Mitski", "year": 2018},
                   {"title": "The Land Is Inhospitable and So Are We", "artist": "Mitski", "year": 2023}]}})
    text = ok(phone, "search_music", query="mitski", type="album")
    assert "| Be the Cowboy | Mitski | 1 song | 2018" in text
    assert "| The Land Is Inhospitable and So Are We | Mitski | 1 song | 2023" in text


def test_play_an_artist_then_skip_pause_and_resume():
    phone = make_phone()
    assert ok(phone, "play_music", query="Mitski", shuffle=True) == (
        "Now playing: Nobody by Mitski (album Be the Cowboy). Queue: artist Mitski, 2 songs; shuffle on.")
    assert phone.music.playback.state == "playing" and phone.music.playback.queue == ["song-1", "song-2"]
    assert ok(phone, "control_playback", action="next") == \
        "Now playing: Washing Machine Heart by Mitski (album Be the Cowboy)."
    assert fails(phone, "control_playback", action="next") == "Error: there is no next song in the queue"
    assert ok(phone, "control_playback", action="repeat_all") == "Repeat all."
    assert ok(phone, "control_playback", action="next").startswith("Now playing: Nobody")
    assert ok(phone, "control_playback", action="pause") == "Paused: Nobody by Mitski (album Be the Cowboy)."
    assert fails(phone, "control_playback", action="pause").startswith("Error: nothing is playing")
    assert ok(phone, "control_playback", action="resume").startswith("Playing: Nobody")


def test_play_a_playlist_by_name_or_a_song_by_id():
    phone = make_phone()
    assert "Queue: playlist Running, 2 songs" in ok(phone, "play_music", query="running")
    assert phone.music.playback.queue == ["song-3", "song-1"]
    assert ok(phone, "play_music", query="song-2").startswith("Now playing: Washing Machine Heart")
    assert fails(phone, "play_music", query="Bohemian Rhapsody") == (
        "Error: nothing in the library matches 'Bohemian Rhapsody'; call search_music to see what is there")


def test_volume_is_the_device_volume_and_needs_a_value():
    phone = make_phone()
    assert ok(phone, "control_playback", action="volume", volume=30) == "Volume set to 30%."
    assert phone.device.volume == 30
    assert "needs volume" in fails(phone, "control_playback", action="volume")
    assert "from 0 to 100" in fails(phone, "control_playback", action="volume", volume=150)


def test_nothing_to_control_and_music_permission():
    phone = make_phone({"music": {}})
    assert fails(phone, "control_playback", action="resume") == \
        "Error: nothing is playing; use play_music to start something"
    denied = make_phone({"device": {"permissions": {"music": "denied"}}})
    assert "Media & Apple Music is denied" in fails(denied, "play_music", query="Mitski")
    assert call(denied, "get_device_status").failed is False
