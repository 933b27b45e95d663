"""Photos and files: search_photos, search_files, read_file."""

from __future__ import annotations

from typing import Any

from orvena_bench.formats.textmatch import fold
from simphone.data import File, Photo
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.placenames import other_names
from simphone.search import matches, query_words, search
from simphone.times import argument_range_end, argument_range_start, show_datetime
from simphone.tools.common import count, labelled, line, more, quoted
from simphone.tools.contacts import find_contacts

_SHOWN = 20
# read_file returns a document's text up to this length, as the app cuts long files.
_READ_CHARS = 8000


def _photo_text(photo: Photo) -> str:
    return " ".join([photo.description, photo.place or "", photo.kind, *photo.people, *photo.albums])


def _people_named(phone: Phone, person: str) -> list[str]:
    """The names a person filter stands for: itself, and contacts it names ("my sister")."""
    names = [person]
    if phone.device.allows("contacts"):
        found, complete = find_contacts(phone.contacts, person)
        if complete:
            names += [n for c in found for n in (c.name, *c.aliases)]
    return names


def search_photos(phone: Phone, args: dict[str, Any]) -> str:
    photos = list(phone.photos)
    filters = []
    if args.get("query"):
        photos = search(photos, args["query"], _photo_text)
        filters.append(f"matching {quoted(args['query'])}")
    if args.get("place"):
        at = [p for p in photos if p.place and matches(args["place"], p.place)]
        # A city by another of its names ("Lisbon" for photos taken in "Lisboa, Portugal").
        for name in ([] if at else other_names(args["place"])):
            at = [p for p in photos if p.place and matches(name, p.place)]
            if at:
                break
        photos = at
        filters.append(f"at {args['place']}")
    if args.get("person"):
        names = _people_named(phone, args["person"])
        photos = [p for p in photos if any(matches(n, " ".join(p.people)) for n in names)]
        filters.append(f"with {args['person']}")
    if args.get("start"):
        start = argument_range_start(args["start"], phone.clock, "start")
        photos = [p for p in photos if p.time >= start]
        filters.append(f"from {args['start']}")
    if args.get("end"):
        end = argument_range_end(args["end"], phone.clock, "end")
        photos = [p for p in photos if p.time < end]
        filters.append(f"until {args['end']}")
    about = (" " + " ".join(filters)) if filters else ""
    if not photos:
        return f"No photos found{about}."
    photos.sort(key=lambda p: p.time, reverse=True)  # newest first, as Photos shows them
    lines = [f"{count(len(photos), 'photo')} found{about}, newest first:"]
    for p in photos[:_SHOWN]:
        lines.append(line(f"id: {p.id}", show_datetime(p.time), p.kind if p.kind != "photo" else None,
                          p.place, labelled("people", p.people), p.description or None,
                          labelled("albums", p.albums), "favorite" if p.favorite else None))
    return "\n".join(lines + more(_SHOWN, len(photos)))


def _snippet(text: str, query: str) -> str | None:
    """About 100 characters of the text around the first query word it holds."""
    folded = fold(text)
    if len(folded) != len(text):  # folding changed lengths: no safe offsets
        return None
    for word in query_words(query):
        at = folded.find(word)
        if at >= 0:
            start, end = max(0, at - 40), min(len(text), at + 60)
            return ("..." if start else "") + " ".join(text[start:end].split()) + ("..." if end < len(text) else "")
    return None


def search_files(phone: Phone, args: dict[str, Any]) -> str:
    query = args["query"]
    by_name = search(phone.files, query, lambda f: f"{f.name} {f.folder} {f.kind or ''}")
    by_text = [f for f in search(phone.files, query, lambda f: f"{f.name} {f.folder} {f.text}")
               if f not in by_name]
    found = by_name + by_text
    if not found:
        return f"No files found matching {quoted(query)}."
    lines = [f"{count(len(found), 'file')} matching {quoted(query)}:"]
    for f in found[:_SHOWN]:
        snippet = _snippet(f.text, query) if f in by_text else None
        lines.append(line(f"id: {f.id}", f.name, f.folder, f.kind, f.size,
                          f"modified {show_datetime(f.modified)}" if f.modified else None,
                          quoted(snippet) if snippet else None))
    return "\n".join(lines + more(_SHOWN, len(found)))


def _find_file(phone: Phone, key: str) -> File:
    wanted = fold(key.strip())
    for f in phone.files:
        if fold(f.id) == wanted or fold(f.name) == wanted:
            return f
    raise ToolError(f"no file with id {key!r}; call search_files to find its id")


def read_file(phone: Phone, args: dict[str, Any]) -> str:
    f = _find_file(phone, args["id"])
    if not f.text.strip():
        return f"{f.name} (id: {f.id}) has no readable text."
    text = f.text if len(f.text) <= _READ_CHARS else \
        f.text[:_READ_CHARS] + f"\n[... cut: {len(f.text) - _READ_CHARS} more characters]"
    return f"{f.name} (id: {f.id}, {f.folder})\n\n{text}"


TOOLS = {"search_photos": search_photos, "search_files": search_files, "read_file": read_file}
