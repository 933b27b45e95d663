"""Music: search_music, play_music, control_playback. Only the phone's library plays; there is
no streaming catalogue to fall back on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from orvena_bench.formats.textmatch import fold
from simphone.data import Song
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.search import search
from simphone.tools.common import count, line, quoted

_KINDS = ("artist", "album", "playlist", "song")
_SHOWN = 15


@dataclass(frozen=True)
class LibraryItem:
    kind: str
    id: str
    name: str
    artist: str | None
    songs: tuple[Song, ...]
    text: str  # what a search matches
    year: int | None = None

    def describe(self) -> str:
        extra: list[str | None] = [self.artist]
        if self.kind == "song":
            song = self.songs[0]
            extra += [song.album, _length(song)]
        else:
            extra.append(count(len(self.songs), "song"))
        # The year lets a model answer "the newest album" or "the 1977 version".
        extra.append(str(self.year) if self.year else None)
        return line(f"id: {self.id}", self.kind, self.name, *extra)


def _length(song: Song) -> str | None:
    if song.duration is None:
        return None
    seconds = int(song.duration.total_seconds())
    return f"{seconds // 60}:{seconds % 60:02d}"


def library(phone: Phone) -> list[LibraryItem]:
    """Every artist, album, playlist and song, in that order; artists get ids art-1, art-2..."""
    music = phone.music
    songs = music.songs
    artists = list(dict.fromkeys([s.artist for s in songs] + [a.artist for a in music.albums]))
    items = [LibraryItem("artist", f"art-{n}", name, None,
                         tuple(s for s in songs if fold(s.artist) == fold(name)), name)
             for n, name in enumerate(artists, start=1)]
    for album in music.albums:
        tracks = tuple(s for s in songs if s.album and fold(s.album) == fold(album.title)
                       and fold(s.artist) == fold(album.artist))
        items.append(LibraryItem("album", album.id, album.title, album.artist, tracks,
                                 f"{album.title} {album.artist} {album.genre or ''}", album.year))
    for playlist in music.playlists:
        tracks = tuple(s for ref in playlist.songs if (s := _song(phone, ref)) is not None)
        items.append(LibraryItem("playlist", playlist.id, playlist.name, None, tracks,
                                 f"{playlist.name} {playlist.description or ''}"))
    for song in songs:
        items.append(LibraryItem("song", song.id, song.title, song.artist, (song,),
                                 f"{song.title} {song.artist} {song.album or ''} {song.genre or ''}",
                                 song.year))
    return items


def _song(phone: Phone, ref: str | None) -> Song | None:
    """A song by id or title."""
    if not ref:
        return None
    wanted = fold(ref.strip())
    return next((s for s in phone.music.songs if fold(s.id) == wanted), None) or \
        next((s for s in phone.music.songs if fold(s.title) == wanted), None)


def search_music(phone: Phone, args: dict[str, Any]) -> str:
    query, kind = args["query"], args.get("type")
    items = [i for i in library(phone) if kind is None or i.kind == kind]
    found = search(items, query, lambda i: i.text)
    if not found:
        return f"Nothing in your library matches {quoted(query)}" + (f" ({kind}s)." if kind else ".")
    lines = [f"{count(len(found), 'result')} in your library for {quoted(query)}:"]
    lines += [i.describe() for i in found[:_SHOWN]]
    if len(found) > _SHOWN:
        lines.append(f"... and {len(found) - _SHOWN} more")
    return "\n".join(lines)


def _choose(phone: Phone, query: str, kind: str | None) -> LibraryItem:
    items = [i for i in library(phone) if kind is None or i.kind == kind]
    wanted = fold(query.strip())
    for item in items:
        if fold(item.id) == wanted:
            return item
    exact = [i for i in items if fold(i.name) == wanted]
    found = exact or search(items, query, lambda i: i.text)
    if not found:
        what = f"{kind} " if kind else ""
        raise ToolError(f"nothing in the library matches {what}{query!r}; call search_music to see what is there")
    # Ties go to the widest thing the name can mean: a playlist or album before a single song.
    return min(found, key=lambda i: ("playlist", "album", "artist", "song").index(i.kind))


def play_music(phone: Phone, args: dict[str, Any]) -> str:
    item = _choose(phone, args["query"], args.get("type"))
    if not item.songs:
        raise ToolError(f"{item.kind} {item.name!r} has no songs in the library")
    playback = phone.music.playback
    playback.queue = [s.id for s in item.songs]
    playback.song, playback.state = item.songs[0].id, "playing"
    if "shuffle" in args:
        playback.shuffle = bool(args["shuffle"])
    return f"Now playing: {_now(item.songs[0])}. Queue: {item.kind} {item.name}, " \
           f"{count(len(item.songs), 'song')}; shuffle {'on' if playback.shuffle else 'off'}."


def _now(song: Song) -> str:
    album = f" (album {song.album})" if song.album else ""
    return f"{song.title} by {song.artist}{album}"


def control_playback(phone: Phone, args: dict[str, Any]) -> str:
    action, playback = args["action"], phone.music.playback
    current = _song(phone, playback.song)
    if action == "volume":
        if "volume" not in args:
            raise ToolError("action volume needs volume, a number from 0 to 100")
        phone.device.volume = int(args["volume"])
        return f"Volume set to {phone.device.volume}%."
    if action.startswith("shuffle_"):
        playback.shuffle = action == "shuffle_on"
        return f"Shuffle {'on' if playback.shuffle else 'off'}."
    if action.startswith("repeat_"):
        playback.repeat = action.removeprefix("repeat_")
        return f"Repeat {playback.repeat}."
    if current is None:
        raise ToolError("nothing is playing; use play_music to start something")
    if action == "pause":
        if playback.state != "playing":
            raise ToolError(f"nothing is playing ({_now(current)} is {playback.state})")
        playback.state = "paused"
        return f"Paused: {_now(current)}."
    if action == "resume":
        playback.state = "playing"
        return f"Playing: {_now(current)}."
    if action == "stop":
        playback.state = "stopped"
        return f"Stopped: {_now(current)}."
    queue = playback.queue or [current.id]
    at = queue.index(current.id) if current.id in queue else 0
    step = 1 if action == "next" else -1
    target = at + step
    if not 0 <= target < len(queue):
        if playback.repeat != "all":
            raise ToolError(f"there is no {'next' if step > 0 else 'previous'} song in the queue")
        target %= len(queue)
    song = _song(phone, queue[target])
    playback.song, playback.state = song.id, "playing"
    return f"Now playing: {_now(song)}."


TOOLS = {"search_music": search_music, "play_music": play_music, "control_playback": control_playback}
