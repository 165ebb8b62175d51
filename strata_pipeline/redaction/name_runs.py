"""Runs of capitalised, name-shaped words ("Siobhan Ní Bhriain", "Müller, Hans") and the score of
each: word evidence, NER, and the context before and after it."""

from __future__ import annotations

import re

from strata_pipeline.redaction.name_cues import (
    ABBREVIATED_UNIT_BEFORE,
    AMOUNT_BEFORE,
    CALENDAR_WORDS,
    CAMEL_CASE,
    CODE_AFTER,
    COMPANY_SUFFIX,
    COORDINATED_AFTER,
    CUES_BEFORE,
    CURRENCY_WORDS,
    DETERMINER_BEFORE,
    GERMAN_ARTICLE_BEFORE,
    HEADER_NAME_WORDS,
    HONORIFICS,
    HYPHENATED_WORD,
    INITIAL,
    JOB_WORDS,
    LABEL_WORDS,
    NAMED_AFTER_AFTER,
    NAMED_AFTER_BEFORE,
    PARTICLES,
    PLACE_HEADS,
    PLACE_NOUNS_AFTER,
    PREMISES_OF_BEFORE,
    ROLE_BEFORE,
    SIGN_OFF_WORDS,
    SYSTEM_AFTER,
    THING_WORDS,
    TIME_AFTER,
    UNIT_BEFORE,
    UNIT_WORDS,
    VERB_AFTER,
    VERSION_AFTER,
    holds_organisations,
)
from strata_pipeline.redaction.name_evidence import (
    NO_RANK_RANKS,
    PersonCandidate,
    Token,
    _common_opener,
    _compound_noun,
    _hyphenated_evidence,
    _is_name_shaped,
    _leading_context,
    _unlisted_german_word,
    given_name,
    given_then_surname,
    noun_before_a_particle,
    only_german,
    popular_given_name,
    surname_evidence,
    titled,
    word_commonness,
    word_parts,
)
from strata_pipeline.redaction.name_index import NameIndex
from strata_pipeline.redaction.name_layout import (
    _after_sign_off,
    _cell_end,
    _cell_start,
    _column_header,
    _line_end,
    _line_start,
    _only_list_mark,
    _only_time_stamp,
    _reads_like_a_message,
    _title_case_line,
    reads_german,
)
from strata_pipeline.redaction.name_neighbours import (
    PLACE_PREPOSITION_BEFORE,
    beside_a_place,
    column_of_people,
    place_name,
)
from strata_pipeline.redaction.name_roles import initial_before, name_after_a_role

# Articles that are name particles only after another particle ("van der", "von den").
GERMAN_ARTICLES = frozenset(("der", "des", "den"))


