"""The one line writer and reader: lossless, guarded, and tolerant of a torn last line."""

from __future__ import annotations

import errno
import os

import pytest

from orvena_bench.formats import jsonl
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import (
    TornLine, WriteFailed, appending, dumps, iter_lines, json_text, loads, read_models)
from orvena_bench.formats.result import CallRecord, ResultLine


def line(sid: str, **arguments) -> ResultLine:
    return ResultLine(id=sid, language="en", category="device", model="m",
                      calls=[CallRecord(tool="set_device_setting", arguments=arguments)])


@pytest.mark.parametrize("value", [10**24, -(10**30), 2**64, "hi \ud83d", "\udc00 alone", "😀 pair"])
def test_values_orjson_refuses_are_written_and_read_back_as_they_were(value):
    data = {"value": value, "text": "नमस्ते"}
    raw = dumps(data)
    assert raw.endswith(b"\n") and raw.count(b"\n") == 1
    assert "नमस्ते".encode() in raw  # scripts stay readable, not ASCII-escaped
    assert loads(raw) == data and type(loads(raw)["value"]) is type(value)
    assert loads(json_text(data)) == data


def test_an_integer_orjson_would_read_as_a_float_reads_as_the_integer():
    assert loads(b'{"v": 100000000000000000000000}') == {"v": 100000000000000000000000}
    assert loads(b'{"v": 18446744073709551615}') == {"v": 18446744073709551615}


@pytest.mark.parametrize("text", [b'{"a": NaN}', b'{"a": 1e400}', b'{"a": ', b'{"a": "\\ud83d"} x'])
def test_what_is_not_json_stays_an_error(text):
    with pytest.raises(ValueError):
        loads(text)


def test_a_line_with_a_big_integer_and_a_lone_surrogate_round_trips_through_a_file(tmp_path):
    path = tmp_path / "r.jsonl"
    with appending(path) as writer:
        writer.write(line("a", value=10**24))
        writer.write(line("b", text="cut emoji \ud83d"))
    a, b = read_models(path, ResultLine)
    assert a.calls[0].arguments == {"value": 10**24}
    assert b.calls[0].arguments == {"text": "cut emoji \ud83d"}
    path.read_bytes().decode("utf-8")  # the file itself is valid UTF-8


def test_a_torn_last_line_is_set_aside_by_readers_and_said(tmp_path):
    path = tmp_path / "r.jsonl"
    whole = dumps(line("a").model_dump(mode="json"))
    path.write_bytes(whole + dumps(line("b").model_dump(mode="json"))[:40])
    torn: list[TornLine] = []
    assert [r.id for r in read_models(path, ResultLine, on_torn=torn.append)] == ["a"]
    assert torn == [TornLine(str(path), 2, 40)]
    assert "torn last line set aside" in str(torn[0]) and "run --resume" in str(torn[0])


def test_a_torn_line_before_the_end_is_still_an_error(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b'{"id": "a", "langu\n' + dumps(line("b").model_dump(mode="json")))
    with pytest.raises(FormatError, match=r"r.jsonl:1: not valid JSON"):
        read_models(path, ResultLine)


def test_appending_moves_a_torn_last_line_aside_and_keeps_its_bytes(tmp_path):
    path = tmp_path / "r.jsonl"
    whole = dumps(line("a").model_dump(mode="json"))
    torn = dumps(line("b").model_dump(mode="json"))[:-30]
    path.write_bytes(whole + torn)
    notes: list[str] = []
    with appending(path, on_note=notes.append) as writer:
        writer.write(line("c"))
    assert [r.id for r in read_models(path, ResultLine)] == ["a", "c"]
    assert (tmp_path / "r.jsonl.torn").read_bytes() == torn + b"\n"
    assert notes == [f"{path}:2: torn last line ({len(torn)} bytes, a write cut off) moved to {path}.torn"]


def test_appending_to_a_whole_last_line_without_its_newline_adds_the_newline(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_bytes(dumps(line("a").model_dump(mode="json"))[:-1])  # saved without the final newline
    with appending(path) as writer:
        writer.write(line("b"))
    assert [r.id for r in read_models(path, ResultLine)] == ["a", "b"]
    assert not (tmp_path / "r.jsonl.torn").exists()


def test_a_write_the_disk_refuses_is_cut_back_to_the_last_whole_line(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"
    with appending(path) as writer:
        writer.write(line("a"))
        real_write = os.write

        def half_then_full(fd, data):  # the disk takes half the line, then is full
            if len(data) > 20:
                real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(jsonl.os, "write", half_then_full)
        with pytest.raises(WriteFailed, match="the disk is full; the file is intact up to its last "
                                              "whole line; make room and run again with --resume"):
            writer.write(line("b"))
        monkeypatch.undo()
    assert path.read_bytes().endswith(b"\n")
    assert [r.id for r in read_models(path, ResultLine)] == ["a"]


def test_a_second_writer_of_one_file_is_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    with appending(path):
        with pytest.raises(FormatError, match="another run is writing this file"):
            with appending(path):
                pass
    with appending(path) as writer:  # free again once the first is closed
        writer.write(line("a"))


def test_a_byte_order_mark_does_not_cost_the_first_line(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(jsonl.BOM + b'{"a": 1}\r\n{"a": 2}\n')
    assert [loads(raw) for _, raw in iter_lines(path)] == [{"a": 1}, {"a": 2}]


def test_a_lone_surrogate_in_a_key_is_written_and_read_back():
    data = {"arguments": {"\ud83d": {"a\udc00": 1}}}  # orjson raises the codec's error for keys
    assert loads(dumps(data)) == data and loads(json_text(data)) == data


def test_a_hand_written_file_keeps_its_broken_last_line_an_error(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(dumps(line("a").model_dump(mode="json")) + b'{"id": "b", "langu')  # a typo
    with pytest.raises(FormatError, match=r"s.jsonl:2: not valid JSON"):
        read_models(path, ResultLine)  # no on_torn: nothing set aside
