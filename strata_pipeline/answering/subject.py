"""The thing a question asks about, when no retrieved passage mentions it and the quoted sentence does
not respond to it either.

A near miss that clears the other checks: "How many days of paid jury duty leave do employees get?"
answered with bereavement leave's "5 paid days". The quoted sentence is on the topic (paid leave), but
no retrieved passage mentions jury duty: the value is about something else. A paraphrased question
("How many gadgets may a visitor connect?" over a sentence on devices) also uses a word no passage
holds, so the word's absence alone is no proof (branch abstain5 measured that: it cost answerable
questions on held-out sets). The second test asks the dense model: take the word out of the question
and see how much each candidate sentence's similarity to the question falls. A sentence that speaks
of the word's meaning in other words loses more than the other sentences do; a sentence about a
sibling (bereavement leave for jury duty) loses no more than they do, or gains. So the check abstains
only when the word is absent from every retrieved passage AND the quoted sentences respond to it less
than most of the shortlisted sentences do.

Specific words only (`subject_words`): an English question's words of four letters or more, rarer in
general English than Zipf 5 (wordfreq), tagged a noun by the redaction's spaCy tagger
(classification/nouns.py), and neither a cue of the kind of value asked ("price", "how many days"), a
unit nor a calendar word. Verbs and common words are how a paraphrase differs from the documents.
German and French questions are skipped (a German compound is one word where a passage may split it),
as are passages in another language than the question (answer.py passes `same_language`).

Plain functions over text; the similarity, the word frequencies and the tagger are passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from strata_pipeline.answering.abstention import asked_kind, value_word, without_kind_cues
from strata_pipeline.answering.answer_type import asked_type, without_type_cues
from strata_pipeline.answering.names import unnamed_words
from strata_pipeline.answering.wording import asked_part
from strata_pipeline.classification.language import query_language

MAX_ZIPF = 5.0  # rarer than this in general English: a word that says what the question is about
# The share of shortlisted sentences that must respond more to the word than the best quoted sentence
# does (lose more similarity when it is taken out of the question) for the check to abstain. 0.5: the
# quoted sentences respond less than the median sentence. Set there, not swept (docs/abstention.md).
MIN_OUTRANKED = 0.5
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
# Function words rarer than MAX_ZIPF: they say nothing about what is asked.
_FUNCTION_WORDS = frozenset(
    "whom whose whilst whereas thus hence upon amongst towards besides despite unless onto beneath throughout "
    "whereby wherein thereof herein".split()
)

Similarity = Callable[[str, list[str]], list[float]]
_WHERE = re.compile(r"\s*where\b", re.IGNORECASE)  # a question that asks for a place

# "What seal material", "Which operating system", "What was the root cause": the words after the
# interrogative name the type of the answer, which a passage states by an instance ("FKM", "Ubuntu"),
# not by the type's name. They run to the first function word.
_WH_PHRASE = re.compile(
    r"\b(?:what|which)\s+(?:(?:is|are|was|were)\s+(?:the|a|an)\s+)?((?:(?!(?:of|for|in|on|at|to|by|with|from|is|are|"
    r"was|were|do|does|did|can|could|should|must|may|will|would|has|have|had)\b)[^\W\d_][\w-]*\s*){1,4})",
    re.IGNORECASE,
)


def _answer_type(question: str) -> list[str]:
    """The case-folded words of a question's wh-phrase, the type of the answer ("seal material")."""
    return [w.casefold() for m in _WH_PHRASE.finditer(question) for w in m.group(1).split()]


def subject_words(
    question: str, zipf: Callable[[str], float], nouns: Callable[[str], set[str]] | None = None
) -> list[str]:
    """Words of an English question that say what it is about: four letters or more, rarer than
    MAX_ZIPF (`zipf` gives a word's Zipf frequency in English), nouns by `nouns` when given (the
    question's case-folded nouns), and neither a cue of the kind of value asked, a unit, nor a
    calendar word. Capitalised words are names, which question_names checks already. Words of the
    statements before the question are context ("I'd like to run a workshop at the Munich depot. How many
    people fit in the training room there?" is not about workshops): only the question itself is read."""
    if query_language(question) != "en":
        return []
    tagged = nouns(question) if nouns is not None else None
    found: list[str] = []
    asked = set(_answer_type(question))
    for word in _WORD.findall(without_type_cues(without_kind_cues(asked_part(question)))):
        folded = word.casefold()
        if word[0].isupper() or len(folded) < 4 or folded in _FUNCTION_WORDS or value_word(folded) or folded in asked:
            continue
        if folded not in found and zipf(folded) < MAX_ZIPF and (tagged is None or folded in tagged):
            found.append(folded)
    return found


