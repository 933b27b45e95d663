"""Contacts, messages and calls: forgiving search (accents, partial names, relation words in
several languages, numbers), saving, and sending to the right person or failing clearly."""

from __future__ import annotations

import pytest
from test_simphone_support import call, fails, make_phone, ok


def test_a_name_finds_every_contact_that_holds_it_with_numbers_and_ids():
    text = ok(make_phone(), "search_contacts", query="aoife")
    assert text.splitlines() == [
        '2 contacts matching "aoife":',
        "- id: con-1 | Aoife Byrne | relation: sister | mobile +353 00 111 2233 | home aoife.byrne@mail.example",
        "- id: con-2 | Aoife Kelly | work +353 00 444 5566 | company: Liffey Analytics - Designer",
    ]


def test_accents_case_and_partial_names_do_not_matter():
    phone = make_phone()
    assert "con-4 | Jörg Weber" in ok(phone, "search_contacts", query="JORG")
    assert "con-3 | Siobhán Byrne" in ok(phone, "search_contacts", query="siobhan")
    assert ok(phone, "search_contacts", query="Byrne").startswith("2 contacts")
    assert ok(phone, "search_contacts", query="aoife b").startswith("1 contact")


@pytest.mark.parametrize("query", ["my sister", "sis", "Schwester", "ma sœur", "hermana", "sorella",
                                   "сестра", "siostra", "sisko", "abla", "언니"])
def test_a_relation_word_in_many_languages_finds_the_sister(query):
    text = ok(make_phone(), "search_contacts", query=query)
    assert text.startswith("1 contact") and "Aoife Byrne" in text, text


@pytest.mark.parametrize("query", ["mum", "my mom", "Mama", "maman", "äiti", "мама", "Mam", "お母さん"])
def test_mum_in_many_languages_finds_the_mother(query):
    assert "Siobhán Byrne" in ok(make_phone(), "search_contacts", query=query)


def test_the_boss_and_colleagues_are_found_by_relation_or_company():
    phone = make_phone()
    assert "Jörg Weber" in ok(phone, "search_contacts", query="my boss")
    assert "Jörg Weber" in ok(phone, "search_contacts", query="Chef")
    text = ok(phone, "search_contacts", query="Liffey Analytics")
    assert text.startswith("2 contacts") and "Aoife Kelly" in text and "Jörg Weber" in text


def test_a_name_wins_over_a_relation_word_spelt_the_same():
    # "Anne" is "mother" in Turkish; a contact called Anne is who an English user means.
    phone = make_phone({"contacts": [{"name": "Anne Murphy", "phone": "+353 00 1"},
                                     {"name": "Mary Murphy", "relation": "mother", "phone": "+353 00 2"}]})
    text = ok(phone, "search_contacts", query="Anne")
    assert text.startswith("1 contact") and "Anne Murphy" in text


def test_a_number_finds_its_contact():
    assert "Marta Ruiz" in ok(make_phone(), "search_contacts", query="612 345 678")


def test_a_near_miss_shows_the_closest_contacts_and_nothing_is_nothing():
    phone = make_phone()
    text = ok(phone, "search_contacts", query="Jorg Webber")
    assert text.splitlines()[0] == 'No exact match for "Jorg Webber"; closest 1 contact:'
    assert ok(phone, "search_contacts", query="Ciarán") == 'No contacts found matching "Ciarán".'


def test_a_saved_contact_is_found_and_an_update_adds_a_number():
    phone = make_phone()
    assert ok(phone, "save_contact", name="Ciarán Walsh", phone="+353 00 999 0000", relation="neighbour") == \
        "Saved new contact id: con-6 | Ciarán Walsh | relation: neighbour | mobile +353 00 999 0000"
    assert "Ciarán Walsh" in ok(phone, "search_contacts", query="neighbor")
    assert ok(phone, "save_contact", id="con-5", email="marta@liffey.example", company="Liffey Analytics") == (
        "Updated contact id: con-5 | Marta Ruiz | relation: colleague | mobile +34 00 612 345 678 | "
        "home marta@liffey.example | company: Liffey Analytics")
    assert "name is required" in fails(phone, "save_contact", phone="+353 00 1")
    assert "no contact with id 'con-99'" in fails(phone, "save_contact", id="con-99", notes="x")


def test_a_message_goes_to_the_contact_id_or_number_and_is_kept():
    phone = make_phone()
    assert ok(phone, "send_message", to="con-1", text="On my way") == \
        'Message sent to Aoife Byrne (+353 00 111 2233): "On my way"'
    assert ok(phone, "send_message", to="+34 00 612 345 678", text="Running late") == \
        'Message sent to Marta Ruiz (+34 00 612 345 678): "Running late"'
    assert ok(phone, "send_message", to="+1 00 555 0100", text="hi") == 'Message sent to +1 00 555 0100: "hi"'
    assert [(m.to, m.text) for m in phone.messages] == [
        ("Aoife Byrne", "On my way"), ("Marta Ruiz", "Running late"), ("+1 00 555 0100", "hi")]