def _runs(tokens: list[Token], index: NameIndex) -> list[tuple[int, int]]:
    """Token index ranges [i, j) of name-shaped runs on one line: capitalised words, with initials and
    particles inside, hyphenated parts joined ("Anna-Lena")."""
    runs: list[tuple[int, int]] = []
    i, n = 0, len(tokens)
    while i < n:
        if not _is_name_shaped(tokens[i].text) or tokens[i].text in PARTICLES:
            i += 1
            continue
        j, words = i + 1, 1
        while j < n and words < 5:
            previous, token = tokens[j - 1], tokens[j]
            if "\n" in previous.whitespace_:
                break
            if (
                token.text in ("-", "‑")
                and not previous.whitespace_
                and not token.whitespace_
                and j + 1 < n
                and (
                    _is_name_shaped(tokens[j + 1].text)
                    or (
                        tokens[j + 1].text.islower()
                        and 2 <= len(tokens[j + 1].text) <= 4
                        and previous.text[0].isupper()
                    )
                )
            ):
                j += 2  # "Anna-Lena" split by the tokenizer; "Seo-yeon", "Min-jun"
                continue
            if not previous.whitespace_ and not (INITIAL.match(previous.text) and previous.text.endswith(".")):
                break
            if INITIAL.match(token.text):
                j, words = j + 1, words + 1
                continue
            if token.text.casefold().rstrip(".") in HONORIFICS:
                break  # "Handynummer von Frau Wróblewska": a title opens a new name
            if token.text in GERMAN_ARTICLES and previous.text not in PARTICLES:
                break  # "Sollwert der Riemenspannung": a genitive between nouns; "van der Berg" keeps its "van"
            if token.text in PARTICLES:
                if words == 1 and noun_before_a_particle(previous.text, index):
                    break  # "Rückmeldung von Wolfgang", "Team von Sabine": a noun, then a name; not "Ludwig van"
                k = j
                while k < n and tokens[k].text in PARTICLES and k - j < 3:
                    k += 1  # "van der", "de la"
                if k < n and _is_name_shaped(tokens[k].text):
                    j = k
                    continue
                break
            if _is_name_shaped(token.text) and token.text.casefold() not in UNIT_WORDS:
                j, words = j + 1, words + 1
                continue
            break
        while j - 1 > i and (tokens[j - 1].text in PARTICLES or INITIAL.match(tokens[j - 1].text)):
            j -= 1  # a run ends on a name word, not "van" or "K."
        first = i
        while first < j - 1 and (
            _leading_context(tokens[first].text)
            or (_common_opener(tokens[first].text, index) and not INITIAL.match(tokens[first].text))
        ):
            first += 1  # "Mrs Adaeze Okonjo", "Hi Siobhan", "Contact Maria": context, not part of the name
        if (named := name_after_a_role(tokens, first, j, index)) is not None:
            first = named  # "Team Leader Sinead Walsh", "Bürgermeisterin Claudia Vogt": a role, then the name
        elif first == i and initial_before(tokens, i, runs):
            first = i - 1  # "K. O'Neill", "Mr R. Delacroix": the initial is the name's
        runs.append((first, j))
        i = j
    return runs


