"""search_web and fetch_url: the web as the scenario wrote it. There is no network, ever: a
query nothing in ``web`` answers finds nothing, a URL not in ``pages`` fails to load."""

from __future__ import annotations

import re
from typing import Any

from orvena_bench.formats.textmatch import fold
from simphone.data import WebResult
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.search import query_words, word_in
from simphone.tools.common import quoted

_SHOWN = 8
_READ_CHARS = 8000


def _score(result: WebResult, wanted: list[str], folded_query: str) -> float:
    text = fold(" ".join([result.title, result.snippet, result.url, *result.keywords]))
    hits = sum(word_in(w, text) for w in wanted)
    # A keyword the query holds whole is the strongest sign the result answers it.
    keyword = any(fold(k) in folded_query for k in result.keywords if k.strip())
    return hits / len(wanted) + (1.0 if keyword else 0.0)


def search_web(phone: Phone, args: dict[str, Any]) -> str:
    query = args["query"]
    wanted = query_words(query)
    folded = fold(query)
    scored = [(_score(r, wanted, folded), i, r) for i, r in enumerate(phone.web)] if wanted else []
    # A search engine returns pages about most of the query, best first.
    found = sorted((s for s in scored if s[0] >= 0.5), key=lambda s: (-s[0], s[1]))
    if not found:
        return f"No results found for {quoted(query)}."
    lines = [f"{len(found)} result{'s' if len(found) != 1 else ''} for {quoted(query)}:"]
    for n, (_, _, r) in enumerate(found[:_SHOWN], start=1):
        lines.append(f"{n}. {r.title}\n   {r.url}" + (f"\n   {r.snippet}" if r.snippet else ""))
    return "\n".join(lines)


def normal_url(url: str) -> str:
    """A URL without scheme, "www.", fragment or trailing slash, host in lower case."""
    text = re.sub(r"^[a-z][a-z0-9+.-]*://", "", url.strip(), flags=re.I).split("#")[0].rstrip("/")
    host, _, path = text.partition("/")
    host = host.lower().removeprefix("www.")
    return host + ("/" + path if path else "")


def fetch_url(phone: Phone, args: dict[str, Any]) -> str:
    wanted = normal_url(args["url"])
    for page in phone.pages:
        if normal_url(page.url) == wanted:
            text = page.text if len(page.text) <= _READ_CHARS else \
                page.text[:_READ_CHARS] + f"\n[... cut: {len(page.text) - _READ_CHARS} more characters]"
            title = f"{page.title}\n" if page.title else ""
            return f"{title}{page.url}\n\n{text}"
    raise ToolError(f"could not load {args['url']} (page not found)")


TOOLS = {"search_web": search_web, "fetch_url": fetch_url}
