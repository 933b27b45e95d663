"""Every selected scenario's phone built once before a run starts, so that phone data written
with other field names (a copy of the published data from elsewhere, an older export) stops the
run at once with every problem listed, instead of failing each scenario as a harness error deep
in the run. ``validate --static`` reports the same problems."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import FormatErrors
from orvena_bench.formats.scenario import Scenario
from orvena_bench.formats.scenario_files import Located, read_file
from simphone import Phone

ADVICE = ("the phone data uses fields the simulated phone does not know: rename them to the "
          "fields of docs/phone-data.md (see 'Phone data from elsewhere' there)")


def phone_problems(item: Located) -> list[FormatError]:
    """One error per bad phone field of a scenario (``file:line: field phone.x: ...``)."""
    s = item.scenario
    try:
        Phone.from_scenario(s.phone, clock_for(s.phone if isinstance(s.phone, dict) else {},
                                               s.language))
    except FormatErrors as e:
        found = e.errors
    except FormatError as e:
        found = [e]
    else:
        return []
    return [FormatError(f"{s.id}: {e.reason}", file=item.file, line=item.line,
                        field=e.field or "phone") for e in found]


def check_phones(items: Iterable[Located]) -> list[FormatError]:
    return [problem for item in items for problem in phone_problems(item)]


def check_selected(files: Iterable[tuple[str, Path]], select: Callable[[list[Scenario]], list[Scenario]]
                   ) -> None:
    """Raise, listing every problem, when a phone of the scenarios ``select`` keeps from the
    files is bad. Lines that do not load are left to the run, which reports them."""
    items = []
    for _, path in files:
        if Path(path).is_file():
            located = read_file(path, [])
            chosen = {s.id for s in select([i.scenario for i in located])}
            items += [i for i in located if i.scenario.id in chosen]
    problems = check_phones(items)
    if problems:
        scenarios = len({p.reason.split(":", 1)[0] for p in problems})
        raise FormatErrors([*problems, FormatError(
            f"{len(problems)} problems in the phones of {scenarios} selected scenarios; nothing "
            f"was run: {ADVICE}")])