def test_a_message_to_a_name_needs_one_match():
    phone = make_phone()
    assert fails(phone, "send_message", to="Aoife", text="hi") == (
        "Error: 'Aoife' matches 2 contacts (con-1 Aoife Byrne, con-2 Aoife Kelly); give the contact id")
    assert fails(phone, "send_message", to="Ciarán", text="hi") == \
        "Error: no contact matches 'Ciarán'; call search_contacts or give a phone number"
    assert ok(phone, "send_message", to="Marta Ruiz", text="hi").startswith("Message sent to Marta Ruiz")
    assert ok(phone, "send_message", to="mum", text="hi").startswith("Message sent to Siobhán Byrne")
    assert len(phone.messages) == 2


def test_a_contact_with_only_an_email_gets_an_imessage_but_no_call():
    phone = make_phone({"contacts": [{"name": "Noor Haddad", "email": "noor@mail.example"}]})
    assert ok(phone, "send_message", to="con-1", text="hi") == 'Message sent to Noor Haddad (noor@mail.example): "hi"'
    assert fails(phone, "place_call", to="con-1") == "Error: Noor Haddad has no phone number"


def test_calls_use_the_mobile_number_first():
    phone = make_phone({"contacts": [{"name": "Dara Quinn", "phones": [
        {"label": "home", "number": "+353 00 100"}, {"label": "mobile", "number": "+353 00 200"}]}]})
    assert ok(phone, "place_call", to="Dara") == "Calling Dara Quinn (mobile +353 00 200)..."
    assert ok(phone, "place_call", to="con-1", video=True) == \
        "FaceTime video call to Dara Quinn (mobile +353 00 200)..."
    assert [(c.to, c.video) for c in phone.calls] == [("Dara Quinn", False), ("Dara Quinn", True)]


def test_contacts_permission_denied():
    phone = make_phone({"device": {"permissions": {"contacts": "denied"}}})
    denial = ("Error: access to Contacts is denied for the assistant; the user can allow it in "
              "Settings > Privacy & Security > Contacts")
    assert fails(phone, "search_contacts", query="aoife") == denial
    assert fails(phone, "send_message", to="Aoife Byrne", text="hi") == denial
    # A number needs no contact access.
    assert ok(phone, "send_message", to="+353 00 111 2233", text="hi") == 'Message sent to +353 00 111 2233: "hi"'


def test_bad_and_empty_arguments():
    phone = make_phone()
    assert fails(phone, "send_message", to="con-1") == "Error: missing required field 'text'"
    assert fails(phone, "send_message", to="con-1", text="") == "Error: field 'text': must not be empty"
    assert fails(phone, "search_contacts", name="Aoife") == \
        "Error: unknown field 'name'; allowed fields: query"
    outcome = call(make_phone(base={}), "search_contacts", query="anyone")
    assert not outcome.failed and outcome.text == 'No contacts found matching "anyone".'


def test_search_folds_the_letters_a_script_types_interchangeably():
    from simphone.data import Contact
    from simphone.tools.contacts import find_contacts

    people = [Contact.model_validate({"id": "con-1", "name": "Артём Соколов"}),
              Contact.model_validate({"id": "con-2", "name": "فاطمة الزهراء"}),
              Contact.model_validate({"id": "con-3", "name": "रज़िया ख़ान"})]
    assert [c.id for c in find_contacts(people, "Артем")[0]] == ["con-1"]
    assert [c.id for c in find_contacts(people, "فاطمه")[0]] == ["con-2"]
    assert [c.id for c in find_contacts(people, "रजिया खान")[0]] == ["con-3"]
    # й is a letter of its own, not и with a mark.
    assert find_contacts(people, "Артим")[0] == []


def test_a_contacts_exact_full_name_wins_over_longer_names_that_contain_it():
    phone = make_phone({"contacts": [{"name": "Jan Procházka", "phone": "+420 00 111 222"},
                                     {"name": "Jana Procházková", "phone": "+420 00 333 444"}]})
    assert ok(phone, "send_message", to="Jan Procházka", text="ahoj").startswith(
        "Message sent to Jan Procházka (+420 00 111 222)")
    assert ok(phone, "place_call", to="jan prochazka").startswith("Calling Jan Procházka")
    assert fails(phone, "send_message", to="Procházk", text="ahoj").startswith(
        "Error: 'Procházk' matches 2 contacts")
