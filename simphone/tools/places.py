"""Places and travel: search_places, get_place_details, get_directions, get_current_location.
Everything answers from the phone's places and routes; there is no map service."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from simphone.data import Place, Route
from simphone.errors import ToolError
from simphone.hours import open_status, parse_hours, week_lines
from simphone.phone import Phone
from simphone.placenames import other_names
from simphone.search import fold, distance_km, matches, query_words, search, word_in, words
from simphone.times import argument_time, show_datetime, show_duration
from simphone.tools.common import count, labelled, line, quoted

# A map search shows what is around the point searched, not the other side of the world.
_RADIUS_KM = 50.0
_DEFAULT_LIMIT = 10
# Places whose addresses match a search's "near" text within this distance are one spot.
_AREA_KM = 2.0


@dataclass(frozen=True)
class Anchor:
    """The point a search is ranked from, and how to name it."""

    name: str
    lat: float | None
    lon: float | None
    place: Place | None = None


def _place_text(place: Place) -> str:
    return " ".join([place.name, place.category or "", *place.tags, place.address or ""])


def _find_place(phone: Phone, text: str) -> Place | None:
    """The place a name or id names: the id, an exact name, else the best name match."""
    wanted = fold(text.strip())
    for place in phone.places:
        if fold(place.id) == wanted or fold(place.name) == wanted:
            return place
    named = search(phone.places, text, lambda p: p.name)
    if len(named) == 1 or (named and matches(text, named[0].name)):
        return named[0]
    return None


def _anchor(phone: Phone, near: str | None) -> Anchor | None:
    if not near:
        here = phone.here()
        return Anchor(here.place, here.lat, here.lon)
    place = _find_place(phone, near)
    if place is not None and place.lat is not None:
        return Anchor(place.name, place.lat, place.lon, place)
    location = phone.location
    if location is not None and phone.device.allows("location") and matches(near, location.place):
        return Anchor(location.place, location.lat, location.lon)
    # An address, street or city: the places whose address holds it. When they lie close
    # together (one address, one street) their centre is the point searched from; a wider area
    # (a city) is searched by address instead, so "near 747 Broadway" finds the cafe next door.
    area = [p for p in phone.places if p.address and matches(near, p.address)]
    if not area:
        # The city by another of its names ("मुंबई" for an address in "Mumbai, India").
        for name in other_names(near):
            if location is not None and phone.device.allows("location") and matches(name, location.place):
                return Anchor(location.place, location.lat, location.lon)
            area = [p for p in phone.places if p.address and matches(name, p.address)]
            if area:
                near = name
                break
    if not area:
        return None
    located = [p for p in area if p.lat is not None and p.lon is not None]
    if located:
        lat = sum(p.lat for p in located) / len(located)
        lon = sum(p.lon for p in located) / len(located)
        if all(distance_km(lat, lon, p.lat, p.lon) <= _AREA_KM for p in located):
            return Anchor(near, lat, lon)
    return Anchor(near, None, None)


def _distance(anchor: Anchor | None, place: Place) -> float | None:
    if anchor is None or anchor.lat is None or place.lat is None or place.lon is None:
        return None
    return distance_km(anchor.lat, anchor.lon, place.lat, place.lon)


def search_places(phone: Phone, args: dict[str, Any]) -> str:
    query, near = args["query"], args.get("near")
    anchor = _anchor(phone, near)
    if anchor is None:
        raise ToolError(f"could not find {near!r} to search near; give a place name or a city")
    # The place searched near is left out, unless it is itself what the query asks for.
    found = [p for p in search(phone.places, query, _place_text)
             if p is not anchor.place or matches(query, _place_text(p))]
    if anchor.lat is None and near:
        found = [p for p in found if p.address and matches(anchor.name, p.address)]
    ranked = sorted(((p, _distance(anchor, p)) for p in found),
                    key=lambda pd: (pd[1] is None, pd[1] or 0.0))
    ranked = [(p, d) for p, d in ranked if d is None or d <= _RADIUS_KM]
    limit = args.get("limit", _DEFAULT_LIMIT)
    where = f"near {anchor.name}"
    if not ranked:
        return f"No places found matching {quoted(query)} {where}."
    lines = [f"{count(len(ranked), 'place')} matching {quoted(query)} {where}, nearest first:"]
    for place, km in ranked[:limit]:
        lines.append(line(f"id: {place.id}", place.name, place.category,
                          phone.units.distance(km) if km is not None else None, place.address,
                          open_status(parse_hours(place.hours), phone.now) or None,
                          labelled("rating", place.rating)))
    if len(ranked) > limit:
        lines.append(f"... and {len(ranked) - limit} more")
    return "\n".join(lines)


def get_place_details(phone: Phone, args: dict[str, Any]) -> str:
    place = _find_place(phone, args["id"])
    if place is None:
        raise ToolError(f"no place with id {args['id']!r}; call search_places to find its id")
    week = parse_hours(place.hours)
    lines = [f"{place.name} (id: {place.id})"]
    for label, value in (("category", place.category), ("address", place.address),
                         ("phone", place.phone), ("website", place.website),
                         ("rating", place.rating), ("price", place.price)):
        if value is not None:
            lines.append(f"{label}: {value}")
    if week is not None:
        lines.append(f"now: {open_status(week, phone.now)}")
        lines.append("hours: " + "; ".join(week_lines(week)))
    else:
        lines.append("hours: not listed")
    location = phone.location
    if location and place.lat is not None and place.lon is not None and phone.device.allows("location"):
        km = distance_km(location.lat, location.lon, place.lat, place.lon)
        lines.append(f"distance: {phone.units.distance(km)} from you")
    if place.notes:
        lines.append(f"notes: {place.notes}")
    return "\n".join(lines)


def get_current_location(phone: Phone, args: dict[str, Any]) -> str:
    here = phone.here()
    address = f", {here.address}" if here.address else ""
    return f"You are at {here.place}{address} (lat {here.lat:.4f}, lon {here.lon:.4f})."


# --- directions ---------------------------------------------------------------------------
def _names_end(query: str, end: str, guess: bool = False) -> bool:
    """Whether a route's end ("Dublin Airport (DUB)") is what the query names ("airport", "la
    Part-Dieu"). A guess, as a map app's best match, takes an end holding most of a query of
    several words ("साइबर सिटी ऑफिस" for "DLF साइबर सिटी", "Gare Part-Dieu" for "Part-Dieu, Lyon")."""
    q, e = fold(query), fold(end)
    if q in e or e in q:
        return True
    q_words, e_words = query_words(query), words(end)
    if guess:
        return len(q_words) >= 2 and 2 * sum(word_in(w, e) for w in q_words) > len(q_words)
    return bool(q_words) and (all(word_in(w, e) for w in q_words)
                              or all(word_in(w, q) for w in e_words))


def _end_names(phone: Phone, text: str) -> list[str]:
    """The texts an endpoint argument stands for: itself, and a place's name and address."""
    place = _find_place(phone, text) if text else None
    return [text] + ([place.name] + ([place.address] if place.address else []) if place else [])