def _score_run(
    tokens: list[Token], i: int, j: int, text: str, index: NameIndex, ner_people: list[tuple[int, int]]
) -> PersonCandidate:
    start, end = tokens[i].idx, tokens[j - 1].idx + len(tokens[j - 1].text)
    # Words of the span, hyphenated parts kept together ("Anna-Lena", "Wi-Fi"), without initials and particles.
    words = [
        w for w in HYPHENATED_WORD.findall(text[start:end]) if w.casefold() not in PARTICLES and not INITIAL.match(w)
    ]
    words = words or [tokens[i].text]
    reasons: list[str] = []
    lowered = [w.lower().rstrip(".") for w in words]
    if any(w in CALENDAR_WORDS for w in lowered) or all(w in SIGN_OFF_WORDS for w in lowered):
        return PersonCandidate(start, end, 0.0, ["calendar word or sign-off"])
    if len(lowered) == 1 and lowered[0] in LABEL_WORDS | HONORIFICS:
        return PersonCandidate(start, end, 0.0, ["field label or title"])
    if any(w in JOB_WORDS for w in lowered):
        return PersonCandidate(start, end, 0.0, ["job title"])
    if any(w in THING_WORDS for w in lowered[1:]) or (len(lowered) > 1 and lowered[-1] in THING_WORDS):
        return PersonCandidate(start, end, 0.0, ["names a place or thing"])

    if len(words) > 1:  # "HRBP Gulnara Sadykova": a short acronym before a name is a role, not part of it
        words = [w for w in words if not _acronym(w, index)] or words
    evidence = [_word_evidence(w, index) for w in words]
    for k in range(1, len(words)):  # "Gemma Hart", "Laurent Petit": a surname after a popular given name
        if popular_given_name(words[k - 1], index):
            evidence[k] = max(evidence[k], surname_evidence(words[k], index))
    german = reads_german(text, start)
    if german and not (len(words) > 1 and given_name(words[0], index) and not _german_noun(words[0], index)):
        # a capitalised word that no name list holds is, in German, most likely a noun ("Sperrmüllabholung");
        # after a listed given name it is a rare surname ("Gottfried Eberhardinger")
        evidence = [min(e, 0.0) if _german_noun(w, index) else e for w, e in zip(words, evidence, strict=True)]
    score = sum(evidence) / len(evidence) * 0.55
    reasons.append(f"name-likeness {score:.2f}")
    if len(words) >= 2 and all(e > 0.2 for e in evidence):
        score += 0.15
        reasons.append("full name")
    if any(start < e and s < end for s, e in ner_people):
        # the small model tags many lone capitalised words ("Split", "Laundry"): weaker for common words
        if (german and max(evidence) < 0.3) or max(evidence) <= 0.0:
            # the English model on German text tags many nouns as people; nor is a run of words that
            # look like no name ("Wi-Fi SSID") a person on the model's word alone
            score += 0.1
        else:
            score += 0.15 if len(words) == 1 and word_commonness(words[0]) >= 3.5 else 0.35
        reasons.append("NER person")
    elif any(t.ent_type_ in ("GPE", "LOC", "FAC") for t in tokens[i:j]):
        score -= 0.15
        reasons.append(f"NER place {tokens[i].ent_type_ or tokens[j - 1].ent_type_}")
    elif any(t.ent_type_ in ("ORG", "PRODUCT", "WORK_OF_ART", "EVENT", "NORP") for t in tokens[i:j]):
        score -= 0.0 if given_then_surname(words, index) else 0.1  # the model calls a name in a table an ORG
        reasons.append(f"NER {tokens[i].ent_type_ or tokens[j - 1].ent_type_}")
    if any(CAMEL_CASE.match(w) for w in words):
        score -= 0.4
        reasons.append("camel case")  # "FleetOS", "TripDesk": product names; "McBryde", "DeShawn" are exempt
    if len(words) == 1 and len(words[0].rstrip(".")) < 3:
        score -= 0.3
        reasons.append("two letters")  # "Hz", "Jo": too short to tell on its own
    if all(w.isupper() for w in words) and len(words) == 1:
        score -= 0.25
        reasons.append("lone capitals")
    line_prefix = text[_line_start(text, start) : start]
    sentence_initial = (
        tokens[i].is_sent_start
        or i == 0
        or "\n" in tokens[i - 1].whitespace_
        or re.fullmatch(r"[\s\-*•|>#()\[\]\d.]*(?:[A-Za-z]{1,2}:)?[\s\-*•|>]*", line_prefix) is not None
        or line_prefix.rstrip()[-1:] in ("|", "\t", '"', "(", "“")
    )  # a list item, a table cell, "A: ..." start with a capital anyway
    title_line = _title_case_line(text, start, end)
    if not sentence_initial and tokens[i].text[0].isupper() and not title_line and not german:
        score += 0.1
        reasons.append("capitalised mid-sentence")
    if title_line:
        score -= 0.25
        reasons.append("title-cased line")

    before = text[max(0, start - 40) : start]
    after = text[end : end + 40]
    if titled(text, start):
        score += 0.6
        reasons.append("honorific")
    if (
        len(words) > 1
        and (german or only_german(words[0]))
        and _german_noun(words[0], index)
        and not given_name(words[0], index)
    ):
        # "Kundencenter Weißbach", "Standort Basel": a named place; a German noun that no other language
        # uses names a business in any text ("chez Autohaus Nord", "at Reifen Huber")
        score -= 0.3
        reasons.append("starts with a German noun")
    if german and GERMAN_ARTICLE_BEFORE.search(before):
        score -= 0.5
        reasons.append("after a German article")  # "über das Tor", "die Rampe Nord": German nouns take one
    if len(words) == 1 and DETERMINER_BEFORE.search(before):
        score -= 0.6
        reasons.append("after a determiner")  # "kein Duplex": a noun phrase
    if len(words) == 1 and lowered[0] in CURRENCY_WORDS and AMOUNT_BEFORE.search(before):
        score -= 0.6
        reasons.append("a currency after an amount")  # "45.000 Mark"
    for cue, weight, reason in CUES_BEFORE:
        if cue.search(before):
            score += weight
            reasons.append(reason)
    if VERB_AFTER.match(after):
        # "Refund approved": a common word opening a sentence is no subject name
        lone_opener = sentence_initial and len(words) == 1 and evidence[0] > 0.2 and word_commonness(words[0]) < 3.5
        score += 0.3 if lone_opener else 0.15  # "Bartele is from ...": the subject of a sentence
        reasons.append("verb after")
    line = text[_line_start(text, start) : _line_end(text, end)]
    if len(words) >= 2 and all(e > 0.2 for e in evidence) and line.strip(" \t>|*•-,;") == text[start:end]:
        score += 0.15
        reasons.append("alone on its line")
    if re.match(r"^[ \t]*:", after) and _line_start(text, start) == start - len(before.split("\n")[-1]):
        speakers = len(re.findall(r"(?m)^[ \t\[\]0-9:APMapm]*[^\W\d_][\w.\- ]{0,30}:[ \t]*\S", text))
        timed = before.split("\n")[-1].strip() != ""
        colon = end + after.index(":") + 1
        if (
            _only_time_stamp(before.split("\n")[-1])
            and len(words) <= 3
            and speakers >= 2
            and (timed or _reads_like_a_message(text, colon))
        ):
            score += 0.3
            reasons.append("speaker")
    if re.match(r"^[ \t]+to[ \t]*:", after):
        score -= 0.6
        reasons.append("field label")  # "Bill to:", "Ship to:"
    if len(lowered) > 1 and lowered[0] in PLACE_HEADS:
        score -= 0.6
        reasons.append(f"names a place: {words[0]!r}")
    at_line_start = _only_time_stamp(text[_line_start(text, start) : start])
    if re.match(r"^[ \t]*:", after) and "speaker" not in reasons and len(words) == 1 and at_line_start:
        ranks = index.ranks(words[0])
        popular_given = ranks is not None and ranks.first <= 1000
        score = score - 0.4 if popular_given else 0.0  # "Leaver:", "Bezorger:", "Versicherungsnehmer:" are labels
        reasons.append("field label")
    placed = "after a place preposition" if PLACE_PREPOSITION_BEFORE.search(before) else ""
    placed = placed or ("listed with a place" if beside_a_place(tokens, i, j, index) else "")
    if placed and (
        "NER place" in " ".join(reasons) or not any((index.ranks(w) or NO_RANK_RANKS).first < 2000 for w in words)
    ):
        score -= 0.2
        reasons.append(placed)
    if TIME_AFTER.match(after):
        score += 0.3
        reasons.append("speaker before a time")
    if _after_sign_off(text, start) and start - _line_start(text, start) <= 2:
        score += 0.45
        reasons.append("signature")
    caps = [w for w in words if w.isupper() and len(w) >= 2]
    given = [w for w in words if not w.isupper()]
    if (
        caps
        and given
        and words[: len(caps)] == caps
        and len(caps) <= 2
        and all(w[0].isupper() and any(c.islower() for c in w) for w in given)
        and _only_list_mark(text[_line_start(text, start) : start])
    ):
        score += 0.5 if title_line else 0.25  # a register line, not a heading: undo the title-line doubt
        reasons.append("SURNAME Given at the start of a line")  # "ETCHEVERRY Peio — Comptabilité"
    header = _column_header(text, start)
    if header is not None and holds_organisations(header):
        score -= 0.4
        reasons.append(f"column {header!r} holds organisations or places")
    elif header is not None and HEADER_NAME_WORDS.match(header) and not column_of_people(text, start, index):
        score -= 0.2  # "Low" under a priority's "name", "Munich EU Depot" under a warehouse's
        reasons.append(f"column {header!r} holds no people's names")
    elif header is not None and HEADER_NAME_WORDS.match(header) and sum(evidence) >= 0:
        # an ordinary word under "Approver" ("VP Finance") names a function, not a person
        score += 0.5
        reasons.append(f"column {header!r}")
        cell = text[_cell_start(text, start) : _cell_end(text, end)]
        if cell.strip(' \t|;,"') == text[start:end]:
            score = max(score, 0.65)  # "N'DIAYE" alone in a Nom column: the header says what it is
            reasons.append("fills its cell")
    if len(words) == 1 and _compound_noun(words[0], index):
        score -= 0.6
        reasons.append("a compound noun")  # "Standplanung", "Hotelkontingente": German nouns are capitalised
    elif len(words) == 1 and _unlisted_german_word(words[0], index):
        score -= 0.3
        reasons.append("an unlisted German word")
    elif (
        len(words) > 1
        and "-" not in words[-1]
        and _compound_noun(words[-1], index)
        and not any((index.ranks(w) or NO_RANK_RANKS).first < 2000 for w in words[:-1])
    ):  # "Gottfried Eberhardinger" keeps its given name's evidence
        score -= 0.6
        reasons.append("ends in a German noun")  # "Depot Lyon Ladepunkte": a thing, as "... Station" is
    if place_name(text[start:end], before, words, index):
        score -= 0.5
        reasons.append("a country or region")  # "northern Portugal", "Deutschland", "within Galicia"
    if VERSION_AFTER.match(after) and "full name" not in reasons:
        score -= 0.3
        reasons.append("followed by a version number")  # "Rocky Linux 9 servers": a product
    if CODE_AFTER.match(after):
        score -= 0.6
        reasons.append("followed by a model or part code")  # "Wrist Seal Kit NR-4471-B"
    coordinated = COORDINATED_AFTER.match(after)
    if coordinated and _ordinary_word(coordinated.group(1), after[coordinated.end() :], index):
        score -= 0.5
        reasons.append(f"joined to the ordinary word {coordinated.group(1)!r}")  # "Park and Ride"
    if (
        len(words) == 1
        and j == i + 1
        and tokens[i].pos_ == "NOUN"
        and word_commonness(words[0]) >= 3.5
        and "NER person" not in reasons
        and not given_name(words[0], index)
    ):
        score -= 0.3
        reasons.append("tagged a common noun")  # "Parts requested before 14:30"
    if NAMED_AFTER_BEFORE.search(before):
        score -= 0.6
        reasons.append("a place named after a person")  # "salle Victor Hugo", "aeroporto Leonardo da Vinci"
    if PREMISES_OF_BEFORE.search(before) and not given_name(words[0], index):
        score -= 0.4
        reasons.append("a place after a premises noun")  # "dépôt de Lausanne"; "bureau de Marie" stays
    if len(words) == 1 and len(words[0]) <= 5 and ABBREVIATED_UNIT_BEFORE.search(before) and after[:1] == ".":
        score -= 0.6
        reasons.append("a unit abbreviated after a number")  # "1 Pal. (EUR)", "je Pal.", "3 Std."
    if UNIT_BEFORE.search(before) and not given_name(words[0], index):
        score -= 0.5
        reasons.append("names a team")  # "Network Squad Rhone"; "Team Anna" stays a person reading
    if SYSTEM_AFTER.match(after) and not given_name(words[0], index):
        score -= 0.5
        reasons.append("names a system")  # "the Barman server", "Barman backup server"
    if NAMED_AFTER_AFTER.match(after):
        score -= 0.6
        reasons.append("a thing named after a person")  # "Charles de Gaulle airport", "Alan Turing Lecture"
    if COMPANY_SUFFIX.match(after):
        score -= 0.9
        reasons.append("company suffix")
    next_word = re.match(r"[ ]+([^\W\d_]+)", after)  # not across a tab: that is the next cell
    if next_word and next_word.group(1)[0].isupper() and next_word.group(1).casefold() in THING_WORDS:
        score -= 0.8
        reasons.append(f"followed by {next_word.group(1)!r}")
    elif next_word and next_word.group(1) in PLACE_NOUNS_AFTER:
        score -= 0.5
        reasons.append(f"a place: followed by {next_word.group(1)!r}")  # "Kestwick campus", "Basel office"
    return PersonCandidate(start, end, round(max(0.0, min(1.0, score)), 3), reasons)


