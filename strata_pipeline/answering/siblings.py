"""Sibling qualifiers: the quoted sentence speaks of another kind of the thing the question asks about.

"What excess applies to a windscreen replacement under comprehensive cover?" is not answered by
"The policy excess applies (usually 150 € in partial cover)": the sentence is about the head the
question names (cover) with another qualifier (partial), and its passage never says comprehensive.
The same holds for "legal expenses insurance" against "professional indemnity insurance", or "the
annual performance bonus" against "a referral bonus". The other near-miss checks cannot see these: the
words are lower case (not names), the value is of the asked kind, and the question's word is often
in some other retrieved passage (subject.py needs it in none).

The check reads an English question's noun phrases with the redaction's spaCy tagger: a qualifier (an
adjective or noun, `comprehensive`) right before the head noun of its phrase (`cover`). It abstains
when the sentence to quote first speaks of that head, and every quoted sentence that speaks of it
(that states the asked kind of value, when one is asked) puts another qualifier before it, and neither
the sentence nor its passage holds the question's qualifier. A paraphrase keeps the qualifier's
meaning but rarely puts a different qualifier on the same head, so the check rests on that second
word, not on the first one's absence alone. Left out as qualifiers: words of time and version
("previous", "current": versions.py and the ranking priors read those), words of size or degree
("tiny chip" is not a sibling of "stone chip": a passage states sizes in numbers), and a sibling that
is itself a word of the question ("international travel" for "international business travel").
German and French questions are skipped: their qualifiers are compounds or follow the noun.

Plain functions over text; the tagger is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import pairwise

from strata_pipeline.answering.abstention import value_word
from strata_pipeline.answering.names import commonness
from strata_pipeline.answering.table_text import record_cells
from strata_pipeline.answering.wording import asked_part
from strata_pipeline.classification.language import query_language
from strata_pipeline.retrieval.priors import HISTORY_WORDS
from strata_pipeline.text.slips import slip_of

Tags = Callable[[str], list[tuple[str, str]]]  # the words of a text with their parts of speech
Stem = Callable[[str], str]

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_QUALIFIER = ("ADJ", "NOUN")
_HEAD = ("NOUN", "PROPN")  # the small tagger calls some lower-case nouns proper ("service van")
# Comparatives and superlatives of degree ask for an extreme or compare, and name no kind of thing:
# "the smallest amount" is answered by a sentence on "a higher amount" and a minimum.
_DEGREE = (
    r"smallest|largest|biggest|higher|highest|lower|lowest|least|most|maximum|minimum|cheaper|cheapest"
    r"|greater|greatest|fewer|fewest"
)
_NOT_QUALIFIERS = re.compile(
    rf"(?:{HISTORY_WORDS}|current|new|newest|latest|present|next|last|first|final"
    # size and degree: a passage states them as figures, and they qualify no kind of thing
    r"|small|smaller|tiny|little|large|larger|big|bigger|huge|minor|major|slight|short|long|quick|full"
    rf"|{_DEGREE})",
    re.IGNORECASE,
)
_DEGREE_WORD = re.compile(_DEGREE, re.IGNORECASE)
# Words that qualify nothing in a question: determiners, pronouns and the question's own words.
_FUNCTION = frozenset(
    "the a an any each every some all other another own this that these those my your our their its his her "
    "what which whose how many much".split()
)
# Words that link a noun to what comes before it, never a qualifier ("costs of cover", "is cover").
_LINKS = frozenset("of in on at to for with by from and or is are was were be as than not no per into".split())


def qualified_heads(question: str, tags: Tags) -> list[tuple[str, str]]:
    """The (qualifier, head) pairs of a question's noun phrases, case-folded: an adjective or noun right
    before the last noun of its phrase ("comprehensive cover", "expenses insurance" in "legal
    expenses insurance"). Words of time, version, size and degree are no qualifiers."""
    tagged = [(word.casefold(), pos) for word, pos in tags(question)]
    pairs = []
    for i, ((word, pos), (head, head_pos)) in enumerate(pairwise(tagged)):
        after = tagged[i + 2][1] if i + 2 < len(tagged) else ""
        if after in _HEAD and tagged[i + 2][0] in ("cost", "costs"):
            # "how much does a parking ticket cost?": the small tagger reads the verb as a noun; what it
            # asks the cost of is the thing asked about, not who asks (unlike "does a staff member get")
            after = ""
        if pos not in _QUALIFIER or head_pos not in _HEAD or after in _HEAD:
            continue  # not a qualifier, or not the head of its phrase
        if after == "VERB" and not _BE.intersection(w for w, _ in tagged[max(0, i - 3) : i]):
            # the phrase before the asked verb says who asks ("does a staff member get"), not what; after a form
            # of "be" it is what is asked about ("how long are dental records kept")
            continue
        if not (_WORD.fullmatch(head) and _qualifies(word, recurring=True)):
            continue
        pairs.append((word, head))
        if i > 0 and tagged[i - 1][0] in _PERIODIC and pos == "NOUN":
            pairs.append((tagged[i - 1][0], head))  # "a monthly parking ticket" is a monthly ticket too
    return pairs


_ARTICLES = frozenset("the a an".split())
_BE = frozenset("is are was were be been".split())
# How often a thing recurs is a kind of it, unlike other words of time: a "weekly ticket" is no "monthly ticket"
_PERIODIC = frozenset("daily weekly fortnightly monthly quarterly yearly annual".split())
# Nouns of a figure, not of a thing: "the price of a scan" qualifies no price; "of the shoulder cost?" ends
# with the asked verb, which the small tagger reads as a noun
_FIGURE_NOUNS = frozenset(
    "cost costs price prices fee fees charge charges rate rates number amount total value".split()
)
_LINKED = re.compile(r"\b[a-z]+\s+(?:of|for)\s+(?:(?:the|a|an)\s+)?[a-z]{3,}\b")  # "scan of the shoulder"


def linked_heads(question: str, tags: Tags) -> list[tuple[str, str]]:
    """The (qualifier, head) pairs whose qualifier follows its head after "of" or "for" and an article:
    "an MRI scan of the shoulder", "a hearing test for a child" (the noun that ends the phrase). A head
    that is a kind of value ("the price of", "the number of") qualifies nothing."""
    tagged = [(word.casefold(), pos) for word, pos in tags(question)]
    pairs = []
    for i, (head, pos) in enumerate(tagged[:-2]):
        if pos not in _HEAD or tagged[i + 1][0] not in ("of", "for") or head in _FIGURE_NOUNS or value_word(head):
            continue
        at = i + 3 if tagged[i + 2][0] in _ARTICLES else i + 2
        # the last noun of its phrase ("for a child seat" is no child), though the small tagger reads the
        # asked verb as a noun ("of the shoulder cost?")
        after = tagged[at + 1] if at + 1 < len(tagged) else ("", "")
        if at >= len(tagged) or tagged[at][1] not in _HEAD or (after[1] in _HEAD and after[0] not in _FIGURE_NOUNS):
            continue
        word = tagged[at][0]
        if _qualifies(word) and _WORD.fullmatch(head):
            pairs.append((word, head))
    return pairs


def _qualifies(word: str, recurring: bool = False) -> bool:
    """Whether a case-folded word may be a qualifier: a word of three letters or more, no function word,
    unit, calendar word (but, when `recurring`, "weekly", "monthly" ...) or word of time, version, size or
    degree."""
    return (
        bool(_WORD.fullmatch(word))
        and len(word) >= 3
        and word not in _FUNCTION
        and ((recurring and word in _PERIODIC) or not value_word(word))
        and not (_NOT_QUALIFIERS.fullmatch(word))
    )


def _linked_siblings(
    sentence: str, head_stem: str, question_stems: set[str], stem: Stem, prose: bool = True
) -> list[str]:
    """The words a sentence puts after the head noun of stem `head_stem` that are not words of the question:
    within a spreadsheet row's cell ("procedure: Hearing test adult") the word right after it, in prose the
    noun after "of" or "for" and an article ("a scan of the knee")."""
    found: list[str] = []
    cells = [value for _, value in record_cells(sentence)] or [sentence]
    if not prose and len(cells) == 1:
        return found  # "your own car for business trips": in prose, "for" may give a purpose, not a kind
    for cell in cells:
        words = [w.casefold() for w in _WORD.findall(cell)]
        for i, word in enumerate(words[:-1]):
            if stem(word) != head_stem:
                continue
            at = i + 1
            if words[at] in ("of", "for"):
                at += 2 if at + 1 < len(words) and words[at + 1] in _ARTICLES else 1
            elif len(cells) == 1:
                continue  # prose: only "of" or "for" links a qualifier after its head
            after = words[at] if at < len(words) else ""
            if after not in _LINKS and _qualifies(after) and stem(after) not in question_stems:
                found.append(after)
    return found


def _stems(text: str, stem: Stem) -> set[str]:
    """The stems of `text`'s words, and of each part of a hyphenated word ("boil-water" holds "water",
    as the tagger splits it)."""
    words = [w.casefold() for w in _WORD.findall(text)]
    return {stem(part) for w in words for part in [w, *w.split("-")] if part}


def _holds(stems: set[str], word_stem: str) -> bool:
    """Whether `stems` hold a word, by stem or, for a stem of five letters or more, by a longer word
    that starts with it ("registr" in "registration")."""
    return word_stem in stems or (len(word_stem) >= 5 and any(s.startswith(word_stem) for s in stems))


def _siblings(tagged: list[tuple[str, str]], head_stem: str, question_stems: set[str], stem: Stem) -> list[str]:
    """The qualifiers a sentence (`tagged`: its case-folded words with their parts of speech) puts right
    before the head noun of stem `head_stem` that are not words of the question."""
    found = []
    for (word, pos), (noun, noun_pos) in pairwise(tagged):
        if noun_pos not in _HEAD or stem(noun) != head_stem or pos not in _QUALIFIER or not _WORD.fullmatch(word):
            continue
        if word in _FUNCTION or _DEGREE_WORD.fullmatch(word):
            continue
        if (word in _PERIODIC or not value_word(word)) and stem(word) not in question_stems:
            found.append(word)
    return found


# A yes/no cell says whether the row has the column's thing, not what kind of thing the row is about:
# "chlorination of a water tank; helmet: no; other: full face mask" speaks of no "no protection".
_FLAGS = frozenset("yes no none n/a true false ja nein keine oui non aucun aucune".split())
_CATEGORY = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+){0,2}")


