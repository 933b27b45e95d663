"""Contacts and communication: search_contacts, save_contact, send_message, place_call."""

from __future__ import annotations

import re
from typing import Any

from simphone.data import Contact, Email, PhoneNumber
from simphone.errors import ToolError
from simphone.phone import Phone, PlacedCall, SentMessage
from simphone.relations import canonical, relations_in
from simphone.search import fold, query_words, word_in
from simphone.tools.common import by_id, count, labelled, line, quoted

_NUMBER = re.compile(r"^\+?[\d\s().\-/]{5,}$")
# Labels of the number a message or call goes to first.
_MOBILE_LABELS = ("mobile", "iphone", "cell", "handy", "portable", "móvil", "cellulare", "celular")


def _text(contact: Contact) -> str:
    return " ".join([contact.name, *contact.aliases, contact.company or "", contact.jobTitle or "",
                     contact.address or "", *(e.address for e in contact.emails)])


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def find_contacts(contacts: list[Contact], query: str) -> tuple[list[Contact], bool]:
    """The contacts a query names, and whether they hold every word of it (else best guesses).

    A word found in some contact's name, nickname, company or address is read as that; a word
    found in none is read as a relation ("mum" finds the contact whose relation is mother).
    """
    digits = _digits(query)
    if len(digits) >= 4 and _NUMBER.match(query.strip()):
        hits = [c for c in contacts if any(digits in _digits(p.number) for p in c.phones)]
        return hits, True
    folded_query = fold(query)
    wanted = query_words(query)
    if not wanted:
        return [], False
    texts = [fold(_text(c)) for c in contacts]
    relations = relations_in(folded_query, wanted)
    as_text = {w: any(word_in(w, t) for t in texts) for w in wanted}
    scored = []
    for contact, text in zip(contacts, texts):
        own = {canonical(r) for r in contact.relation}
        related = {w for w, named in relations.items() if named & own}
        related |= {w for w in wanted if w in own}
        # A phrase ("con gái") that names the relation covers each of its words.
        covered = {part for phrase in related for part in phrase.split()}
        score = sum(1 for w in wanted if (word_in(w, text) if as_text[w] else w in covered))
        scored.append((score, contact))
    full = [c for s, c in scored if s == len(wanted)]
    if full:
        return full, True
    best = max((s for s, _ in scored), default=0)
    return ([c for s, c in scored if s == best] if best else []), False


def contact_line(contact: Contact) -> str:
    return line(f"id: {contact.id}", contact.name,
                labelled("relation", contact.relation), labelled("aka", contact.aliases),
                *(f"{p.label} {p.number}" for p in contact.phones),
                *(f"{e.label} {e.address}" for e in contact.emails),
                labelled("company", " - ".join(x for x in (contact.company, contact.jobTitle) if x)),
                labelled("address", contact.address),
                labelled("birthday", contact.birthday.isoformat() if contact.birthday else None),
                labelled("notes", contact.notes))


def search_contacts(phone: Phone, args: dict[str, Any]) -> str:
    query = args["query"]
    found, complete = find_contacts(phone.contacts, query)
    if not found:
        return f"No contacts found matching {quoted(query)}."
    head = f"{count(len(found), 'contact')} matching {quoted(query)}:" if complete else \
        f"No exact match for {quoted(query)}; closest {count(len(found), 'contact')}:"
    return "\n".join([head, *(contact_line(c) for c in found)])


def save_contact(phone: Phone, args: dict[str, Any]) -> str:
    if args.get("id"):
        contact = by_id(phone.contacts, args["id"], "contact", "search_contacts")
        verb = "Updated contact"
    else:
        if not args.get("name"):
            raise ToolError("name is required to create a contact (or give id to change one)")
        contact = phone.make(Contact, {"id": phone.new_id("contacts"), "name": args["name"]})
        phone.contacts.append(contact)
        verb = "Saved new contact"
    for field in ("name", "company", "address", "notes"):
        if args.get(field):
            setattr(contact, field, args[field])
    if args.get("phone") and _digits(args["phone"]) not in {_digits(p.number) for p in contact.phones}:
        contact.phones.append(PhoneNumber(number=args["phone"]))
    if args.get("email") and fold(args["email"]) not in {fold(e.address) for e in contact.emails}:
        contact.emails.append(Email(address=args["email"]))
    if args.get("relation") and args["relation"] not in contact.relation:
        contact.relation.append(args["relation"])
    return f"{verb} {contact_line(contact)[2:]}"


def _number_of(contact: Contact) -> PhoneNumber | None:
    for label in _MOBILE_LABELS:
        for number in contact.phones:
            if fold(number.label) == label:
                return number
    return contact.phones[0] if contact.phones else None


def _recipient(phone: Phone, to: str) -> tuple[str, Contact | None]:
    """(the number or address the argument stands for as given, its contact if any)."""
    text = to.strip()
    if _NUMBER.match(text) and len(_digits(text)) >= 5:
        owner = None
        if phone.device.allows("contacts"):
            owner = next((c for c in phone.contacts
                          if any(_digits(p.number).endswith(_digits(text)[-7:]) for p in c.phones)), None)
        return text, owner
    if "@" in text:
        owner = next((c for c in phone.contacts if any(fold(e.address) == fold(text) for e in c.emails)), None)
        return text, owner
    phone.require("contacts")
    for contact in phone.contacts:
        if contact.id and fold(contact.id) == fold(text):
            return "", contact
    found, complete = find_contacts(phone.contacts, text)
    if not found or not complete:
        raise ToolError(f"no contact matches {text!r}; call search_contacts or give a phone number")
    # A contact's exact full name picks it, as a phone's recipient field does, although partial
    # matching also finds longer names ("Jan Procházka" and "Jana Procházková").
    exact = [c for c in found if fold(c.name) == fold(text)]
    if len(exact) == 1:
        return "", exact[0]
    if len(found) > 1:
        names = ", ".join(f"{c.id} {c.name}" for c in found)
        raise ToolError(f"{text!r} matches {len(found)} contacts ({names}); give the contact id")
    return "", found[0]


def send_message(phone: Phone, args: dict[str, Any]) -> str:
    address, contact = _recipient(phone, args["to"])
    if not address:
        number = _number_of(contact)
        if number is not None:
            address = number.number
        elif contact.emails:
            address = contact.emails[0].address
        else:
            raise ToolError(f"{contact.name} has no phone number or email to message")
    name = contact.name if contact else address
    phone.messages.append(SentMessage(to=name, address=address, text=args["text"], time=phone.now))
    who = f"{contact.name} ({address})" if contact else address
    return f"Message sent to {who}: {quoted(args['text'])}"


def place_call(phone: Phone, args: dict[str, Any]) -> str:
    number, contact = _recipient(phone, args["to"])
    if "@" in number and not args.get("video"):
        raise ToolError("a phone call needs a number; an email address works only for a video call")
    if not number:
        chosen = _number_of(contact)
        if chosen is None:
            raise ToolError(f"{contact.name} has no phone number")
        number = f"{chosen.label} {chosen.number}"
    video = bool(args.get("video"))
    phone.calls.append(PlacedCall(to=contact.name if contact else number, number=number,
                                  video=video, time=phone.now))
    kind = "FaceTime video call" if video else "Calling"
    who = f"{contact.name} ({number})" if contact else number
    return f"{kind} {'to ' if video else ''}{who}..."


TOOLS = {"search_contacts": search_contacts, "save_contact": save_contact,
         "send_message": send_message, "place_call": place_call}
