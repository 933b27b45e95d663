"""Rendering a conversation to prompt text as ``apply_chat_template(..., tokenize=False)`` does,
in a fraction of its time.

transformers rebuilds every message and tool schema out of plain JSON types on each call (so
that a template from the Hub never touches a rich object), then renders the compiled template.
With the loop's prompts (38 tool schemas, a long system prompt) the rebuild is over half the
call, and the template's ``tojson`` of the same schemas, round after round, most of the rest.
Here:

- the inputs are made plain by an orjson round trip (C, and cached by their bytes: the schemas
  and earlier messages repeat every round). The copy is used only when it equals the input
  (``==``): that holds exactly when the input was plain already, or held str/int/float enums,
  which transformers too turns into their values; anything else (subclasses of str or dict,
  tuples, objects, NaN) renders through ``apply_chat_template``;
- the template is compiled in an environment of its own, as transformers compiles it, whose
  ``tojson`` filter remembers its text by the orjson bytes of its argument (values the template
  sees are plain, so equal bytes mean equal JSON text);
- every variable transformers passes is passed the same way: the special tokens, the
  template chosen by ``get_chat_template`` (a dict of named templates too), messages with
  ``None`` fields dropped and reasoning aliased, ``documents=None``; and what mlx-lm's
  ``TokenizerWrapper`` adds (``enable_thinking`` when missing).

Whatever this cannot reproduce goes to ``apply_chat_template``: a custom renderer (a tokenizer
class or mlx-lm chat template of its own), a call-shaping argument (``documents``,
``continue_final_message``, ...), callables as tools, input that is not plain, missing private
transformers helpers. The first render and every ``check_every``-th are compared with
``apply_chat_template``; a difference, or a fast-path error where ``apply_chat_template``
succeeds, switches the renderer to ``apply_chat_template`` for good, with one warning.
"""

from __future__ import annotations

import inspect
import threading
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

import orjson

# The first render, then one in this many, is compared with apply_chat_template (3-4 ms each).
CHECK_EVERY = 64
# Distinct inputs (messages, tool lists) and tojson texts kept per renderer.
PLAIN_CACHE = 1024
TOJSON_CACHE = 4096

# Subclasses, dataclasses and datetimes fail instead of being serialized: only plain JSON
# (and enums, which the equality check then rejects unless they are str/int enums) passes.
_STRICT = (orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
           | orjson.OPT_PASSTHROUGH_DATETIME)


class NotPlain(Exception):
    """An input that a round trip through JSON would change: rendered the slow way."""


@dataclass
class RenderStats:
    fast: int = 0  # renders by the fast path (checked ones included)
    slow: int = 0  # renders by apply_chat_template alone
    checked: int = 0  # fast renders compared with apply_chat_template


@dataclass(frozen=True)
class _Helpers:
    """transformers' private pieces the fast path needs; absent in some versions."""

    compile_fresh: Callable[[str], Any] | None  # a template in an environment of its own
    compile_shared: Callable[[str], Any]  # the one apply_chat_template uses
    alias_reasoning: Callable[[list[dict]], list[dict]]
    reserved: frozenset[str]  # names apply_chat_template or the renderer take themselves


def _helpers(hf: Any) -> _Helpers:
    from transformers.utils import chat_template_utils as ctu

    fresh = getattr(ctu, "_cached_compile_jinja_template", None)
    reserved = {name for fn in (type(hf).apply_chat_template, ctu.render_jinja_template)
                for name, p in inspect.signature(fn).parameters.items()
                if p.kind is not inspect.Parameter.VAR_KEYWORD}
    return _Helpers(fresh, ctu._compile_jinja_template, ctu._alias_reasoning_fields,
                    frozenset(reserved | {"messages"}))


