"""Hand-made result and scenario files for the report tests and the report benchmark.

``line()`` writes one result line the way the harness records it (history and request, then one
assistant message per round followed by its tool results). ``synthetic_run()`` makes a whole
bench of them for several models, seeded so every build is the same.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from orvena_bench.formats.jsonl import dumps
from orvena_bench.formats.languages import CATEGORIES, LANGUAGES


def parse_id(id: str) -> tuple[str, str]:
    """(language, category) of an id <language>-<category>-<slug> (categories may hold a '-')."""
    lang, rest = id.split("-", 1)
    return lang, max((c for c in CATEGORIES if rest.startswith(c + "-")), key=len)


def line(id: str, model: str, passed: bool, *, seed: int = 7, calls: list[dict] | None = None,
         answer: str = "Done.", failure: dict | None = None, rounds: int = 2,
         text_size: int = 80, **extra: Any) -> dict[str, Any]:
    """A result line; its language and category are read from the id."""
    lang, cat = parse_id(id)
    calls = calls if calls is not None else []
    transcript: list[dict[str, Any]] = [{"role": "user", "content": f"request of {id}"}]
    recorded_rounds = []
    # Calls spread over the first rounds; the last round answers without a call.
    call_rounds = max(rounds - 1, 1) if calls else 0
    plan = [calls[i::call_rounds] for i in range(call_rounds)] + [[]]
    for r, mine in enumerate(plan):
        recorded_rounds.append({
            "system": "You are the phone assistant. " * 40, "tools": ["list_events", "load_tools"],
            "text": f"<tool_call>{'x' * text_size}</tool_call>" if mine else answer,
            "calls": [{"name": c["tool"], "arguments": c.get("arguments", {})} for c in mine],
            "timing": {"promptTokens": 2400 + 300 * r, "cachedTokens": 2400 * (r > 0),
                       "generatedTokens": 40, "prefillSeconds": 0.8, "decodeSeconds": 1.1}})
        transcript.append({"role": "assistant", "content": "" if mine else answer,
                           "calls": [{"name": c["tool"], "arguments": c.get("arguments", {})}
                                     for c in mine]})
        transcript += [{"role": "tool", "name": c["tool"], "content": "result " + "y" * text_size,
                        "failed": c.get("failed", False)} for c in mine]
    return {"id": id, "language": lang, "category": cat, "model": model,
            "seed": seed, "passed": passed, "issues": [] if passed else [f"{id} failed"],
            "answer": answer, "calls": [{"failed": False, "matched": True, **c} for c in calls],
            "transcript": transcript, "seconds": 3.5, "reasoningCharacters": 0,
            "rounds": recorded_rounds, "failure": failure, **extra}


def write_jsonl(path: Path, items: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(dumps(item) for item in items))
    return path


def scenario(id: str, *, calls: list[dict] | None = None, answer: list[str] | None = None,
             forbid: list[str] | None = None, no_tools: bool = False,
             connections: list[str] | None = None) -> dict[str, Any]:
    lang, cat = parse_id(id)
    expect: dict[str, Any] = {"calls": calls or []}
    if answer:
        expect["answer"] = answer
    if forbid:
        expect["forbid"] = forbid
    if no_tools:
        expect["noTools"] = True
    return {"id": id, "language": lang, "category": cat, "request": f"request of {id}",
            "connections": connections or [],
            "phone": {"locale": lang, "timeZone": "Europe/Dublin",
                      "contacts": [{"name": "Aoife Byrne", "phone": "+353 00 123 4567"}]},
            "expect": expect}


def synthetic_ids(conn: int = 100, h3: int = 40) -> list[str]:
    """The bench's shape: 407 originals (13 per language, 30 in English) over the 20
    categories, then 40 -h3 and 100 -conn copies: 547 ids."""
    ids = [f"{lang}-{CATEGORIES[(i + j) % len(CATEGORIES)]}-s{i}"
           for j, lang in enumerate(LANGUAGES) for i in range(30 if lang == "en" else 13)]
    ids += [f"{LANGUAGES[i % 30]}-chain-x{i}-h3" for i in range(h3)]
    ids += [f"{ids[i * 4]}-conn" for i in range(conn)]
    return ids


# How a synthetic run fails, so re-scoring finds each kind of check (see synthetic_line).
FAILURES = ("wrong-arguments", "missing-answer", "forbidden-tool", "failed-turn")
GOOD_NUMBER = "+353 00 123 4567"


def synthetic_scenario(id: str) -> dict[str, Any]:
    return scenario(id, calls=[{"tool": "search_contacts", "args": ["Aoife"]},
                               {"tool": "send_message", "args": [GOOD_NUMBER]}],
                    answer=["Aoife"], forbid=["call_contact"])


def synthetic_line(id: str, model: str, failure: str | None, **options: Any) -> dict[str, Any]:
    """A run of synthetic_scenario(id) that passes (failure None) or fails in the given way.
    The answers stay under the language check's 12 characters, so any language passes."""
    to = "+353 00 999 9999" if failure == "wrong-arguments" else GOOD_NUMBER
    calls = [{"tool": "search_contacts", "arguments": {"query": "Aoife"}},
             {"tool": "send_message", "arguments": {"to": to, "text": "on my way"}}]
    if failure == "forbidden-tool":
        calls.append({"tool": "call_contact", "arguments": {"number": GOOD_NUMBER}})
    answer = {"missing-answer": "Sent.", "failed-turn": ""}.get(failure or "", "Sent: Aoife")
    turn = {"kind": "round-limit", "message": "no answer"} if failure == "failed-turn" else None
    return line(id, model, failure is None, calls=calls, answer=answer, failure=turn, **options)


def synthetic_run(folder: Path, models: dict[str, float], *, seed: int = 0,
                  rounds: int = 3, text_size: int = 600) -> list[Path]:
    """<folder>/results/<set>/<model>.jsonl for every model, passing at the given rate, and
    <folder>/scenarios/<set>.jsonl: bench plus 60 restraint and 30 ask scenarios (637 per
    model), with realistic round text sizes. Returns the result files."""
    rng = random.Random(seed)
    sets = {"bench": synthetic_ids(),
            "restraint": [f"{LANGUAGES[i % 30]}-unsupported-r{i}" for i in range(60)],
            "ask": [f"{LANGUAGES[i % 30]}-followup-a{i}" for i in range(30)]}
    written = []
    for set_name, ids in sets.items():
        write_jsonl(folder / "scenarios" / f"{set_name}.jsonl",
                    [synthetic_scenario(i) for i in ids])
        for model, rate in models.items():
            items = [synthetic_line(i, model, None if rng.random() < rate else rng.choice(FAILURES),
                                    rounds=rounds, text_size=text_size) for i in ids]
            written.append(write_jsonl(folder / "results" / set_name / f"{model}.jsonl", items))
    return written
