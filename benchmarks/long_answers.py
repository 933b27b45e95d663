"""Scoring and validating long texts without spaces: the address, e-mail and quote regexes of
before (quadratic on a long run of word characters or of opening quotes) against today's, side
by side, then whole-answer scoring of 1 MB answers of the shapes degenerate model text takes.

    python benchmarks/long_answers.py [--sizes 10000,20000,40000]

The old patterns run only at the small sizes (at 1 MB they did not finish in 15 minutes).
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import time

from orvena_bench.formats.paths import scenarios_dir
from orvena_bench.formats.result import ResultLine
from harness.runner import load_scenarios, score_line
from harness.validation import privacy
from scoring import language

OLD = {
    "address (scoring/language)": re.compile(r"https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "e-mail (validation/privacy)": re.compile(r"[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+\.)+([A-Za-z]{2,})\b"),
    "quotes (scoring/language)": re.compile("|".join(
        [f"{re.escape(a)}[^{re.escape(b)}\n]*{re.escape(b)}" for a, b in language.QUOTE_PAIRS])),
}
NEW = {
    "address (scoring/language)": language._ADDRESS,
    "e-mail (validation/privacy)": privacy._EMAIL,
    "quotes (scoring/language)": language._QUOTED,
}


def seconds(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def shapes(n: int) -> dict[str, str]:
    return {"one letter": "x" * n, "base64": base64.b64encode(os.urandom(n))[:n].decode(),
            "repeated word": ("terster" * n)[:n], "opening quotes": ("„a" * n)[:n],
            "plain words": ("the vet at six after work " * n)[:n]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="10000,20000,40000")
    args = p.parse_args()
    print("regex over one text, seconds (old / new = ratio)")
    for n in map(int, args.sizes.split(",")):
        for name in OLD:
            text = "„a" * (n // 2) if name.startswith("quotes") else "x" * n
            old, new = seconds(lambda: OLD[name].sub(" ", text)), seconds(lambda: NEW[name].sub(" ", text))
            print(f"  {n:>8,} chars  {name:30s} {old:8.3f} / {new:8.4f} = {old / max(new, 1e-6):8.0f}x")
    scenarios, _ = load_scenarios(scenarios_dir() / "bench.jsonl")
    scenario = next(s for s in scenarios if s.id == "en-reminders-vet-after-work")

    def line(answer: str) -> ResultLine:
        return ResultLine(id=scenario.id, language="en", category=scenario.category, model="m",
                          answer=answer)

    score_line(scenario, line("warm up: the recognizer loads once"))
    print("score_line of one 1 MB answer, seconds")
    for name, text in shapes(1_000_000).items():
        print(f"  {name:16s} {seconds(lambda: score_line(scenario, line(text))):6.2f}")


if __name__ == "__main__":
    main()