def _acronym(word: str, index: NameIndex) -> bool:
    short_capitals = word.isupper() and word.isascii() and 3 <= len(word) <= 4
    return short_capitals and (index.ranks(word) or NO_RANK_RANKS).best > 3000


def _listed(word: str, index: NameIndex) -> bool:
    """Does a name list hold the word, or a part of it ("Nowak-Schulte")?"""
    return any(index.ranks(p) is not None for p in word_parts(word))


def _german_noun(word: str, index: NameIndex) -> bool:
    """In German text: a word no name list holds, or an everyday German word that no list ranks among
    its popular names ("Gelber", "Fliesen", "Rampe"; never "Müller", "Weber", "Koch")."""
    parts = word_parts(word)
    if len(parts) > 1:
        return all(_german_noun(p, index) for p in parts)  # "Nowak-Schulte" is a name by its parts
    if not _listed(word, index):
        return True
    from wordfreq import zipf_frequency

    return zipf_frequency(word.casefold(), "de") >= 3.0 and (index.ranks(word) or NO_RANK_RANKS).best > 500


def _ordinary_word(word: str, rest: str, index: NameIndex) -> bool:
    """A common word that no name list holds ("Ride", "Safety"), or that none ranks among its 2,000 most
    popular names and that ends the phrase ("Toner und Papier"; a rare surname, but "Immacolata and
    Grazer Strasse" goes on to a street); never "Schmidt" or "Taylor"."""
    if word_commonness(word) < 3.5:
        return False
    ranks = index.ranks(word)
    return ranks is None or (ranks.best > 2000 and not re.match(r"[ \t]+[A-ZÀ-Ý]", rest))


