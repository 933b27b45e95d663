"""The language check: the card's structure (stripping, 12 letters, settle step, same-language
groups, English-only rule for et/lv/lt/sl) with the gate calibrated on lingua."""

import pytest

from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from scoring import score
from scoring.language import (
    LanguageCheck, build_detector, main_script_text, same_language, strip_for_language,
)
from scoring.names import without_names
from scoring.settle import SETTLE_GROUPS, EVIDENCE, settle


@pytest.fixture(scope="module")
def check():
    return LanguageCheck(detector=build_detector())


def accepted(check, answer, expected, tool_outputs=()):
    return check.judge(answer, expected, tool_outputs).accepted


# --- what is read ---------------------------------------------------------------------------------
@pytest.mark.parametrize("quoted", ['"Bohemian Rhapsody"', "“Bohemian Rhapsody”", "„Bohemian Rhapsody“",
                                    "«Bohemian Rhapsody»", "‘Bohemian Rhapsody’", "「Bohemian Rhapsody」",
                                    "『Bohemian Rhapsody』", "'Bohemian Rhapsody'"])
def test_quoted_text_is_not_read(quoted):
    assert strip_for_language(f"Ich spiele {quoted} ab.") == "Ich spiele ab."


def test_apostrophes_are_not_quotes():
    assert strip_for_language("It's at l'Orangerie, the kids' favourite") == \
        "It's at l'Orangerie, the kids' favourite"


def test_words_that_occur_in_tool_output_are_not_read_and_addresses_neither():
    outputs = ["Event: Quarterly Planning Review, Conference Room B", "mail: ceo@orvena.example"]
    text = strip_for_language("Dein Termin Quarterly planning review ist in Conference Room B, "
                              "Details unter https://intranet.example/x oder ceo@orvena.example.", outputs)
    assert text == "Dein Termin ist in , Details unter oder ."


def test_the_check_runs_only_when_12_letters_remain(check):
    # An English answer, but after the tool's words go only "OK, at" and digits remain.
    outputs = ["Restaurant Nordic Kitchen, Storgata 12, table for 4 at 19:30"]
    judgement = check.judge("OK, Nordic Kitchen at 19:30, table for 4.", "da", outputs)
    assert judgement.accepted and judgement.how == "too-short"
    assert not accepted(check, "OK, I booked a table at Nordic Kitchen for four at 19:30.", "da", outputs)


def test_only_the_main_script_is_read():
    assert main_script_text("YYYY-MM-DD 형식이어야 합니다.") == "- - 형식이어야 합니다."
    assert main_script_text("Your meeting at 강남역 is at 3pm") == "Your meeting at is at 3pm"
    assert main_script_text("Встреча с Anna в 15:00") == "Встреча с в 15:00"


def test_a_korean_answer_with_latin_names_is_korean(check):
    assert accepted(check, "내일 오후 3시에 Starbucks Gangnam에서 Kim Minjun 님과 회의가 있습니다.", "ko")


# --- the calibrated gate ----------------------------------------------------------------------------
@pytest.mark.parametrize("language, answer", [
    ("de", "Ich habe dir für morgen um halb acht eine Erinnerung eingerichtet."),
    ("fr", "J'ai ajouté le rendez-vous chez le dentiste vendredi à dix heures."),
    ("ja", "明日の午前10時に歯医者の予約を入れました。"),
    ("ar", "أضفت موعد طبيب الأسنان يوم الجمعة في الساعة العاشرة صباحًا."),
    ("el", "Πρόσθεσα το ραντεβού με τον οδοντίατρο την Παρασκευή στις δέκα."),
    ("hi", "मैंने शुक्रवार सुबह दस बजे दंत चिकित्सक की अपॉइंटमेंट जोड़ दी है।"),
    ("tr", "Cuma sabah saat onda diş hekimi randevunu takvime ekledim."),
])
def test_an_answer_in_the_request_language_passes(check, language, answer):
    assert accepted(check, answer, language)


@pytest.mark.parametrize("language", ["da", "de", "es", "fr", "ja", "ru", "pl", "tr", "hu", "ro"])
def test_an_english_answer_to_a_non_english_request_fails(check, language):
    judgement = check.judge("I've added the dentist appointment on Friday at ten in the morning.",
                            language)
    assert not judgement.accepted and judgement.reading == "en"


def test_the_literal_gate_would_have_let_this_english_answer_through(check):
    # lingua spreads its confidence: the top reading is English but below the card's 0.5.
    text = "Sent the message to Marta."
    confidences = check.confidences(text)
    assert max(confidences, key=confidences.get) == "en" and confidences["en"] < 0.5
    assert not accepted(check, text, "de")


