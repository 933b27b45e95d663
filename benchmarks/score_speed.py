"""How fast scoring is: 10,000 synthetic but realistic result lines (8 languages, 2-3 calls with
JSON arguments, tool outputs in the transcript, answers of 40-280 characters), scored as
`orvena-bench score` does (scoring.batch.score_lines), with and without the language check, side
by side in one run.

    python benchmarks/score_speed.py [--lines 10000]

The first pass with the language check includes loading lingua's models (once per process), the
second does not; the third reads no answer a second time without its names
(scoring/names.py); the pass without the check is the baseline for the ratio.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from scoring.batch import Known, score_lines
from scoring.language import LanguageCheck
from scoring.score import expected_for

# Answer pieces per language: {name} {place} {time} are filled in at random.
ANSWERS = {
    "en": ["I've moved your meeting with {name} to {time} tomorrow.",
           "The weather in {place} looks dry, around 14 degrees in the afternoon.",
           "You need to leave by {time} to be at {place} on time by train.",
           "I couldn't find anything in your calendar about that, so I left it unchanged."],
    "de": ["Ich habe dein Treffen mit {name} auf morgen um {time} verschoben.",
           "In {place} bleibt es trocken, am Nachmittag etwa 14 Grad.",
           "Du musst um {time} losfahren, um pünktlich mit dem Zug in {place} zu sein.",
           "Dazu habe ich in deinem Kalender nichts gefunden, deshalb habe ich nichts geändert."],
    "fr": ["J'ai déplacé ton rendez-vous avec {name} à demain {time}.",
           "À {place}, il fera sec, environ 14 degrés l'après-midi.",
           "Tu dois partir à {time} pour arriver à l'heure à {place} en train.",
           "Je n'ai rien trouvé dans ton agenda à ce sujet, donc je n'ai rien modifié."],
    "es": ["He movido tu reunión con {name} a mañana a las {time}.",
           "En {place} no lloverá, unos 14 grados por la tarde.",
           "Tienes que salir a las {time} para llegar a tiempo a {place} en tren.",
           "No encontré nada sobre eso en tu calendario, así que no cambié nada."],
    "ru": ["Я перенёс вашу встречу с {name} на завтра на {time}.",
           "В {place} будет сухо, днём около 14 градусов.",
           "Вам нужно выйти в {time}, чтобы успеть на поезд до {place}.",
           "Я ничего не нашёл об этом в вашем календаре, поэтому ничего не менял."],
    "pl": ["Przeniosłem twoje spotkanie z {name} na jutro na {time}.",
           "W {place} będzie sucho, po południu około 14 stopni.",
           "Musisz wyjść o {time}, żeby zdążyć pociągiem do {place}.",
           "Nie znalazłem nic na ten temat w twoim kalendarzu, więc niczego nie zmieniłem."],
    "ja": ["{name}さんとの会議を明日の{time}に移動しました。",
           "{place}は午後も雨が降らず、気温は14度くらいです。",
           "{place}に電車で間に合うには{time}に出発する必要があります。",
           "カレンダーにその予定は見つからなかったので、何も変更していません。"],
    "ko": ["{name} 님과의 회의를 내일 {time}로 옮겼습니다.",
           "{place}는 오후에도 비가 오지 않고 기온은 14도 정도입니다.",
           "기차로 {place}에 제시간에 도착하려면 {time}에 출발해야 합니다.",
           "캘린더에서 관련 일정을 찾지 못해서 아무것도 변경하지 않았습니다."],
}
NAMES = ["Anna Berg", "Jonas Weber", "Marta Silva", "Léa Martin", "Kenji Sato", "Minjun Kim",
         "Olga Petrova", "Piotr Nowak"]
PLACES = ["Lyon", "Dublin", "Kraków", "München", "Sevilla", "Osaka", "Busan", "Kazan"]


def build(lines: int, seed: int = 1) -> list[tuple[Known, ResultLine]]:
    rng = random.Random(seed)
    known: list[Known] = []
    for language in ANSWERS:
        for n in range(6):
            scenario = Scenario.model_validate({
                "id": f"{language}-calendar-s{n}", "language": language, "category": "calendar",
                "request": "...", "phone": {"timeZone": "Europe/Berlin", "locale": language},
                "expect": {
                    "calls": [{"tool": "list_events", "args": ["{+1d}"]},
                              {"tool": "update_event", "args": ["evt-", "{+1d}T"],
                               "argsNot": ["{+2d}"]}],
                    "forbid": ["delete_event", "create_event"],
                    "answerAny": ["10:00", "10.00"], "answerNot": ["{weekday+2d}"]}})
            known.append(Known(scenario, "bench", expected_for(scenario)))
    pairs = []
    for i in range(lines):
        k = known[i % len(known)]
        language = k.scenario.language
        fill = {"name": rng.choice(NAMES), "place": rng.choice(PLACES),
                "time": "10:00" if rng.random() < 0.7 else f"{rng.randint(7, 20)}:{rng.choice(['15', '30', '45'])}"}
        answer = " ".join(rng.choice(ANSWERS[language]).format(**fill)
                          for _ in range(rng.randint(1, 3)))
        events = "\n".join(f"- evt-{rng.randint(100, 999)}: Meeting with {rng.choice(NAMES)}, "
                           f"2026-11-05T{rng.randint(8, 18):02d}:00, {rng.choice(PLACES)}"
                           for _ in range(rng.randint(3, 12)))
        calls = [{"tool": "list_events", "arguments": {"from": "2026-11-05", "to": "2026-11-05"}},
                 {"tool": "update_event", "arguments": {"id": "evt-123", "start": "2026-11-05T10:00"},
                  "failed": rng.random() < 0.1}]
        if rng.random() < 0.3:
            calls.insert(0, {"tool": "load_skills", "arguments": {"skills": ["calendar"]}})
        pairs.append((k, ResultLine.model_validate({
            "id": k.scenario.id, "language": language, "category": "calendar", "model": "m",
            "answer": answer, "calls": calls,
            "transcript": [{"role": "user", "content": "..."},
                           {"role": "tool", "name": "list_events", "content": events},
                           {"role": "tool", "name": "update_event", "content": "Updated evt-123."}],
        })))
    return pairs


def timed(pairs, language_check) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of the process (all threads) and passes."""
    started, cpu = time.perf_counter(), time.process_time()
    verdicts = score_lines(pairs, language_check=language_check)
    return time.perf_counter() - started, time.process_time() - cpu, sum(v.passed for v in verdicts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=10_000)
    args = parser.parse_args()
    pairs = build(args.lines)
    print(f"{len(pairs)} result lines, {len({k.scenario.id for k, _ in pairs})} scenarios, "
          f"{len(ANSWERS)} languages, mean answer {sum(len(r.answer) for _, r in pairs) / len(pairs):.0f} characters\n")
    cold = timed(pairs, LanguageCheck())
    warm = timed(pairs, LanguageCheck())
    once = timed(pairs, LanguageCheck(names_aside=False))
    base = timed(pairs, False)
    assert cold[2] == warm[2]
    load = os.getloadavg()[0]
    print(f"load average when done: {load:.1f} on {os.cpu_count()} cores\n")
    print("| pass | seconds | CPU seconds | lines/s | passed | ratio to no language check |")
    print("|---|---|---|---|---|---|")
    for name, (seconds, cpu, passed) in (("language check, models loading (first in process)", cold),
                                         ("language check, models loaded", warm),
                                         ("the same, names not read a second time", once),
                                         ("no language check (baseline)", base)):
        print(f"| {name} | {seconds:.2f} | {cpu:.2f} | {len(pairs) / seconds:,.0f} | {passed} | "
              f"{seconds / base[0]:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