def _word_evidence(word: str, index: NameIndex) -> float:
    """A word's name evidence; none for a hyphenated word with a one-letter part ("E-Mail", "T-Shirt") or
    of short parts no popular given name ("Wi-Fi"; "Ji-Ho" stays), a short acronym no name list ranks
    ("SSID", "VLAN"; "MWANGI" is longer), or the plural of an ordinary word ("Parts")."""
    parts = word_parts(word)
    if len(parts) > 1 and (
        any(len(p) == 1 for p in parts)
        or all(len(p) <= 2 and (index.ranks(p) or NO_RANK_RANKS).first > 500 for p in parts)
    ):
        return min(0.0, _hyphenated_evidence(word, index))
    if _acronym(word, index):
        return min(0.0, _hyphenated_evidence(word, index))
    singular = word[:-1]
    if (
        word.endswith("s")
        and len(singular) >= 3
        and word_commonness(singular) >= 5.0
        and (index.ranks(singular) or NO_RANK_RANKS).best > 1000
    ):  # the plural of an ordinary word that is no popular name: "Parts"; never "Roberts", "Woods"
        return min(0.0, _hyphenated_evidence(word, index))
    return _hyphenated_evidence(word, index)


def _words(tokens: list[Token], i: int, j: int) -> int:
    return sum(1 for t in tokens[i:j] if _is_name_shaped(t.text) and t.text.casefold() not in PARTICLES)


