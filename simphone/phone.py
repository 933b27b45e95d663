"""The phone of one scenario run: its data, its clock, and what the turn has done to it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, PrivateAttr, ValidationError

from orvena_bench.formats.clock import Clock, TokenError
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import FormatErrors
from simphone.data import Album, Location, PhoneData
from simphone.errors import ToolError
from simphone.units import Units

M = TypeVar("M", bound=BaseModel)

# Id prefixes of derived ids, per list (timers share the alarms list but count apart).
ID_PREFIXES: dict[str, str] = {
    "events": "evt", "reminders": "rem", "alarms": "alm", "timers": "tmr", "tasks": "tsk",
    "contacts": "con", "places": "plc", "routes": "rte", "files": "fil", "photos": "pho",
    "songs": "song", "albums": "alb", "playlists": "pl",
}

# Where the user grants each permission, for the denial message.
_PERMISSION_SETTINGS: dict[str, str] = {
    "calendar": "Calendars", "reminders": "Reminders", "contacts": "Contacts",
    "location": "Location Services", "photos": "Photos", "health": "Health",
    "files": "Files and Folders", "notifications": "Notifications", "music": "Media & Apple Music",
}
_SUFFIX = re.compile(r"^(?P<prefix>[a-z]+)-(?P<n>\d+)$")


@dataclass(frozen=True)
class SentMessage:
    to: str  # the contact's name, or the number itself
    address: str  # the number or email it went to
    text: str
    time: datetime


@dataclass(frozen=True)
class PlacedCall:
    to: str
    number: str
    video: bool
    time: datetime


class Phone(PhoneData):
    """The simulated iPhone. Build it with ``Phone.from_scenario``; tools change it in place."""

    _clock: Clock = PrivateAttr()
    _next_ids: dict[str, int] = PrivateAttr(default_factory=dict)
    _messages: list[SentMessage] = PrivateAttr(default_factory=list)
    _calls: list[PlacedCall] = PrivateAttr(default_factory=list)

    @classmethod
    def from_scenario(cls, phone: dict[str, Any], clock: Clock) -> Phone:
        """The phone of a scenario's ``phone`` object. Tokens in text are expanded and relative
        times resolved with the clock; bad data raises FormatError naming the field."""
        if not isinstance(phone, dict):
            raise FormatError(f"expected an object, got {type(phone).__name__}", field="phone")
        try:
            expanded = clock.expand_data(phone, "phone")
        except TokenError as e:
            raise FormatError(e.reason, field=e.where) from None
        try:
            made = cls.model_validate(expanded, context={"clock": clock})
        except ValidationError as e:
            errors = [FormatError(_message(err), field=_field("phone", err["loc"]))
                      for err in e.errors()]
            raise errors[0] if len(errors) == 1 else FormatErrors(errors) from e
        made._clock = clock
        made._assign_ids()
        return made

    # --- state ------------------------------------------------------------------------------
    @property
    def clock(self) -> Clock:
        return self._clock

    @property
    def now(self) -> datetime:
        return self._clock.now

    @property
    def units(self) -> Units:
        return Units.for_locale(self._clock.locale)

    def make(self, model: type[M], data: dict[str, Any]) -> M:
        """A phone item built during the turn, with times read by the run's clock."""
        return model.model_validate(data, context={"clock": self._clock})

    @property
    def messages(self) -> list[SentMessage]:
        """Messages sent during the turn."""
        return self._messages

    @property
    def calls(self) -> list[PlacedCall]:
        """Calls placed during the turn."""
        return self._calls

    def require(self, permission: str) -> None:
        """Raise the denial a real app gives when a permission is off."""
        if permission in ("none", ""):
            return
        if permission == "network":
            if self.device.airplaneMode or self.device.network == "none":
                raise ToolError("no internet connection (the phone is offline"
                                + (", airplane mode is on)" if self.device.airplaneMode else ")"))
            return
        if not self.device.allows(permission):
            raise ToolError(f"access to {_PERMISSION_SETTINGS.get(permission, permission)} is denied "
                            f"for the assistant; the user can allow it in Settings > Privacy & "
                            f"Security > {_PERMISSION_SETTINGS.get(permission, permission)}")

    def here(self) -> Location:
        """The phone's position, for tools that fall back on it; fails like the real phone."""
        self.require("location")
        if self.location is None:
            raise ToolError("the phone's location is unknown (Location Services has no fix)")
        return self.location

    def new_id(self, kind: str) -> str:
        """A fresh id for an item created during the turn (never reuses a deleted one)."""
        prefix = ID_PREFIXES[kind]
        n = self._next_ids.get(prefix, 1)
        self._next_ids[prefix] = n + 1
        return f"{prefix}-{n}"

    # --- ids --------------------------------------------------------------------------------
    def _assign_ids(self) -> None:
        """Missing ids become <prefix>-<n>, n the item's position among its kind (1-based)."""
        self._add_song_albums()
        groups = {
            "events": self.events, "reminders": self.reminders, "tasks": self.tasks,
            "alarms": [a for a in self.alarms if a.kind == "alarm"],
            "timers": [a for a in self.alarms if a.kind == "timer"],
            "contacts": self.contacts, "places": self.places, "routes": self.routes,
            "files": self.files, "photos": self.photos, "songs": self.music.songs,
            "albums": self.music.albums, "playlists": self.music.playlists,
        }
        seen: dict[str, str] = {}
        for kind, items in groups.items():
            prefix = ID_PREFIXES[kind]
            explicit = {item.id for item in items if item.id}
            for position, item in enumerate(items, start=1):
                if item.id is None:
                    item.id = f"{prefix}-{position}"
                    if item.id in explicit:
                        raise FormatError(f"derived id {item.id} of item {position} is already used "
                                          "by an explicit id; give this item an id too",
                                          field=f"phone.{kind}")
                if item.id in seen:
                    raise FormatError(f"duplicate id {item.id!r}", field=f"phone.{kind}")
                seen[item.id] = kind
        for item_id in seen:
            m = _SUFFIX.match(item_id)
            if m:
                prefix, n = m.group("prefix"), int(m.group("n"))
                self._next_ids[prefix] = max(self._next_ids.get(prefix, 1), n + 1)
        for kind, items in groups.items():
            self._next_ids.setdefault(ID_PREFIXES[kind], len(items) + 1)

    def _add_song_albums(self) -> None:
        """Albums named by songs but not listed are added, so every album can be searched."""
        known = {(a.title.casefold(), a.artist.casefold()) for a in self.music.albums}
        for song in self.music.songs:
            if song.album and (song.album.casefold(), song.artist.casefold()) not in known:
                known.add((song.album.casefold(), song.artist.casefold()))
                self.music.albums.append(Album(title=song.album, artist=song.artist,
                                               year=song.year, genre=song.genre))


def _field(root: str, loc: tuple) -> str:
    out = root
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not str(part).startswith(("function-", "list[", "tagged-")):
            out += f".{part}"
    return out


def _message(error: dict) -> str:
    if error["type"] == "extra_forbidden":
        return "unknown field (see docs/phone-data.md for the fields of this list)"
    message = error["msg"]
    return message.removeprefix("Value error, ")