def _memo_tojson(original: Callable[..., str], size: int) -> Callable[..., str]:
    """``original`` remembering its text by the orjson bytes of its argument and its options.
    Values that orjson refuses go through, and so do a NaN or an infinity: orjson writes them
    as null, like None (told apart by reading the bytes back only when they hold a null)."""
    texts: dict[tuple, str] = {}

    def tojson(x: Any, *args: Any, **kwargs: Any) -> str:
        try:
            data = orjson.dumps(x, option=_STRICT)
            key = (data, args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:
            return original(x, *args, **kwargs)
        if b"null" in data and orjson.loads(data) != x:
            return original(x, *args, **kwargs)
        text = texts.get(key)
        if text is None:
            text = original(x, *args, **kwargs)
            if len(texts) >= size:
                texts.clear()
            texts[key] = text
        return text

    return tojson


def _unwrap(tokenizer: Any) -> tuple[Any, Any | None]:
    """The Hugging Face tokenizer and mlx-lm's wrapper around it (None if not wrapped)."""
    try:
        from mlx_lm.tokenizer_utils import TokenizerWrapper
    except ImportError:
        return tokenizer, None
    if isinstance(tokenizer, TokenizerWrapper):
        return tokenizer._tokenizer, tokenizer
    return tokenizer, None


class ChatRenderer:
    """``render(messages, tools, add_generation_prompt=..., **template_kwargs)`` returns what
    ``tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=...,
    tokenize=False, **template_kwargs)`` returns, for an mlx-lm or Hugging Face tokenizer."""

    def __init__(self, tokenizer: Any, *, check_every: int = CHECK_EVERY):
        self.tokenizer = tokenizer
        self.check_every = check_every
        self.stats = RenderStats()
        self.off_reason: str | None = None  # why the fast path is off, once it is
        self._templates: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._loads = lru_cache(maxsize=PLAIN_CACHE)(orjson.loads)
        self._hf, self._wrapper = _unwrap(tokenizer)
        self._helpers: _Helpers | None = None
        try:
            self._helpers = _helpers(self._hf)
            reason = self._unsupported()
        except Exception as e:  # noqa: BLE001 - private APIs moved: the slow path still works
            reason = f"transformers helpers unavailable ({type(e).__name__}: {e})"
        if reason:
            self._turn_off(reason)

    @property
    def fast(self) -> bool:
        return self.off_reason is None

    def _unsupported(self) -> str | None:
        from transformers import PreTrainedTokenizerBase

        if not isinstance(self._hf, PreTrainedTokenizerBase):
            return f"not a transformers tokenizer ({type(self._hf).__name__})"
        if type(self._hf).apply_chat_template is not PreTrainedTokenizerBase.apply_chat_template:
            return f"{type(self._hf).__name__} renders chats itself"
        if self._wrapper is not None:
            if getattr(self._wrapper, "_chat_template", None) is not None:
                return "mlx-lm renders this model's chats with its own template"
            if getattr(self._wrapper, "_thinking_kwarg", None) != "enable_thinking":
                return "mlx-lm passes thinking to this template under another name"
        return None

    def _turn_off(self, reason: str) -> None:
        with self._lock:
            if self.off_reason is not None:
                return
            self.off_reason = reason
        warnings.warn(f"chat template fast path off, rendering with apply_chat_template: "
                      f"{reason}", RuntimeWarning, stacklevel=3)

    # -- rendering ------------------------------------------------------------------------

    def render(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None,
               *, add_generation_prompt: bool = False, **template_kwargs: Any) -> str:
        def slow() -> str:
            return self.tokenizer.apply_chat_template(
                messages, tools=tools, add_generation_prompt=add_generation_prompt,
                tokenize=False, **template_kwargs)

        if not self.fast or self._helpers.reserved.intersection(template_kwargs):
            self.stats.slow += 1
            return slow()
        try:
            text = self._render_fast(messages, tools, add_generation_prompt, template_kwargs)
        except NotPlain:
            self.stats.slow += 1
            return slow()
        except Exception as e:  # noqa: BLE001 - judged by what apply_chat_template does
            expected = slow()  # raises if the conversation itself is wrong: nothing to fix
            self._turn_off(f"the fast path failed where apply_chat_template did not "
                           f"({type(e).__name__}: {e})")
            self.stats.slow += 1
            return expected
        with self._lock:  # sessions of a batch render in their own threads
            self.stats.fast += 1
            check = self.stats.fast == 1 or (self.check_every > 0
                                             and self.stats.fast % self.check_every == 0)
            self.stats.checked += int(check)
        if check:
            expected = slow()
            if text != expected:
                at = next((i for i, (a, b) in enumerate(zip(text, expected)) if a != b),
                          min(len(text), len(expected)))
                self._turn_off(f"its text differs from apply_chat_template's at character {at}")
                return expected
        return text

    def _render_fast(self, messages: list, tools: list | None, add_generation_prompt: bool,
                     template_kwargs: dict[str, Any]) -> str:
        if type(messages) is not list or not messages:
            raise NotPlain("not a non-empty list of messages")
        if tools is not None and (type(tools) is not list
                                  or any(type(t) is not dict for t in tools)):
            raise NotPlain("tools other than JSON schemas")
        kwargs = {**self._hf.special_tokens_map, **template_kwargs}
        if self._wrapper is not None and "enable_thinking" not in template_kwargs:
            kwargs["enable_thinking"] = self._wrapper.has_thinking
        chat = []
        for message in messages:
            if type(message) is not dict:
                raise NotPlain("a message that is not a dict")
            # As apply_chat_template does: None fields dropped, then everything made plain.
            chat.append({k: v for k, v in self._plain(message).items() if v is not None})
        chat = self._helpers.alias_reasoning(chat)
        template = self._template(self._hf.get_chat_template(None, tools))
        return template.render(
            messages=chat, tools=None if tools is None else self._plain(tools), documents=None,
            add_generation_prompt=add_generation_prompt, **self._plain(kwargs))

    def _plain(self, value: Any) -> Any:
        """A plain JSON copy of ``value`` (shared: never modified), equal to what transformers'
        conversion gives, or NotPlain."""
        try:
            data = orjson.dumps(value, option=_STRICT)
        except TypeError as e:
            raise NotPlain(str(e)) from None
        plain = self._loads(data)
        if plain != value:
            raise NotPlain("changed by a JSON round trip")
        return plain

    def _template(self, source: str) -> Any:
        template = self._templates.get(source)
        if template is None:
            h = self._helpers
            if h.compile_fresh is None:
                template = h.compile_shared(source)
            else:
                # Our own environment, so that the tojson memo never reaches transformers'.
                template = h.compile_fresh(source)
                filters = template.environment.filters
                original = filters.get("tojson")
                # Jinja's own tojson takes the eval context: only a plain function is wrapped.
                if original is not None and not hasattr(original, "jinja_pass_arg"):
                    filters["tojson"] = _memo_tojson(original, TOJSON_CACHE)
            self._templates[source] = template
        return template