def _row_categories(sentence: str, question_stems: set[str], stem: Stem) -> list[str]:
    """The cells of a spreadsheet row read as a record ("line: motor; hourly_rate_eur: 120") whose
    values are words, not figures ("motor"), less those that are words of the question: the kinds the
    row is about. [] when `sentence` is not a record of two cells or more, or a cell names the question's
    own row by two of its words or more."""
    values = [value for _, value in record_cells(sentence)]
    if len(values) < 2:
        return []
    if any(len(_stems(v, stem) & question_stems) >= 2 for v in values):
        return []  # the row of what the question names ("chlorination of a water tank"): its other cells are its own
    return [
        v for v in values
        if _CATEGORY.fullmatch(v) and v.casefold() not in _FLAGS and not _stems(v, stem) & question_stems
    ]  # fmt: skip


def _may_differ(question: str, first: tuple[str, str], stem: Stem) -> bool:
    """Whether some pair of adjacent lower-case words of `question` has its second word in the
    sentence to quote first (`first`: its scored text and passage) and its first word in neither:
    what a sibling qualifier needs, read without the tagger."""
    words = _WORD.findall(question)
    asked = _stems(question, stem)
    said = [w.casefold() for w in _WORD.findall(first[0])]
    held = _stems(first[0], stem) | _stems(first[1], stem)
    # the sentence's heads that follow a word the question does not use ("partial cover")
    heads = {stem(b) for a, b in pairwise(said) if a not in _FUNCTION | _LINKS and not _stems(a, stem) & asked}
    # and those followed by "of" or "for" and a word it does not use ("Records of deceased patients")
    heads |= {stem(a) for a, b, c in zip(said, said[1:], said[2:], strict=False)
              if b in ("of", "for") and c not in _ARTICLES and not _stems(c, stem) & asked}  # fmt: skip
    return any(
        a[0].islower() and b[0].islower() and a.casefold() not in _FUNCTION and len(a) >= 3
        and stem(b.casefold()) in heads and not _holds(held, stem(a.casefold()))
        for a, b in pairwise(words)
    )  # fmt: skip


