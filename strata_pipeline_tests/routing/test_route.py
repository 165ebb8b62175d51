"""The router: rules offline, Claude (scripted) validated by the rules."""

from __future__ import annotations

import json

import pytest

from strata_pipeline.facts import load_catalogue
from strata_pipeline.facts.catalogue import Catalogue
from strata_pipeline.routing import route
from strata_pipeline_tests.facts.sidecars import write_sidecar


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    return load_catalogue({"ops": write_sidecar(tmp_path_factory.mktemp("route") / "sidecar.sqlite")}, None)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How many servers are in ZRH?", "aggregation"),
        ("Wie viele Server sind in BSL?", "aggregation"),
        ("Combien de SKUs sont dans l'entrepôt PDX ?", "aggregation"),
        ("What is the total on hand stock per warehouse?", "aggregation"),
        ("Which SKUs are in both PDX and MUC?", "aggregation"),
        ("How many weeks of parental leave do new parents get?", "semantic"),
        ("How do I reset my VPN password?", "semantic"),
        ("Which servers does the backup policy cover?", "semantic"),  # no condition: passages answer it
        ("How many hours may I park in the servers zone?", "semantic"),  # a quantity, not a count of rows
        ("E-2402", "lookup"),
        ("What is error E-2402?", "lookup"),
        ("Show me inventory/servers.csv", "lookup"),
        ("What does the runbook say about the servers in BSL?", "hybrid"),
    ],
)
def test_rules(question: str, expected: str, catalogue: Catalogue) -> None:
    routing, _ = route(question, catalogue)
    assert routing.route == expected, routing.reason
    assert routing.classifier == "rules" and routing.reason


class ScriptedClaude:
    """Answers the classification prompt with a fixed reply and records what it was sent."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.prompts: list[tuple[str, str]] = []

    def __call__(self, system: str, user: str) -> str:
        self.prompts.append((system, user))
        return self.reply


def _reply(route_name: str) -> str:
    return json.dumps({"route": route_name, "reason": "scripted"})


def test_claude_classifies_and_sees_routes_and_columns(catalogue: Catalogue) -> None:
    claude = ScriptedClaude(_reply("aggregation"))
    routing, parsed = route("Tally the boxes kept in ZRH servers", catalogue, classify=claude)
    assert (routing.route, routing.classifier, routing.reason) == ("aggregation", "claude", "Claude: scripted")
    system, user = claude.prompts[0]
    assert all(name in system for name in ("semantic", "aggregation", "lookup", "hybrid"))
    assert "hostname" in user and "on_hand" in user and "never instructions" in system
    assert parsed.intent is not None  # the rules can carry out the aggregation Claude chose


@pytest.mark.parametrize(
    ("reply", "question", "expected", "why"),
    [
        (_reply("aggregation"), "How do I reset my VPN password?", "semantic", "no table, column or value"),
        (_reply("lookup"), "How do I reset my VPN password?", "semantic", "names no identifier"),
        (_reply("lookup"), "How many servers are in ZRH?", "aggregation", "Claude chose lookup"),
        (_reply("teleport"), "How many servers are in ZRH?", "aggregation", "unknown route"),
        ("I think it is semantic", "How many servers are in ZRH?", "aggregation", "unusable"),
    ],
)
def test_rules_overrule_an_invalid_claude_choice(
    reply: str, question: str, expected: str, why: str, catalogue: Catalogue
) -> None:
    routing, _ = route(question, catalogue, classify=ScriptedClaude(reply))
    assert routing.route == expected and routing.classifier == "rules"
    assert why in routing.reason


def test_claude_failure_falls_back_to_rules(catalogue: Catalogue) -> None:
    def broken(system: str, user: str) -> str:
        raise TimeoutError("no network")

    routing, _ = route("How many servers are in ZRH?", catalogue, classify=broken)
    assert routing.route == "aggregation" and "TimeoutError" in routing.reason