def test_the_failed_check_says_which_language_it_read(check):
    judgement = check.judge("I've added the dentist appointment on Friday at ten.", "de")
    assert judgement.sentence("de") == "the answer is not in German (de): it reads as English (en)"


# --- names set aside -------------------------------------------------------------------------------
def test_names_are_the_capitalised_words_inside_a_sentence():
    assert without_names("It will rain in Mustamäe on Saturday. Take an umbrella, Ana.") == \
        "It will rain in on . Take an umbrella, ."
    assert without_names("- Bolta Veche: închis\n1. Cofetăria Unirii: deschis") == \
        "- Bolta : închis 1. Cofetăria : deschis"
    assert without_names("明日の午前10時です。") == "明日の午前10時です。"


@pytest.mark.parametrize("language, answer", [
    ("ro", "The highest peak in Romania is Moldoveanu, at 2,544 metres, in the Făgăraș Mountains."),
    ("ro", "I can't book a table at Cofetăria Unirii for you, but you can call them."),
    ("pl", "It will rain in Warszawa-Ursynów on Saturday, so take an umbrella."),
    ("vi", "Your meeting with Trần Văn Đức is tomorrow at 3 pm at Quận Bình Thạnh."),
    ("et", "It will rain in Mustamäe on Saturday, so take an umbrella."),
])
def test_an_english_answer_naming_local_places_and_people_fails(check, language, answer):
    # Read whole, these pass: a letter only the local language writes outweighs the English.
    assert accepted(LanguageCheck(names_aside=False, detector=check.detector), answer, language)
    judgement = check.judge(answer, language)
    assert not judgement.accepted and (judgement.how, judgement.reading) == ("without-names", "en")
    assert judgement.sentence(language).endswith("without its names it reads as English (en)")


@pytest.mark.parametrize("language, answer", [
    ("ro", "Cel mai înalt vârf din România este Moldoveanu, 2544 m, în Munții Făgăraș."),
    ("de", "Der höchste Berg Deutschlands ist die Zugspitze mit 2962 Metern im Wettersteingebirge."),
    ("cs", "Zprávu jsem poslala Evě Svobodové, bude tam v sedm, u Knihkupectví Academia."),
    ("nl", "De trein van Haarlem naar Amsterdam Centraal vertrekt om 8:15 vanaf spoor 3."),
])
def test_an_answer_in_the_request_language_full_of_names_passes(check, language, answer):
    assert accepted(check, answer, language)


# --- same-language groups -------------------------------------------------------------------------
def test_same_language_groups():
    assert {same_language(c) for c in ("da", "nb", "no", "nn")} == {"da"}
    assert {same_language(c) for c in ("hr", "bs", "sr")} == {"hr"}
    assert same_language("ms") == "id" and same_language("mr") == same_language("ne") == "hi"
    assert same_language("pt-BR") == "pt" and same_language("zh_Hant") == "zh"


def test_a_norwegian_answer_counts_as_danish(check):
    assert accepted(check, "Jeg har lagt inn tannlegetimen på fredag klokka ti.", "da")
    assert accepted(check, "Jeg har lagt inn tannlegetimen på fredag klokka ti.", "nb")


def test_a_serbian_latin_answer_counts_as_croatian(check):
    assert accepted(check, "Dodao sam termin kod zubara u petak u deset sati ujutru.", "hr")


# --- the settle step ------------------------------------------------------------------------------
@pytest.mark.parametrize("language, text", [
    ("uk", "Нагадування створено: завтра о десятій, і я вам нагадаю."),
    ("ru", "Напоминание создано: завтра в десять, я вам напомню, это важно."),
    ("bg", "Напомнянето е създадено за утре в десет, ще ви напомня."),
    ("hr", "Sutra u deset sati imate sastanak koji je vrlo važan."),
    ("sl", "Jutri ob desetih imate sestanek, ki je zelo pomemben."),
    ("lv", "Rīt pulksten desmitos jums ir sapulce, tā ir svarīga."),
    ("lt", "Rytoj dešimtą valandą jūs turite susitikimą, jis yra svarbus."),
    ("pl", "Jutro o dziesiątej masz spotkanie, które jest bardzo ważne."),
    ("et", "Homme kell kümme on teil koosolek, see on väga oluline."),
    ("fi", "Huomenna kello kymmenen sinulla on kokous, se on tärkeä."),
])
def test_confusable_languages_are_settled_by_letters_and_function_words(language, text):
    group = next(g for g in SETTLE_GROUPS if language in g)
    assert settle(text, group) == language