def sibling_qualifier(
    question: str, quoted: Sequence[tuple[str, str]], stem: Stem, tags: Tags, states: Callable[[str], bool]
) -> str | None:
    """Why the `quoted` sentences (each its scored text and its passage's text, best first) do not
    answer `question`: they speak of its head noun with another qualifier than the question's; None
    when they may. `states` tells a sentence that states the kind of value asked (always true when
    none is asked): only those are read."""
    if query_language(question) != "en":
        return None
    stating = [(sentence, passage) for sentence, passage in quoted if states(sentence)]
    if not stating:
        return None
    question_stems = _stems(question, stem)
    if not _may_differ(question, stating[0], stem) and not _LINKED.search(question):
        return None  # before the tagger loads (a second of a cold `strata ask`)
    tagged: dict[str, list[tuple[str, str]]] = {}  # each sentence tagged once, whatever heads it is read for
    said = tags(question)  # the question tagged once for both readings of its phrases
    linked = linked_heads(question, lambda _: said)
    asked = _stems(asked_part(question), stem)
    for qualifier, head in qualified_heads(question, lambda _: said) + linked:
        want, noun = stem(qualifier), stem(head)
        if noun not in asked:
            continue  # "Our RX-300 works in a freezer warehouse. How long should it warm up?": context
        speaking = [pair for pair in stating if noun in _stems(pair[0], stem)]
        if not speaking or speaking[0] is not stating[0]:
            continue  # the sentence to quote first is not about the head
        seen: list[str] = []
        for sentence, passage in speaking:
            words = _stems(f"{sentence} {passage}", stem)
            if sentence not in tagged:
                tagged[sentence] = [(word.casefold(), pos) for word, pos in tags(sentence)]
            if (qualifier, head) in linked:  # "a scan of the shoulder" against "MRI scan knee" (or "knee scan")
                others = _linked_siblings(sentence, noun, question_stems, stem) or _siblings(
                    tagged[sentence], noun, question_stems, stem
                )
            else:  # "dental records" against the row "record: Records of deceased patients" too
                others = (
                    _siblings(tagged[sentence], noun, question_stems, stem)
                    or _row_categories(sentence, question_stems, stem)
                    or _linked_siblings(sentence, noun, question_stems, stem, prose=False)
                )
            if _holds(words, want) or not others or slip_of(want, words, commonness) is not None:
                break  # the question's qualifier is there, maybe typed with a slip ("settlment authority")
            seen.append(others[0])
        else:
            return (
                f"The quoted sentences speak of {seen[0]} {head}, not {qualifier} {head}, which the question "
                "asks about."
            )
    return None


def english_sibling_qualifier(
    question: str, quoted: Sequence[tuple[str, str]], stem: Stem, states: Callable[[str], bool]
) -> str | None:
    """sibling_qualifier with the redaction's spaCy tagger (loaded on first use)."""
    if query_language(question) != "en":
        return None

    def tags(text: str) -> list[tuple[str, str]]:  # the tagger loads on first use, if the check gets there
        from strata_pipeline.classification.nouns import english_tags

        return english_tags(text)

    return sibling_qualifier(question, quoted, stem, tags, states)