LIST_CONTINUES = re.compile(r",[ ]*[^\W\d_][\w'’\-]*(?:[ ]*,|[ ]+(?:and|or|und|et|y|e|en|og|och)[ ]+)")


def _last_first(tokens: list[Token], runs: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Join "Müller, Hans" into one run when it fills a cell or a line."""
    joined: list[tuple[int, int]] = []
    k = 0
    while k < len(runs):
        i, j = runs[k]
        if k + 1 < len(runs) and runs[k + 1][0] == j + 1 and tokens[j].text == ",":
            i2, j2 = runs[k + 1]
            start = tokens[i].idx
            end = tokens[j2 - 1].idx + len(tokens[j2 - 1].text)
            before = text[:start].rstrip(" ")
            after = text[end:].lstrip(" ")
            cell_start = (
                not before
                or before[-1] in "\n|;\t:"
                or ROLE_BEFORE.search(text[max(0, start - 40) : start])
                or re.search(r"(?:^|\n)[ \t]*(?:[-*•·–]|\d{1,3}[.)])$", before)  # "2) Bakshi, Ananya"
            )
            cell_end = not after or after[0] in "\n|;\t,(<" or after.startswith("\\n")
            two_full_names = _words(tokens, i, j) >= 2 and _words(tokens, i2, j2) >= 2  # a list of full names
            # "Marie, Melody, Brooke and Anna": a comma list of first names, not "Last, First"
            list_goes_on = LIST_CONTINUES.match(after) is not None
            if cell_start and cell_end and j2 - i2 <= 3 and not two_full_names and not list_goes_on:
                joined.append((i, j2))
                k += 2
                continue
        joined.append((i, j))
        k += 1
    return joined