@pytest.mark.parametrize("text", [
    "Z ekipo agencije ste se dogovorili, da končne vizuale oddajo do petka. Rok so prestavili "
    "zaradi nove verzije logotipa.",
    "Tega ne morem, naročanje taksijev prek aplikacije ni med mojimi funkcijami.",
    "Fotografije iz Slovenije sem shranila v album, ki je zelo prijeten.",
])
def test_slovenian_words_ending_in_ije_do_not_make_an_answer_croatian(text):
    # Both languages end the cases of -ija nouns in -ije; only an ijekavian "ije" is Croatian.
    assert settle(text, SETTLE_GROUPS[1]) == "sl"


@pytest.mark.parametrize("text", [
    "Prije podne je vrijeme lijepo, a cijena karte je deset eura.",
    "Nije moguće promijeniti vrijednost ove opcije.",
])
def test_ijekavian_spellings_still_make_an_answer_croatian(text):
    assert settle(text, SETTLE_GROUPS[1]) == "hr"


@pytest.mark.parametrize("answer", [
    "Minulta puuttuu yhteys Woltiin, joten tilaa kebabpizza itse sovelluksesta kotiosoitteeseen.",
    "En itse pysty tilaamaan ruokaa Woltista, koska minulla ei ole yhteyttä palveluun. Tilaa "
    "kebabpizza suoraan Wolt-sovelluksesta kotiisi.",
])
def test_a_name_inside_a_sentence_is_not_evidence(check, answer):
    # The w of "Wolt" counted for Polish, and these Finnish answers were settled as Polish.
    assert settle(answer, SETTLE_GROUPS[2]) in (None, "fi")
    assert accepted(check, answer, "fi")


def test_a_capital_that_starts_a_sentence_is_still_read():
    assert settle("Jutro o dziesiątej masz spotkanie. Będzie też Łukasz.", SETTLE_GROUPS[2]) == "pl"
    assert settle("Łódź", SETTLE_GROUPS[2]) == "pl"


def test_settle_decides_nothing_without_evidence():
    assert settle("Marta Anna Petra", SETTLE_GROUPS[1]) is None


def test_no_function_word_belongs_to_two_languages_of_a_group():
    for group in SETTLE_GROUPS:
        for a in group:
            for b in group - {a}:
                assert not EVIDENCE[a].words & EVIDENCE[b].words, (a, b)


def test_a_russian_answer_to_a_ukrainian_request_fails(check):
    judgement = check.judge("Напоминание создано: завтра в десять, я вам напомню, это важно.", "uk")
    assert not judgement.accepted and judgement.reading == "ru"


def test_a_croatian_answer_to_a_slovenian_request_is_settled_and_fails(check):
    judgement = check.judge("Sutra u deset sati imate sastanak koji je vrlo važan.", "sl")
    assert not judgement.accepted and (judgement.how, judgement.reading) == ("settled", "hr")


def test_a_slovenian_answer_with_ije_nouns_passes_and_a_croatian_one_still_fails(check):
    slovenian = "Tega ne morem, naročanje taksijev prek aplikacije ni med mojimi funkcijami."
    croatian = "Nažalost, to ne mogu, naručivanje taksija preko aplikacije nije moguće."
    assert accepted(check, slovenian, "sl")
    assert not accepted(check, croatian, "sl")
    assert not accepted(check, slovenian, "hr")


# --- the English-only rule for et, lv, lt, sl ------------------------------------------------------
def test_for_estonian_latvian_lithuanian_slovenian_requests_only_english_rejects(check):
    english = "I've added the dentist appointment on Friday at ten in the morning."
    german = "Ich habe den Zahnarzttermin am Freitag um zehn Uhr eingetragen."
    for language in ("et", "lv", "lt", "sl"):
        assert not accepted(check, english, language)
        assert accepted(check, german, language)     # the card's rule: only English rejects
    assert not accepted(check, german, "fi")         # elsewhere another language rejects


# --- through score() --------------------------------------------------------------------------------
def test_score_checks_the_language_of_the_request_or_the_expected_one(check):
    s = Scenario.model_validate({"id": "de-weather-x", "language": "de", "category": "weather",
                                 "request": "...", "expect": {}})
    line = ResultLine.model_validate({"id": "de-weather-x", "language": "de", "category": "weather",
                                      "model": "m", "answer": "Tomorrow will be sunny with 18 degrees in Lyon."})
    v = score(s, line, language_check=check)
    assert [c.kind for c in v.checks] == ["language"]
    s_en = s.model_copy(update={"expect": s.expect.model_copy(update={"language": "en"})})
    assert score(s_en, line, language_check=check).passed
    assert score(s, line, language_check=False).passed


def test_a_lone_surrogate_in_the_answer_is_skipped_not_a_crash(check):
    # A model that cuts an emoji pair in half writes "\ud83d" alone: the recognizer cannot
    # encode it, and it is no letter of any language.
    judged = check.judge("Your dentist appointment is on Friday at nine \ud83d", "en")
    assert judged.accepted and "\ud83d" not in judged.text
