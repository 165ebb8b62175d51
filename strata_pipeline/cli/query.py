"""`strata search` and `strata ask`: through a running `strata serve` when STRATA_API_URL names one,
else over the published index in this process. Only what a query uses is imported, and late."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from strata_pipeline.cli.api_keys import caller_named
from strata_pipeline.cli.options import one, query_options, valid_query
from strata_pipeline.settings import Settings, load_settings

if TYPE_CHECKING:
    from strata_pipeline.query_engine import QueryEngine


def _engine(settings: Settings, source_set: str | None) -> QueryEngine:
    """An engine over the published index (only `source_set`'s shard when one is given). Only what a
    query uses is imported: no Dagster, no reranker unless one is configured, and the PII detector
    only when the query screen or an answer's audit needs it."""
    from strata_pipeline.indexing.readable import IndexMismatch
    from strata_pipeline.retrieval.rerank import RerankerUnavailable
    from strata_pipeline.serving_index import NoIndexError, PublishedIndex

    try:
        return PublishedIndex.from_settings(settings).engine_for(one(source_set))
    except (NoIndexError, RerankerUnavailable, IndexMismatch) as exc:
        raise click.ClickException(str(exc)) from exc


@click.command()
@click.argument("query", callback=valid_query)
@query_options
@click.option(
    "--explain", is_flag=True, help="Show every candidate: dense, sparse and identifier rank, fused and rerank score."
)
def search(query: str, source_set: str | None, as_name: str | None, k: int, as_json: bool, explain: bool) -> None:
    """Hybrid search; prints hits best first with provenance and scores."""
    caller = caller_named(as_name)  # --as always searches here: the keys file holds hashes, not keys to send
    body = {"query": query, "k": k, "source_set": source_set, "explain": explain}
    remote = None if as_name else _ask_server("/search", body)
    if remote is not None:
        query, hits, explained = remote["query"], remote["hits"], remote.get("candidates") or []
        unscored = "-"
    else:
        from dataclasses import asdict

        from strata_pipeline.responses import explained_from, hit_from

        with _engine(load_settings(), source_set) as operator:
            engine = operator.scoped(caller)
            query = engine.redact_query(query).text
            found = engine.search(query, k, one(source_set))
            hits = [asdict(hit_from(i, c)) for i, c in enumerate(found, start=1)]
            explained = (
                [asdict(explained_from(e)) for e in engine.explain(query, k, one(source_set))] if explain else []
            )
            unscored = "-" if engine.reranker is not None else "not configured"  # "-": past the reranked top N
    if as_json:
        click.echo(
            json.dumps({"query": query, "hits": hits, **({"candidates": explained} if explain else {})}, indent=2)
        )
        return
    if explain:
        click.echo(f"{'pos':>4} {'dense':>5} {'bm25':>5} {'ids':>4} {'rrf':>8} {'prior':>5}  rerank          chunk")
        for e in explained:
            cells = [e["position"] or "-", e["dense_rank"] or "-", e["sparse_rank"] or "-", e["identifier_rank"] or "-"]
            rerank = unscored if e["rerank_score"] is None else f"{e['rerank_score']:.3f}"
            fate = f"  (dropped: {e['dropped']})" if e["dropped"] else ""
            rule = f"  [{e['rank_rule']}]" if e["rank_rule"] else ""
            rule += f"  [placed first: {e['placed']}]" if e.get("placed") else ""
            click.echo(
                f"{cells[0]!s:>4} {cells[1]!s:>5} {cells[2]!s:>5} {cells[3]!s:>4} {e['fused_score']:>8.5f} "
                f"{e['prior']:>5.2f}  {rerank:<15} {e['source_set']}/{e['chunk_id']}{rule}{fate}"
            )
        return
    for h in hits:
        click.echo(
            f"{h['rank']:>2}. {h['source_set']}/{h['chunk_id']}  lines {h['line_start']}-{h['line_end']}  "
            f"rrf={h['fused_score']:.4f} dense#{h['dense_rank']} sparse#{h['sparse_rank']} id#{h['identifier_rank']}"
            + ("" if h["rerank_score"] is None else f" rerank={h['rerank_score']:.3f}")
            + (f"  FLAGGED: {', '.join(h['flags'])}" if h.get("flags") else "")
        )
        click.echo("    " + h["text"][:200].replace("\n", " "))


@click.command()
@click.argument("question", callback=valid_query)
@query_options
@click.option(
    "--evidence",
    "evidence_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the evidence packet (each quote pinned to its source file) here as JSON; "
    "`strata verify FILE` re-checks it later.",
)
def ask(
    question: str, source_set: str | None, as_name: str | None, k: int, as_json: bool, evidence_file: Path | None
) -> None:
    """Answer with verified citations (extractive offline, Claude with ANTHROPIC_API_KEY)."""
    caller = caller_named(as_name)
    body: dict[str, Any] = {"query": question, "k": k, "source_set": source_set}
    answer = None if as_name else _ask_server("/ask", {**body, **({"evidence": True} if evidence_file else {})})
    if answer is not None:
        hits = (_ask_server("/search", body) or {}).get("hits", []) if as_json else []
    else:
        from dataclasses import asdict

        from strata_pipeline.redaction.guard import AnswerWithheld
        from strata_pipeline.responses import answer_response, hit_from

        settings = load_settings()
        with _engine(settings, source_set) as operator:
            engine = operator.scoped(caller)
            question = engine.redact_query(question).text
            found = engine.search(question, k, one(source_set))
            evidence_root = settings.corpus_root if evidence_file is not None else None
            try:
                response = answer_response(engine, question, k, one(source_set), evidence_root, candidates=found)
            except AnswerWithheld as exc:
                raise click.ClickException(str(exc)) from exc
            answer = asdict(response)
            hits = [asdict(hit_from(i, c)) for i, c in enumerate(found, 1)]
    if evidence_file is not None:
        if answer.get("evidence") is None:
            raise click.ClickException(f"{load_settings().api_url} returned no evidence packet (an older server?).")
        evidence_file.write_text(json.dumps(answer["evidence"], indent=2) + "\n", encoding="utf-8")
        click.echo(f"(evidence packet: {evidence_file}; check it with `strata verify {evidence_file}`)", err=True)
    if as_json:
        click.echo(json.dumps({**answer, "hits": hits}, indent=2))
        return
    routing = answer.get("routing")
    if routing:
        click.echo(f"(route: {routing['route']}, answered by {routing['engine']}: {routing['reason']})")
    if answer["abstained"]:
        code = answer.get("abstain_code")  # absent from an older server's reply
        click.echo(f"(no answer{f', {code}' if code else ''}) {answer['reason']}")
        return
    click.echo(answer["answer"])
    for c in answer["citations"]:
        click.echo(f"  [{c['chunk_id']}] {c['source_set']}/{c['doc_id']} lines {c['line_start']}-{c['line_end']}")
    _echo_rows((answer.get("facts") or {}).get("rows") or [])


def _echo_rows(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        click.echo(f"  {row['source_set']}/{row['doc_id']} [{row['sheet']}] row {row['row']}: {row['line']}")


@click.command()
@click.argument("question", callback=valid_query)
@query_options
def facts(question: str, source_set: str | None, as_name: str | None, k: int, as_json: bool) -> None:
    """An exact count, sum, average, min, max, list or intersection over spreadsheet rows and document
    facets, with the rows it counted (see docs/facts-and-routing.md)."""
    caller = caller_named(as_name)
    body = {"question": question, "source_set": source_set}
    result = None if as_name else _ask_server("/facts", body)
    if result is None:
        from dataclasses import asdict

        from strata_pipeline.facts.intent import IntentRefused
        from strata_pipeline.responses import facts_out

        with _engine(load_settings(), source_set) as operator:
            try:
                result = asdict(facts_out(operator.scoped(caller).query_facts(question, one(source_set))))
            except IntentRefused as exc:
                raise click.ClickException(str(exc)) from exc
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(result["answer"])
    _echo_rows(result["rows"])


def _ask_server(path: str, body: dict[str, Any]) -> dict[str, Any] | None:
    """When STRATA_API_URL names a running `strata serve`, ask it: nothing to load here, so a command
    answers in a fraction of a second. None when it is unset or unreachable (then search locally)."""
    settings = load_settings()
    url = settings.api_url
    if not url:
        return None
    import urllib.error
    import urllib.request

    headers = {"Content-Type": "application/json"}
    if settings.api_key:  # the API's keys file is set: send ours
        headers["Authorization"] = "Bearer " + settings.api_key
    request = urllib.request.Request(url + path, data=json.dumps(body).encode("utf-8"), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        detail = exc.read().decode("utf-8", "replace")[:500]
        raise click.ClickException(f"{url}{path} answered HTTP {exc.code}: {detail}") from exc
    except (urllib.error.URLError, OSError) as exc:
        click.echo(f"(STRATA_API_URL={url} did not answer: {exc}; searching locally)", err=True)
        return None
