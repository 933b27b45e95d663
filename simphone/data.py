"""The phone's data: one pydantic model per list a scenario's ``phone`` holds.

The contract for scenario writers is ``docs/phone-data.md``; this module is its code. Times are
read with the run's clock, which validation receives as ``context={"clock": clock}``. Unknown
fields are errors, so a misspelt field fails loudly instead of silently losing data.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, field_validator,
    model_validator,
)

from orvena_bench.formats.clock import Clock
from simphone import times

Permission = Literal[
    "calendar", "reminders", "contacts", "location", "photos", "health", "files",
    "notifications", "music", "network",
]
RouteMode = Literal["driving", "walking", "transit", "cycling"]
Focus = Literal["off", "do-not-disturb", "sleep", "work", "personal", "driving", "fitness"]
HealthMetric = Literal[
    "steps", "distance", "flights", "activeEnergy", "exerciseMinutes", "heartRate",
    "restingHeartRate", "sleep", "weight", "workouts",
]
# Units of each health metric's value, as documented in docs/phone-data.md.
HEALTH_UNITS: dict[str, str] = {
    "steps": "steps", "distance": "km", "flights": "floors", "activeEnergy": "kcal",
    "exerciseMinutes": "min", "heartRate": "bpm", "restingHeartRate": "bpm", "sleep": "h",
    "weight": "kg", "workouts": "",
}


def _clock(info: ValidationInfo) -> Clock:
    clock = (info.context or {}).get("clock")
    if clock is None:
        raise ValueError("phone data needs the run's clock (validate with context={'clock': ...})")
    return clock


def _time(value: Any, info: ValidationInfo) -> datetime:
    return times.phone_time(value, _clock(info))


def _date(value: Any, info: ValidationInfo) -> date:
    return times.phone_date(value, _clock(info))


def _list(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


PhoneTime = Annotated[datetime, BeforeValidator(_time)]
PhoneDate = Annotated[date, BeforeValidator(_date)]
ClockTime = Annotated[time, BeforeValidator(lambda v: times.clock_time(v))]
Duration = Annotated[timedelta, BeforeValidator(lambda v: times.duration(v))]
Words = Annotated[list[str], BeforeValidator(_list)]


def _repeat(value: Any) -> list[str]:
    """Repeat days as weekday codes; "daily", "weekdays" and "weekends" are shorthands."""
    out: list[str] = []
    for word in _list(value) or []:
        code = str(word).strip().lower()
        days = {"daily": times.WEEKDAY_CODES, "weekdays": times.WEEKDAY_CODES[:5],
                "weekends": times.WEEKDAY_CODES[5:]}.get(code, (code,))
        for day in days:
            if day not in times.WEEKDAY_CODES:
                raise ValueError(f"repeat: expected mon..sun, daily, weekdays or weekends, got {word!r}")
            if day not in out:
                out.append(day)
    return sorted(out, key=times.WEEKDAY_CODES.index)


Repeat = Annotated[list[str], BeforeValidator(_repeat)]


class Item(BaseModel):
    """Base of every phone item: unknown fields are errors; ids are given or derived."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Identified(Item):
    id: str | None = None


class Location(Item):
    place: str
    lat: float
    lon: float
    address: str | None = None


class Event(Identified):
    title: str
    start: PhoneTime
    end: PhoneTime | None = None
    duration: Duration | None = None
    allDay: bool = False
    location: str | None = None
    notes: str | None = None
    attendees: Words = Field(default_factory=list)
    calendar: str = "Calendar"

    @model_validator(mode="after")
    def _span(self) -> Event:
        if self.allDay:
            self.start = self.start.replace(hour=0, minute=0, second=0)
            # An all-day event's end names its last day.
            last = self.end.date() if self.end else self.start.date()
            self.end = datetime.combine(last + timedelta(days=1), time(), self.start.tzinfo)
        elif self.end is None:
            self.end = self.start + (self.duration or timedelta(hours=1))
        if self.end <= self.start:
            raise ValueError("end must be after start")
        return self


class Reminder(Identified):
    title: str
    due: PhoneTime | None = None
    list: str = "Reminders"
    notes: str | None = None
    location: str | None = None  # a place that triggers it ("when I get to work")
    priority: Literal["none", "low", "medium", "high"] = "none"
    completed: bool = False