def unmentioned_subject(words: Sequence[str], passages: Sequence[str], stem: Callable[[str], str]) -> list[str]:
    """Those of `words` (subject_words) that none of `passages` mentions: not as written, by stem, by a
    part of a hyphenated word, nor by a word that starts with its stem of five letters or more
    ("register" is mentioned by "Registration": the stemmer leaves "regist" and "registr")."""
    missing = unnamed_words(words, passages, stem)
    if not missing:
        return []
    tokens = {t.casefold() for p in passages for t in _WORD.findall(p)}
    return [w for w in missing if len(root := stem(w)) < 5 or not any(t.startswith(root) for t in tokens)]


COGNATE_PREFIX = 6  # letters a word's stem shares with a word of another language to be its cognate


def cognate(word: str, passages: Sequence[str], stem: Callable[[str], str]) -> bool:
    """Whether a passage (in another language) holds a cognate of `word`: a word that starts with the
    first COGNATE_PREFIX letters of its stem ("technician": "technicien", "Techniker"). Shorter stems
    say too little ("park" starts "Parkplatz" and "parking")."""
    root = stem(word)
    if len(root) < COGNATE_PREFIX:
        return False
    prefix = root[:COGNATE_PREFIX]
    return any(t.casefold().startswith(prefix) for p in passages for t in _WORD.findall(p))


def without_word(question: str, word: str) -> str:
    """The question with `word` taken out (case aside, whole words only), spaces closed up."""
    rest = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", " ", question, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", rest).strip()


def outranked(
    question: str, word: str, readings: Sequence[Sequence[str]], base: Sequence[float], quoted: Sequence[int],
    similarity: Similarity,
) -> float:  # fmt: skip
    """The share of sentences that respond more to `word` than the best of the `quoted` ones. Each
    sentence has its `readings` (as written, in its section) and its similarity to the question `base`
    (the closer reading's); its response is how much that similarity falls when `word` is taken out of
    the question. 0.0 when a quoted sentence responds most, 1.0 when every other sentence responds more."""
    if not readings or not quoted:
        return 0.0
    flat = [text for texts in readings for text in texts]
    ablated = similarity(without_word(question, word), flat)
    response, at = [], 0
    for sim, texts in zip(base, readings, strict=True):
        response.append(sim - max(ablated[at : at + len(texts)]))
        at += len(texts)
    best = max(response[i] for i in quoted)
    return sum(r > best for r in response) / len(response)


def across_languages() -> bool:
    """Whether the check runs when some retrieved passages are in another language than the question
    (branch abstain10): a word's absence is read in the passages of the question's language only (the
    caller passes those), and the response test judges the quoted sentences in any language. An
    English question on motorbike parking answered from a German parking table ("je angefangene Stunde
    1,80 €") is a near miss the lexical checks cannot see."""
    return True


def unsupported_subject(
    question: str,
    passages: Sequence[str],
    stem: Callable[[str], str],
    words: Callable[[str], list[str]],
    readings: Sequence[Sequence[str]],
    base: Sequence[float],
    quoted: Sequence[int],
    similarity: Similarity,
    places: bool = False,
    other_passages: Sequence[str] = (),
) -> str | None:
    """Why the quoted sentences do not answer `question`: a subject word (`words`, subject_words) that
    no retrieved passage (`passages`) mentions and that the quoted sentences (`quoted`, indices into
    `readings`) respond to less than MIN_OUTRANKED of the shortlisted sentences do (`outranked`);
    None when there is none. Only a question that asks a kind of value is read, or with `places` (every
    retrieved passage is in the question's language, so `passages` are all of them) one that asks where:
    "Where do contractors park?" over a page on staff and visitor parking. A passage in another language
    may say the word in its own ("Where can customers park": "clients"), which the absence cannot see;
    where it says it by a cognate ("technicians": "techniciens", `other_passages`), the word is held."""
    if asked_kind(question) is None and asked_type(question) is None and not (places and _WHERE.match(question)):
        return None  # only a value's kind (or a place) tells a sibling's value from an answer in other words
    for word in unmentioned_subject(words(question), passages, stem):
        if cognate(word, other_passages, stem):
            continue
        if outranked(question, word, readings, base, quoted, similarity) >= MIN_OUTRANKED:
            return (
                f"No retrieved passage mentions {word}, which the question asks about, and the closest "
                "sentences do not speak of it in other words."
            )
    return None


def english_subject_words(question: str) -> list[str]:
    """subject_words with wordfreq's English frequencies and the redaction's spaCy tagger."""
    from strata_pipeline.classification.nouns import english_nouns
    from strata_pipeline.embedding.models import zipf_frequency

    return subject_words(question, zipf_frequency("en"), english_nouns)
