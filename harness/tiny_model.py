"""A tiny random MLX model with a real tokenizer and a Qwen-style chat template with tools.

It lets tests, benchmarks and new users run the MLX path without downloading weights. The
weights are random, so its text is noise; what is real is everything around it: `mlx_lm.load`,
the chat template with ``tools=``, the tool-parser detection, the prompt caches and 4-bit
quantization. Two layouts match the two template families the bench meets:

- ``qwen3``: all-attention layers (trimmable KV caches); JSON tool calls inside ``<tool_call>``
  (mlx-lm detects ``json_tools``); the system prompt before the tool list.
- ``qwen3_5``: a gated-delta recurrent layer and an attention layer (a cache that cannot be
  trimmed); XML ``<function=...>`` calls (mlx-lm detects ``qwen3_coder``); the tool list before
  the system prompt, as in Qwen3.5.

Weights are quantized to 4 bits with group size 64 and kept with float32 scales: on a CPU, MLX's
bf16 quantized matmul is several times slower than the f32 one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

Arch = Literal["qwen3", "qwen3_5"]
ARCHES: tuple[Arch, ...] = ("qwen3", "qwen3_5")

GROUP_SIZE = 64
BITS = 4
VOCAB_TARGET = 2032

# The Qwen2 pre-tokenizer split. transformers loads a qwen3_5 directory with a tokenizer class
# that installs this split itself; using it here keeps tokenizer.json and AutoTokenizer agreeing.
_QWEN_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}"
    r"| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
# Marker tokens the real Qwen vocabularies have as single (non-special) tokens.
_MARKERS = ["<tool_call>", "</tool_call>", "<think>", "</think>", "<tool_response>",
            "</tool_response>"]

# Training text for the BPE merges: a few phone-assistant phrases in the bench's main scripts and
# the shapes of tool calls, so that common words and JSON punctuation get their own tokens. The
# catalog's tool declarations and system prompt are added to it (``_training_lines``).
_CORPUS = """\
Set an alarm for 7:30 tomorrow morning and remind me to call Aoife about the lease.
What's the weather in Dublin on Friday? Will it rain in the afternoon?
Create an event called Team lunch next Tuesday at 12:30 at the usual place.
How long does it take to drive from Galway to Limerick with current traffic?
Stell einen Wecker für morgen um sieben Uhr und erinnere mich an den Zahnarzttermin.
Wie wird das Wetter am Wochenende in München? Regnet es am Samstag?
Réserve-moi un rappel pour acheter du pain demain à dix-huit heures.
Quel temps fera-t-il à Lyon jeudi après-midi ? Il pleut souvent en novembre.
Pon una alarma a las ocho y media y añade una cita con el médico el viernes.
¿Cuánto se tarda en llegar de Sevilla a Córdoba en tren?
Imposta un promemoria per chiamare Giulia stasera alle nove.
Che tempo fa a Torino domani? Serve l'ombrello?
Lembra-me de pagar a conta da luz na próxima segunda-feira.
Påminn mig att vattna blommorna i morgon klockan åtta.
Поставь будильник на семь утра и напомни позвонить маме вечером.
Какая погода будет в Москве в пятницу?
明天早上七点叫醒我，然后提醒我下午三点开会。
北京明天的天气怎么样？会下雨吗？
明日の朝七時にアラームをセットして、午後の会議をリマインドしてください。
東京の天気は週末どうですか。
내일 아침 일곱 시에 알람을 맞춰 주세요. 서울 날씨는 어때요?
Yarın sabah yedide alarm kur ve annemi aramamı hatırlat.
Zet een herinnering voor morgen om negen uur: boodschappen doen.
Przypomnij mi jutro o ósmej, żebym zadzwonił do Kasi.
Nhắc tôi gọi cho mẹ lúc tám giờ tối nay.
<tool_call>
{"name": "schedule_alarm", "arguments": {"time": "2026-11-05T07:30", "label": "Gym"}}
</tool_call>
<tool_call>
<function=create_event>
<parameter=title>
Team lunch
</parameter>
<parameter=start>
2026-11-10T12:30
</parameter>
</function>
</tool_call>
<tool_response>
1 event created: Team lunch, Tuesday 10 November 2026 12:30-13:30 (id ev-104)
</tool_response>
{"type": "function", "function": {"name": "get_weather", "description": "Get the forecast for a
place and day.", "parameters": {"type": "object", "properties": {"place": {"type": "string"},
"days": {"type": "integer", "minimum": 1, "maximum": 10}}, "required": ["place"]}}}
You are a helpful assistant on the user's iPhone. Today is Wednesday 4 November 2026, 10:30.
0 1 2 3 4 5 6 7 8 9 10 11 12 15 20 30 45 60 100 2026 +353 00 123 4567 name@mail.example
"""

# Both families put consecutive tool results into one user turn, then open the assistant's turn.
_TOOL_RESULTS_AND_PROMPT = """\
{%- elif m.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}{{- '<|im_start|>user' }}{%- endif %}
{{- '\\n<tool_response>\\n' + m.content + '\\n</tool_response>' }}
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}{{- '<|im_end|>\\n' }}{%- endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
{{- '<|im_start|>assistant\\n' }}
"""

# Qwen3-style: system prompt, then the tool list as JSON lines; calls as one JSON object per
# <tool_call> block; an assistant turn before the last user query, or one with no reasoning that
# is not the last message, is rendered without its think block (as Qwen3's own template does).
QWEN3_TEMPLATE = """\
{%- if tools %}
{{- '<|im_start|>system\\n' }}
{%- if messages[0].role == 'system' %}{{- messages[0].content + '\\n\\n' }}{%- endif %}
{{- '# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\n' }}
{{- 'You are provided with function signatures within <tools></tools> XML tags:\\n<tools>' }}
{%- for tool in tools %}{{- '\\n' }}{{- tool | tojson }}{%- endfor %}
{{- '\\n</tools>\\n\\nFor each function call, return a json object with function name and ' }}
{{- 'arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n' }}
{{- '{"name": <function-name>, "arguments": <args-json-object>}\\n</tool_call><|im_end|>\\n' }}
{%- elif messages[0].role == 'system' %}
{{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}
{%- endif %}
{%- set ns = namespace(last_query=-1) %}
{%- for m in messages %}{%- if m.role == 'user' %}{%- set ns.last_query = loop.index0 %}{%- endif %}{%- endfor %}
{%- for m in messages %}
{%- if m.role == 'user' or (m.role == 'system' and not loop.first) %}
{{- '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}
{%- elif m.role == 'assistant' %}
{%- set content = m.content or '' %}
{%- set reasoning = m.reasoning_content or '' %}
{{- '<|im_start|>assistant\\n' }}
{%- if loop.index0 > ns.last_query and (loop.last or reasoning) %}
{{- '<think>\\n' + reasoning.strip('\\n') + '\\n</think>\\n\\n' }}
{%- endif %}
{{- content }}
{%- for call in m.tool_calls or [] %}
{%- set tool_call = call.function if call.function is defined else call %}
{%- if (loop.first and content) or not loop.first %}{{- '\\n' }}{%- endif %}
{{- '<tool_call>\\n{"name": "' + tool_call.name + '", "arguments": ' }}
{%- if tool_call.arguments is string %}{{- tool_call.arguments }}{%- else %}{{- tool_call.arguments | tojson }}{%- endif %}
{{- '}\\n</tool_call>' }}
{%- endfor %}
{{- '<|im_end|>\\n' }}
""" + _TOOL_RESULTS_AND_PROMPT + """{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}
{%- endif %}
"""

# Qwen3.5-style: the tool list first, then the system prompt, in one system turn; calls as
# <function=NAME> with one <parameter=KEY> per argument (arguments must be a mapping); every
# assistant turn after the last user query keeps a think block, empty when there was no reasoning,
# so a re-rendered turn equals the generation prompt plus the generated text.
QWEN3_5_TEMPLATE = """\
{%- if not messages %}{{- raise_exception('No messages provided.') }}{%- endif %}
{%- set has_system = messages[0].role == 'system' %}
{%- if tools %}
{{- '<|im_start|>system\\n# Tools\\n\\nYou have access to the following functions:\\n\\n<tools>' }}
{%- for tool in tools %}{{- '\\n' }}{{- tool | tojson }}{%- endfor %}
{{- '\\n</tools>\\n\\nIf you choose to call a function ONLY reply in the following format:\\n\\n' }}
{{- '<tool_call>\\n<function=example_function_name>\\n<parameter=example_parameter_1>\\nvalue_1\\n' }}
{{- '</parameter>\\n</function>\\n</tool_call>' }}
{%- if has_system %}{{- '\\n\\n' + messages[0].content }}{%- endif %}
{{- '<|im_end|>\\n' }}
{%- elif has_system %}
{{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}
{%- endif %}
{%- set ns = namespace(last_query=-1) %}
{%- for m in messages %}{%- if m.role == 'user' %}{%- set ns.last_query = loop.index0 %}{%- endif %}{%- endfor %}
{%- if ns.last_query < 0 %}{{- raise_exception('No user query found in messages.') }}{%- endif %}
{%- for m in messages %}
{%- if m.role == 'system' %}
{%- if not loop.first %}{{- raise_exception('System message must be at the beginning.') }}{%- endif %}
{%- elif m.role == 'user' %}
{{- '<|im_start|>user\\n' + m.content + '<|im_end|>\\n' }}
{%- elif m.role == 'assistant' %}
{%- set content = (m.content or '') | trim %}
{%- set reasoning = (m.reasoning_content or '') | trim %}
{{- '<|im_start|>assistant\\n' }}
{%- if loop.index0 > ns.last_query %}{{- '<think>\\n' + reasoning + '\\n</think>\\n\\n' }}{%- endif %}
{{- content }}
{%- for call in m.tool_calls or [] %}
{%- set tool_call = call.function if call.function is defined else call %}
{%- if loop.first %}{%- if content %}{{- '\\n\\n' }}{%- endif %}{%- else %}{{- '\\n' }}{%- endif %}
{{- '<tool_call>\\n<function=' + tool_call.name + '>\\n' }}
{%- for key, value in tool_call.arguments | items %}
{{- '<parameter=' + key + '>\\n' }}
{%- if value is string %}{{- value }}{%- else %}{{- value | tojson }}{%- endif %}
{{- '\\n</parameter>\\n' }}
{%- endfor %}
{{- '</function>\\n</tool_call>' }}
{%- endfor %}
{{- '<|im_end|>\\n' }}
""" + _TOOL_RESULTS_AND_PROMPT + """{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}
{%- else %}{{- '<think>\\n' }}{%- endif %}
{%- endif %}
"""


def _model_config(arch: Arch, vocab_size: int, eos_id: int) -> dict:
    common = {
        "hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "rms_norm_eps": 1e-6,
        "max_position_embeddings": 32768, "tie_word_embeddings": True,
        "vocab_size": vocab_size, "eos_token_id": eos_id,
    }
    if arch == "qwen3":
        return {"model_type": "qwen3", "num_hidden_layers": 2, "rope_theta": 1e6, **common}
    # A flat text-only config: qwen3_5's ModelArgs wraps it as its text_config.
    return {
        # One recurrent layer and one attention layer: both cache kinds, at half the CPU time
        # of Qwen3.5's own 3:1 interleave (the recurrence runs token by token on a CPU).
        "model_type": "qwen3_5", "num_hidden_layers": 2, "full_attention_interval": 2,
        "linear_num_key_heads": 2, "linear_num_value_heads": 4, "linear_key_head_dim": 32,
        "linear_value_head_dim": 32, "linear_conv_kernel_dim": 4,
        "rope_parameters": {"rope_type": "default", "rope_theta": 1e7,
                            "partial_rotary_factor": 0.25, "mrope_section": [11, 11, 10]},
        **common,
    }


def _training_lines() -> list[str]:
    """The corpus, plus the catalog's tool declarations (as the chat templates write them), its
    base system prompt and the prompt templates. A real 150k vocabulary has whole tokens for
    nearly every English word and JSON fragment of these; a 2k vocabulary trained without them
    splits the first prompt into 11.2k tokens against cl100k_base's 6.6k, and so would give
    every benchmark and test a context (and attention cost) 1.7 times too long. With them the
    first prompt is within about 1% of cl100k_base (docs/performance.md)."""
    from orvena_bench.formats.catalog import load_catalog
    from orvena_bench.formats.paths import catalog_path, prompts_dir

    lines = _CORPUS.splitlines()
    path = catalog_path()
    if path.exists():
        catalog = load_catalog(path)
        lines += [json.dumps(t.openai_schema(), ensure_ascii=False) for t in catalog.tools]
        lines += catalog.systemPrompt.splitlines()
    for template in sorted(prompts_dir().glob("*.jinja")):
        lines += template.read_text(encoding="utf-8").splitlines()
    return lines


def _train_tokenizer():
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers
    from tokenizers import pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(_QWEN_SPLIT), "isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_TARGET, special_tokens=_SPECIAL, min_frequency=1,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(_training_lines(), trainer=trainer)
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in _MARKERS])
    return tok


def build_tiny_model(out_dir: str | Path, arch: Arch = "qwen3_5", *, seed: int = 0,
                     template: str | None = None, tokenizer_files: dict[str, bytes] | None = None,
                     vocab_size: int | None = None, weights: bool = True) -> Path:
    """Write a loadable 4-bit model directory (config, safetensors, tokenizer, chat template)
    and return its path. The same seed gives the same weights.

    template and tokenizer_files (tokenizer.json, tokenizer_config.json) replace the made-up
    ones, e.g. real ones from harness/real_parts.py; vocab_size pads the embedding (a real
    checkpoint's is larger than its tokenizer). weights=False writes only what the chat side
    needs (check-model without --generate)."""
    if arch not in ARCHES:
        raise ValueError(f"unknown tiny-model arch {arch!r}; choose one of {', '.join(ARCHES)}")
    from tokenizers import Tokenizer
    from transformers import PreTrainedTokenizerFast

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    template = template or (QWEN3_TEMPLATE if arch == "qwen3" else QWEN3_5_TEMPLATE)
    if tokenizer_files is None:
        fast = PreTrainedTokenizerFast(
            tokenizer_object=_train_tokenizer(), eos_token="<|im_end|>",
            pad_token="<|endoftext|>", chat_template=template)
        fast.save_pretrained(str(out))
    else:
        for name, data in tokenizer_files.items():
            (out / name).write_bytes(data)
        (out / "chat_template.jinja").write_text(template, encoding="utf-8")
    tok = Tokenizer.from_file(str(out / "tokenizer.json"))
    size = max(vocab_size or 0, tok.get_vocab_size(with_added_tokens=True))
    ends = [i for i in (tok.token_to_id("<|im_end|>"), tok.token_to_id("<|endoftext|>"))
            if i is not None]
    eos: int | list[int] = ends[0] if tokenizer_files is None else ends
    config = _model_config(arch, size, eos)
    if weights:
        import mlx.core as mx
        from mlx_lm.utils import _get_classes, quantize_model, save_model

        model_class, args_class = _get_classes(config)
        mx.random.seed(seed)
        model = model_class(args_class.from_dict(config))
        mx.eval(model.parameters())
        # Float32 weights give float32 scales and biases after quantization.
        model, config = quantize_model(model, config, GROUP_SIZE, BITS)
        save_model(out, model)
    from mlx_lm.utils import save_config

    save_config(config, out / "config.json")
    (out / "generation_config.json").write_text(
        json.dumps({"eos_token_id": config["eos_token_id"]}, indent=2) + "\n")
    return out


# The real checkpoints' embedding sizes (their tokenizers have fewer ids).
REAL_VOCAB_SIZE = {"qwen3": 151936, "qwen3_5": 248320}


def build_real_tiny_model(out_dir: str | Path, arch: Arch = "qwen3_5", *,
                          template: str | None = None, weights: bool = True,
                          download: bool = True) -> Path:
    """A tiny random model with a real family's tokenizer and, by default, its real chat
    template (Qwen3-0.6B's, Qwen3.5-4B's as llama.cpp vendors them; harness/real_parts.py).
    Raises real_parts.Unavailable when the packages cannot be had."""
    from harness import real_parts

    if arch == "qwen3":
        files = real_parts.qwen3_tokenizer_files(download)
        name = real_parts.QWEN3_TEMPLATE
    else:
        files = real_parts.qwen3_5_tokenizer_files(download)
        name = real_parts.QWEN3_5_TEMPLATE
    template = template or real_parts.llama_cpp_templates(download)[name]
    return build_tiny_model(out_dir, arch, template=template, tokenizer_files=files,
                            vocab_size=REAL_VOCAB_SIZE[arch], weights=weights)
