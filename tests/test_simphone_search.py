"""The phone's forgiving search in languages written without spaces or with attached particles."""

from __future__ import annotations

import pytest

from orvena_bench.formats.textmatch import fold
from simphone.relations import relations_in
from simphone.search import matches


@pytest.mark.parametrize("query, text", [
    ("京都の紅葉", "京都 紅葉 名所"),            # a particle joins two words
    ("近くの郵便局", "渋谷郵便局"),              # "near" carries no meaning for the match
    ("羽田空港第3ターミナル", "羽田空港 第3ターミナル"),  # the item's text has a space
    ("설악산에", "설악산 국립공원"),             # a Korean particle on the noun
    ("근처 약국이", "온누리 약국"),
    ("Zürich", "zurich hb"),
    ("mano sesuo", "Rūta Petraitienė sesuo"),   # "my" in Lithuanian carries no meaning
    ("दिल्ली", "नई दिल्ली मेट्रो"),                # Hindi vowel signs are inside the word
])
def test_a_query_finds_what_a_phone_would(query, text):
    assert matches(query, text)


@pytest.mark.parametrize("query, text", [
    ("東京", "京都駅"),        # shared characters are not the same place
    ("학교", "학원"),
    ("郵便局", "銀行"),
    ("दिल्ली", "दालें"),        # not three consonants that happen to occur
])
def test_a_query_does_not_find_other_words(query, text):
    assert not matches(query, text)


@pytest.mark.parametrize("word, relation", [
    ("siostrze", "sister"),     # Polish dative of siostra
    ("sestře", "sister"),       # Czech; sestřenice (a cousin) is not an inflection of it
    ("bratem", "brother"),
    ("сестрі", "sister"),       # Ukrainian
    ("szefowej", "boss"),
])
def test_an_inflected_relation_word_names_its_relation(word, relation):
    folded = fold(word)
    assert relations_in(folded, [folded]) == {folded: frozenset({relation})}


def test_a_hindi_relation_word_with_vowel_signs_names_its_relation():
    folded = fold("दीदी")
    assert relations_in(folded, [folded]) == {folded: frozenset({"sister"})}
