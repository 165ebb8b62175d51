"""The retrieval-first hybrid: the documents a question names are found by search, the key values their
passages name filter the rows, and the facts intent runs over those rows only, as the caller may read."""

from __future__ import annotations

from pathlib import Path

import pytest

from strata_pipeline.facts import Intent, execute, load_catalogue
from strata_pipeline.facts.catalogue import Catalogue
from strata_pipeline.facts.runner import column_values
from strata_pipeline.retrieval.candidate import Candidate
from strata_pipeline.routing import route
from strata_pipeline.routing.reverse import Sources, key_column, mentioned, named_documents, retrieval_first
from strata_pipeline.routing.split import FACTS_FIRST, RETRIEVAL_FIRST, split_reverse
from strata_pipeline_tests.facts.sidecars import write_sidecar

EVERYONE = frozenset({"it", "sales", "public"})
RUNBOOK = "Restore `zrh-db-01` from the backup.\nThen check bsl-db-01 and BSL-APP-01.\nzrh-db-10 is not ours."
POLICY = "The winter policy covers every site.\nlyo-fs-01 stays off."


def hit(doc_id: str, title: str = "", source_set: str = "ops") -> Candidate:
    return Candidate(doc_id, {"doc_id": doc_id, "source_set": source_set, "title": title, "chunk_id": f"{doc_id}#0"})


def chunk(doc_id: str, text: str, line: int = 1) -> dict:
    return {"doc_id": doc_id, "source_set": "ops", "chunk_id": f"{doc_id}#0", "text": text, "line_start": line}