def _from_here(phone: Phone, origin: str | None) -> bool:
    if origin is None:
        return True
    location = phone.location
    return location is not None and any(_names_end(origin, t) for t in (location.place, location.address or "") if t)


def _routes(phone: Phone, to: str, origin: str | None) -> list[Route]:
    """The routes to ``to`` (from ``origin``); a city given by another of its names
    (simphone.placenames) finds the routes to it when the name as written finds none."""
    found = _routes_named(phone, to, origin)
    if not found and phone.routes:
        for name in other_names(to):
            found = _routes_named(phone, name, origin)
            if found:
                break
    return found or _routes_named(phone, to, origin, guess=True)


def _routes_named(phone: Phone, to: str, origin: str | None, guess: bool = False) -> list[Route]:
    targets = _end_names(phone, to)
    found = []
    for route in phone.routes:
        if not any(_names_end(t, route.to, guess) for t in targets):
            continue
        if origin is None:
            if route.origin is None or _from_here(phone, route.origin):
                found.append(route)
        elif route.origin is None:
            if _from_here(phone, origin):
                found.append(route)
        elif any(_names_end(t, route.origin) for t in _end_names(phone, origin)):
            found.append(route)
    return found


def _times(route: Route, now: datetime, depart: datetime | None,
           arrive: datetime | None) -> tuple[datetime, datetime]:
    """(leave, arrive) of a route for a departure or arrival wish, with timetabled departures."""
    if route.departures:
        reference = arrive or depart or now
        days = [reference.date() + timedelta(days=n) for n in (-1, 0, 1)]
        # A departure already gone cannot be taken.
        slots = sorted(slot for d in days for t in route.departures
                       if (slot := datetime.combine(d, t, reference.tzinfo)) >= now)
        if arrive is not None:
            fitting = [s for s in slots if s + route.duration <= arrive]
            if not fitting:
                raise ToolError(f"no {route.mode} departure arrives by {show_datetime(arrive)}")
            leave = fitting[-1]
        else:
            later = [s for s in slots if s >= (depart or now)]
            leave = later[0]
        return leave, leave + route.duration
    if arrive is not None:
        return arrive - route.duration, arrive
    leave = depart or now
    return leave, leave + route.duration


def get_directions(phone: Phone, args: dict[str, Any]) -> str:
    if args.get("departAt") and args.get("arriveBy"):
        raise ToolError("give departAt or arriveBy, not both")
    clock = phone.clock
    depart = argument_time(args["departAt"], clock, "departAt") if args.get("departAt") else None
    arrive = argument_time(args["arriveBy"], clock, "arriveBy") if args.get("arriveBy") else None
    to, origin, mode = args["to"], args.get("from"), args.get("mode")
    if origin is None:
        phone.here()  # directions from here need the phone's position
    routes = _routes(phone, to, origin)
    start = origin or "your location"
    if mode:
        others = sorted({r.mode for r in routes if r.mode != mode})
        routes = [r for r in routes if r.mode == mode]
        if not routes:
            hint = f" (routes exist by {', '.join(others)})" if others else ""
            raise ToolError(f"no route found from {start} to {to} by {mode}{hint}")
    if not routes:
        raise ToolError(f"no route found from {start} to {to}")
    # Routes to different places that all match the destination each name their own.
    several = len({fold(r.to) for r in routes}) > 1
    header = f"matching {quoted(to)}" if several else f"to {routes[0].to}"
    lines = [f"{count(len(routes), 'route')} from {start} {header}:"]
    for route in routes:
        leave, reach = _times(route, phone.now, depart, arrive)
        note = " (already past)" if leave < phone.now else ""
        lines.append(line(f"to {route.to}" if several else None, route.mode,
                          show_duration(route.duration),
                          phone.units.distance(route.distance) if route.distance is not None else None,
                          f"leave {show_datetime(leave)}{note}", f"arrive {show_datetime(reach)}",
                          route.summary, labelled("traffic", route.traffic)))
        lines.extend(f"  {i}. {step}" for i, step in enumerate(route.steps, start=1))
    return "\n".join(lines)


TOOLS = {"search_places": search_places, "get_place_details": get_place_details,
         "get_directions": get_directions, "get_current_location": get_current_location}