class Alarm(Identified):
    """An alarm (``time``, optional ``repeat``) or, with ``kind: "timer"``, a countdown."""

    kind: Literal["alarm", "timer"] = "alarm"
    time: PhoneTime | None = None
    repeat: Repeat = Field(default_factory=list)
    label: str | None = None
    enabled: bool = True
    duration: Duration | None = None
    started: PhoneTime | None = None

    @model_validator(mode="after")
    def _shape(self, info: ValidationInfo) -> Alarm:
        if self.kind == "alarm" and self.time is None:
            raise ValueError("an alarm needs time")
        if self.kind == "timer":
            if self.duration is None:
                raise ValueError("a timer needs duration")
            if self.started is None:
                self.started = _clock(info).now
        return self

    @property
    def ends(self) -> datetime | None:
        return self.started + self.duration if self.kind == "timer" else None


class ScheduledTask(Identified):
    instruction: str
    time: PhoneTime
    repeat: Repeat = Field(default_factory=list)


class PhoneNumber(Item):
    label: str = "mobile"
    number: str


class Email(Item):
    label: str = "home"
    address: str


class Contact(Identified):
    name: str
    aliases: Words = Field(default_factory=list)
    relation: Words = Field(default_factory=list)
    company: str | None = None
    jobTitle: str | None = None
    phones: list[PhoneNumber] = Field(default_factory=list)
    emails: list[Email] = Field(default_factory=list)
    address: str | None = None
    birthday: PhoneDate | None = None
    notes: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthands(cls, data: Any) -> Any:
        # "phone": "+49 00 1234567" and "email": "a@b.example" are the one-number shorthands.
        if isinstance(data, dict):
            data = dict(data)
            if "phone" in data:
                data["phones"] = [{"number": data.pop("phone")}, *data.get("phones", [])]
            if "email" in data:
                data["emails"] = [{"address": data.pop("email")}, *data.get("emails", [])]
        return data


class Place(Identified):
    name: str
    category: str | None = None
    tags: Words = Field(default_factory=list)
    address: str | None = None
    lat: float | None = None
    lon: float | None = None
    phone: str | None = None
    website: str | None = None
    rating: float | None = None
    price: str | None = None
    hours: dict[str, str] | str | None = None
    notes: str | None = None

    @field_validator("hours")
    @classmethod
    def _hours(cls, value: Any) -> Any:
        from simphone.hours import parse_hours  # validates the shape once, at load
        parse_hours(value)
        return value


class Route(Identified):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    origin: str | None = Field(default=None, alias="from")
    to: str
    mode: RouteMode
    duration: Duration
    distance: float | None = None  # km
    summary: str | None = None
    traffic: str | None = None
    departures: list[ClockTime] = Field(default_factory=list)
    steps: list[str] = Field(default_factory=list)


class WeatherNow(Item):
    temperature: float
    condition: str
    feelsLike: float | None = None
    humidity: int | None = None
    wind: float | None = None  # km/h


class WeatherHour(Item):
    time: PhoneTime
    temperature: float
    condition: str | None = None
    precipitation: int | None = None  # chance in %


class WeatherDay(Item):
    date: PhoneDate
    condition: str
    high: float
    low: float
    precipitation: int | None = None  # chance in %
    rain: float | None = None  # mm
    wind: float | None = None  # km/h
    humidity: int | None = None
    sunrise: ClockTime | None = None
    sunset: ClockTime | None = None
    hourly: list[WeatherHour] = Field(default_factory=list)


class Weather(Item):
    place: str
    current: WeatherNow | None = None
    days: list[WeatherDay] = Field(default_factory=list)


class WebResult(Item):
    title: str
    url: str
    snippet: str = ""
    keywords: Words = Field(default_factory=list)


class Page(Item):
    url: str
    title: str | None = None
    text: str


class File(Identified):
    name: str
    folder: str = "iCloud Drive"
    kind: str | None = None
    modified: PhoneTime | None = None
    size: str | None = None
    text: str = ""


class Photo(Identified):
    time: PhoneTime
    kind: Literal["photo", "video", "screenshot", "live"] = "photo"
    place: str | None = None
    lat: float | None = None
    lon: float | None = None
    people: Words = Field(default_factory=list)
    description: str = ""
    albums: Words = Field(default_factory=list)
    favorite: bool = False