@pytest.fixture(scope="module")
def sidecars(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {"ops": write_sidecar(tmp_path_factory.mktemp("reverse") / "sidecar.sqlite")}


@pytest.fixture(scope="module")
def catalogue(sidecars: dict[str, Path]) -> Catalogue:
    return load_catalogue(sidecars, EVERYONE)


def sources(catalogue: Catalogue, sidecars: dict[str, Path], hits: list[Candidate], texts: dict[str, str]) -> Sources:
    return Sources(
        search=lambda phrase: hits,
        chunks=lambda source_set, doc_id: [chunk(doc_id, texts[doc_id])] if doc_id in texts else [],
        values=lambda table, column: column_values(table, column, catalogue, sidecars, EVERYONE),
        run=lambda intent: execute(intent, catalogue, sidecars, EVERYONE),
        catalogue=catalogue,
    )


@pytest.mark.parametrize(
    ("question", "documents", "facts"),
    [
        (
            "How many of the depots mentioned in the winter policy are in Germany?",
            "the winter policy",
            "How many of the depots are in Germany?",
        ),
        (
            "What is the total contract value of the suppliers named in the penalty clause document?",
            "the penalty clause document",
            "What is the total contract value of the suppliers?",
        ),
        ("Wie viele der im Wartungsfenster genannten Server sind in ZRH?", "Wartungsfenster",
         "Wie viele der Server sind in ZRH?"),
        ("Combien des serveurs cités dans la note de restauration sont en BSL ?", "la note de restauration",
         "Combien des serveurs sont en BSL?"),
    ],
)  # fmt: skip
def test_the_document_phrase_is_split_from_the_facts_question(question: str, documents: str, facts: str) -> None:
    split = split_reverse(question)
    assert split is not None and (split.documents, split.facts_question) == (documents, facts)


def test_questions_that_name_no_documents_are_not_split() -> None:
    assert split_reverse("How many servers are in ZRH?") is None
    assert split_reverse("What does the runbook say about the servers in BSL?") is None


def test_the_router_says_which_direction_runs(catalogue: Catalogue) -> None:
    reverse, parsed = route("How many of the servers mentioned in the restore runbook are in BSL?", catalogue)
    assert (reverse.route, reverse.direction) == ("hybrid", RETRIEVAL_FIRST)
    assert "names documents ('the restore runbook')" in reverse.reason
    assert parsed.intent is not None and parsed.intent.operation == "count"
    forward, _ = route("What does the runbook say about the servers in BSL?", catalogue)
    assert (forward.route, forward.direction) == ("hybrid", FACTS_FIRST)
    assert route("How many servers are in ZRH?", catalogue)[0].direction == ""


@pytest.mark.parametrize(
    "question",
    [
        "Which servers were affected by the outage?",  # a plain list: what the documents say
        "How many SKUs are listed in the prices?",  # the spreadsheet itself: a plain aggregation
        "How many vacation days are mentioned in the leave policy?",  # no table named
    ],
)
def test_not_every_mention_is_a_retrieval_first_hybrid(question: str, catalogue: Catalogue) -> None:
    assert route(question, catalogue)[0].direction != RETRIEVAL_FIRST


def test_named_documents_prefer_those_sharing_a_word_and_a_plural_takes_several() -> None:
    hits = [hit("guides/intro.md"), hit("runbooks/restore.md"), hit("runbooks/patching.md"), hit("runbooks/restore.md")]
    assert named_documents("the restore runbook", hits) == (
        [("ops", "runbooks/restore.md"), ("ops", "runbooks/patching.md")],
        False,
    )
    assert named_documents("the runbooks", hits)[1] is True
    assert named_documents("the winter memo", hits) == ([("ops", "guides/intro.md")], False)  # none shares a word
    assert named_documents("anything", []) == ([], False)


def test_values_are_named_as_whole_words_case_insensitively() -> None:
    found = mentioned(["zrh-db-01", "zrh-db-1", "bsl-app-01", "yes", "16"], [chunk("r.md", RUNBOOK)])
    assert sorted(found) == ["bsl-app-01", "zrh-db-01"]


def test_the_key_column_is_the_asked_noun_or_the_first_text_column(catalogue: Catalogue) -> None:
    servers = next(t for t in catalogue.tables if t.sheet == "servers")
    assert key_column("How many of the servers are in ZRH?", servers) == "hostname"
    assert key_column("Which sites are standby?", servers) == "site"


def test_retrieval_first_counts_the_rows_the_document_names(catalogue: Catalogue, sidecars: dict[str, Path]) -> None:
    question = "How many of the servers mentioned in the restore runbook are active?"
    _, parsed = route(question, catalogue)
    assert parsed.intent is not None
    hits = [hit("runbooks/restore.md"), hit("policies/winter.md")]
    texts = {"runbooks/restore.md": RUNBOOK, "policies/winter.md": POLICY}
    answer, why = retrieval_first(question, parsed.intent, sources(catalogue, sidecars, hits, texts))
    assert answer.facts is not None and answer.facts.value == 2  # zrh-db-01, bsl-app-01 active; bsl-db-01 standby
    assert answer.facts.intent.filters[-1].value == ("bsl-app-01", "bsl-db-01", "zrh-db-01")
    assert {r.line.split(",")[0] for r in answer.facts.rows} == {"zrh-db-01", "bsl-app-01"}
    cited = [(c.doc_id, c.line_start) for c in answer.citations]
    assert cited == [("runbooks/restore.md", 1), ("runbooks/restore.md", 2), ("runbooks/restore.md", 2)]
    assert "runbooks/restore.md" in why and "3 hostname value(s)" in why
    assert answer.text.startswith("The answer is 2") and not answer.abstained


def test_a_singular_phrase_reads_the_best_document_that_names_rows(
    catalogue: Catalogue, sidecars: dict[str, Path]
) -> None:
    question = "Which servers named in the winter runbook are decommissioned?"
    _, parsed = route(question, catalogue)
    assert parsed.intent is not None
    hits = [hit("runbooks/winter-notes.md"), hit("policies/winter.md")]
    texts = {"runbooks/winter-notes.md": "Nothing about hosts here.", "policies/winter.md": POLICY}
    answer, why = retrieval_first(question, parsed.intent, sources(catalogue, sidecars, hits, texts))
    assert answer.facts is not None and answer.facts.value == ["lyo-fs-01"]
    assert "found policies/winter.md" in why


def test_documents_that_name_no_rows_abstain(catalogue: Catalogue, sidecars: dict[str, Path]) -> None:
    question = "How many of the servers mentioned in the winter memo are active?"
    _, parsed = route(question, catalogue)
    assert parsed.intent is not None
    hits = [hit("memos/winter.md")]
    answer, why = retrieval_first(question, parsed.intent, sources(catalogue, sidecars, hits, {"memos/winter.md": "x"}))
    assert answer.abstained and answer.abstain_code == "zero_rows" and answer.facts is None
    assert "name no hostname of servers" in answer.reason and why.endswith("no values")


def test_an_unreadable_table_gives_no_values(catalogue: Catalogue, sidecars: dict[str, Path]) -> None:
    """Another group's table: its values are read as the caller may, so nothing of it is named."""
    hr = load_catalogue(sidecars, frozenset({"hr"}))
    salaries = next(t.name for t in hr.tables if t.sheet == "salaries")
    assert column_values(salaries, "employee", hr, sidecars, frozenset({"hr"})) == ["Ilse Varga", "Quentin Marlow"]
    assert not [t for t in catalogue.tables if t.name == salaries]  # not in the other caller's catalogue at all
    with pytest.raises(ValueError):
        column_values(salaries, "employee", catalogue, sidecars, EVERYONE)
    assert Intent("count", salaries).table == salaries


def test_with_claude_the_retrieval_first_split_still_decides(catalogue: Catalogue) -> None:
    asked: list[str] = []

    def claude(system: str, user: str) -> str:
        asked.append(user)
        return '{"route": "semantic", "reason": "reads documents"}'

    routing, _ = route("How many of the servers mentioned in the restore runbook are in BSL?", catalogue, (), claude)
    assert (routing.route, routing.direction, routing.classifier) == ("hybrid", RETRIEVAL_FIRST, "rules")
    assert asked == []  # the split is structural: the classifier is not asked
