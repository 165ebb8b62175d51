"""The building blocks of the injection patterns: the Pattern type, shared vocabulary (what an
instruction is about, whom it addresses) and the addressee test. See patterns.py for the patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strata_pipeline.injection.normalise import leet_pattern

FAMILIES = ("override", "role", "prompt_leak", "exfiltration", "format_hijack", "tool_abuse")


@dataclass(frozen=True)
class Pattern:
    family: str
    name: str
    regex: re.Pattern[str]
    weight: float  # on its own
    addressed_weight: float | None = None  # next to an addressee (None: same as weight)
    view: str = "leet"


def pattern(
    family: str, name: str, source: str, weight: float, addressed: float | None = None, view: str = "leet"
) -> Pattern:
    text = leet_pattern(source) if view == "leet" else source
    return Pattern(family, name, re.compile(text, re.IGNORECASE), weight, addressed, view)


# What an instruction to a model is about: its instructions, rules or prompt.
OBJECT = (
    r"(?:instructions?|prompts?|rules|directives?|guidelines|guidance|commands|orders|constraints|guardrails|"
    r"policies|programming|context|messages)"
)
EARLIER = (
    r"(?:previous|prior|earlier|above|preceding|former|foregoing|original|initial|existing|system|developer|"
    r"safety|old|other|current)"
)
# A qualifier that names *which* earlier instructions: business prose ("... sent by email").
NAMED = (
    r"(?!\s+(?:for|from|sent|in|on|about|regarding|issued|dated|of|given|that|which|posted|published|by|to|until)\b)"
)
DISMISS = (
    r"(?:ignore|disregard|forget|override|bypass|abandon|discard|set\s+aside|stop\s+following|do\s+not\s+follow|"
    r"don'?t\s+follow|no\s+longer\s+follow|cancel)"
)
AI = (
    r"(?:ai|a\.i\.|ai\s+(?:assistant|agent|model|system)|virtual\s+assistant|language\s+model|llms?|chat\s?bots?|claude|"
    r"chatgpt|gpt(?:-\w+)?|gemini|copilot|rag\s+(?:system|pipeline|bot)|answering\s+(?:system|engine)|summari[sz]er|"
    r"the\s+assistant(?!\s+(?:manager|director|engineer|to|of))|any\s+assistant|dear\s+assistant|ki-assistent|assistant\s+ia)"
)
# Read on the folded view, not the leet one: short words like "ai" must not match "al".
ADDRESSEE = re.compile(
    rf"\b{AI}\b|(?:^|[.!?]\s+|\n)(?:agent|assistant|bot|model)\s*(?:[,:]|\s+please\b)|\byour\s+(?:tools|functions|plugins|browsing|code\s+interpreter|shell\s+access|system\s+prompt)\b",
    re.IGNORECASE,
)