class HealthSample(Item):
    metric: HealthMetric
    date: PhoneDate | None = None
    time: PhoneTime | None = None
    value: float | None = None
    # Workouts: the activity, its length, distance (km) and energy (kcal).
    type: str | None = None
    duration: Duration | None = None
    distance: float | None = None
    energy: float | None = None

    @model_validator(mode="after")
    def _shape(self) -> HealthSample:
        if self.date is None and self.time is None:
            raise ValueError("a health sample needs date or time")
        if self.date is None:
            self.date = self.time.date()
        if self.metric == "workouts":
            if not self.type or self.duration is None:
                raise ValueError("a workout needs type and duration")
        elif self.value is None:
            raise ValueError(f"a {self.metric} sample needs value")
        return self


class Song(Identified):
    title: str
    artist: str
    album: str | None = None
    duration: Duration | None = None
    genre: str | None = None
    year: int | None = None


class Album(Identified):
    title: str
    artist: str
    year: int | None = None
    genre: str | None = None


class Playlist(Identified):
    name: str
    songs: Words = Field(default_factory=list)  # song ids or titles
    description: str | None = None


class Playback(Item):
    state: Literal["playing", "paused", "stopped"] = "stopped"
    song: str | None = None  # song id or title
    shuffle: bool = False
    repeat: Literal["off", "one", "all"] = "off"
    queue: list[str] = Field(default_factory=list)  # song ids, filled by play_music


class Music(Item):
    songs: list[Song] = Field(default_factory=list)
    albums: list[Album] = Field(default_factory=list)
    playlists: list[Playlist] = Field(default_factory=list)
    playback: Playback = Field(default_factory=Playback)


class Storage(Item):
    totalGB: float = 128
    usedGB: float = 64


class Device(Item):
    battery: int = Field(default=80, ge=0, le=100)
    charging: bool = False
    storage: Storage = Field(default_factory=Storage)
    network: Literal["wifi", "cellular", "none"] = "wifi"
    wifiName: str | None = None
    carrier: str | None = None
    wifi: bool = True
    bluetooth: bool = True
    airplaneMode: bool = False
    focus: Focus = "off"
    focusUntil: PhoneTime | None = None
    brightness: int = Field(default=50, ge=0, le=100)
    volume: int = Field(default=50, ge=0, le=100)
    flashlight: bool = False
    lowPower: bool = False
    darkMode: bool = False
    permissions: dict[Permission, Literal["granted", "denied"]] = Field(default_factory=dict)

    def allows(self, permission: str) -> bool:
        return self.permissions.get(permission, "granted") != "denied"


def _pages(value: Any) -> Any:
    """Pages as a list; the map form {url: text} or {url: {title, text}} is accepted too."""
    if isinstance(value, dict):
        return [{"url": url, **(page if isinstance(page, dict) else {"text": page})}
                for url, page in value.items()]
    return value


def _health(value: Any) -> Any:
    """Health samples as a list; the map form {metric: [samples]} is accepted too."""
    if isinstance(value, dict):
        return [{"metric": metric, **sample} for metric, samples in value.items()
                for sample in (samples if isinstance(samples, list) else [samples])]
    return value


class PhoneData(Item):
    """Everything a scenario's ``phone`` may hold. Every list is optional."""

    locale: str | None = None
    timeZone: str | None = None
    location: Location | None = None
    events: list[Event] = Field(default_factory=list)
    reminders: list[Reminder] = Field(default_factory=list)
    alarms: list[Alarm] = Field(default_factory=list)
    tasks: list[ScheduledTask] = Field(default_factory=list)
    contacts: list[Contact] = Field(default_factory=list)
    places: list[Place] = Field(default_factory=list)
    routes: list[Route] = Field(default_factory=list)
    weather: list[Weather] = Field(default_factory=list)
    web: list[WebResult] = Field(default_factory=list)
    pages: Annotated[list[Page], BeforeValidator(_pages)] = Field(default_factory=list)
    files: list[File] = Field(default_factory=list)
    photos: list[Photo] = Field(default_factory=list)
    health: Annotated[list[HealthSample], BeforeValidator(_health)] = Field(default_factory=list)
    music: Music = Field(default_factory=Music)
    device: Device = Field(default_factory=Device)
