"""What an instruction aimed at a model looks like, per family, in folded text (see normalise.fold).

Written for few false alarms on business prose: a runbook says "run the command", a policy says
"ignore the warning light", a memo says "disregard the earlier instructions sent by email". So:
- tool-abuse and weak cues count fully only next to an addressee (an AI, an assistant, a model);
- an override aimed at the reader's own instructions ("ignore all previous instructions") is strong,
  one that names what it replaces ("the previous instructions for the RX-200") is weak;
- each pattern carries a weight; a text's risk combines them (scanner.risk).

`view` is "leet" for word patterns (they also match the leetspeak reading; normalise.leet_pattern)
and "folded" for patterns that need digits and symbols (URLs, chat-template tokens).
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


def _p(
    family: str, name: str, source: str, weight: float, addressed: float | None = None, view: str = "leet"
) -> Pattern:
    text = leet_pattern(source) if view == "leet" else source
    return Pattern(family, name, re.compile(text, re.IGNORECASE), weight, addressed, view)


# What an instruction to a model is about: its instructions, rules or prompt.
_OBJECT = (
    r"(?:instructions?|prompts?|rules|directives?|guidelines|guidance|commands|orders|constraints|guardrails|"
    r"policies|programming|context|messages)"
)
_EARLIER = (
    r"(?:previous|prior|earlier|above|preceding|former|foregoing|original|initial|existing|system|developer|"
    r"safety|old|other|current)"
)
# A qualifier that names *which* earlier instructions: business prose ("... sent by email").
_NAMED = (
    r"(?!\s+(?:for|from|sent|in|on|about|regarding|issued|dated|of|given|that|which|posted|published|by|to|until)\b)"
)
_DISMISS = (
    r"(?:ignore|disregard|forget|override|bypass|abandon|discard|set\s+aside|stop\s+following|do\s+not\s+follow|"
    r"don'?t\s+follow|no\s+longer\s+follow|cancel)"
)
_AI = (
    r"(?:ai|a\.i\.|ai\s+(?:assistant|agent|model|system)|virtual\s+assistant|language\s+model|llms?|chat\s?bots?|claude|"
    r"chatgpt|gpt(?:-\w+)?|gemini|copilot|rag\s+(?:system|pipeline|bot)|answering\s+(?:system|engine)|summari[sz]er|"
    r"the\s+assistant(?!\s+(?:manager|director|engineer|to|of))|any\s+assistant|dear\s+assistant|ki-assistent|assistant\s+ia)"
)
# Read on the folded view, not the leet one: short words like "ai" must not match "al".
ADDRESSEE = re.compile(
    rf"\b{_AI}\b|(?:^|[.!?]\s+|\n)(?:agent|assistant|bot|model)\s*(?:[,:]|\s+please\b)|\byour\s+(?:tools|functions|plugins|browsing|code\s+interpreter|shell\s+access|system\s+prompt)\b",
    re.IGNORECASE,
)

PATTERNS: tuple[Pattern, ...] = (
    # --- override: the reader's instructions are void --------------------------------------------
    _p(
        "override",
        "dismiss-all",
        rf"\b{_DISMISS}\s+(?:all|any|every|each)\s+(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+)?(?:{_EARLIER}\s+)*{_OBJECT}\b",
        0.9,
    ),
    _p("override", "dismiss-your", rf"\b{_DISMISS}\s+(?:your|its)\s+(?:{_EARLIER}\s+)*{_OBJECT}\b", 0.9),
    _p(
        "override",
        "dismiss-earlier",
        rf"\b{_DISMISS}\s+(?:the\s+|these\s+|those\s+)?(?:{_EARLIER}\s+)+{_OBJECT}\b{_NAMED}",
        0.85,
    ),
    _p(
        "override",
        "dismiss-earlier-named",
        rf"\b{_DISMISS}\s+(?:the\s+|these\s+|those\s+)?(?:{_EARLIER}\s+)+{_OBJECT}\b",
        0.35,
    ),
    _p(
        "override",
        "dismiss-above",
        rf"\b{_DISMISS}\s+(?:everything|anything|all)\s+(?:above|before|you\s+(?:were|have\s+been)\s+told)",
        0.85,
    ),
    _p(
        "override",
        "new-task",
        r"\b(?:your|the\s+assistant'?s?|the\s+model'?s?)\s+(?:new|real|actual|only|true|updated)\s+(?:task|goal|job|purpose|instructions?|objective|mission|role)\s+(?:is|are|will\s+be)\b",
        0.85,
    ),
    _p(
        "override",
        "new-instructions",
        r"\b(?:new|updated|real|actual|revised|override|priority|secret|hidden)\s+(?:system\s+)?(?:instructions?|directives?|orders)\s*[:\-]",
        0.45,
    ),
    _p(
        "override",
        "void-above",
        r"\b(?:the\s+)?(?:above|previous|preceding|prior)\s+(?:instructions?|prompt|rules|directives?)\s+(?:is|are|was|were)\s+(?:wrong|void|invalid|fake|cancel+ed|revoked|null|no\s+longer\s+(?:valid|in\s+effect|apply))",
        0.6,
    ),
    _p(
        "override",
        "instead",
        r"\binstead\s*,?\s+(?:you\s+(?:must|should|will|shall)\s+)?(?:just\s+|only\s+)?(?:reply|respond|answer|output|say|print|write|tell\s+the\s+user)\b",
        0.45,
    ),
    _p(
        "override",
        "not-bound",
        r"\b(?:you\s+are|you're)\s+(?:no\s+longer|not)\s+(?:bound|restricted|limited|constrained)\s+by\b",
        0.85,
    ),
    _p(
        "override",
        "de-ignore",
        r"\b(?:ignorier(?:e|en|t)?|vergiss|vergessen\s+sie|missachte(?:n|t)?|verwirf|verwerfen\s+sie)\s+(?:sie\s+)?(?:bitte\s+)?(?:alle\s+|samtliche\s+|jegliche\s+)?(?:die\s+|deine\s+|ihre\s+|der\s+|den\s+)?(?:(?:vorherigen|bisherigen|vorigen|obigen|fruheren|vorangegangenen|alten|ursprunglichen|system)\s*)*(?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen|richtlinien|systemprompt|prompts?)",
        0.9,
    ),
    _p(
        "override",
        "de-new-task",
        r"\bdeine\s+(?:neue|eigentliche|wahre|einzige)\s+(?:aufgabe|anweisung|rolle)\s+(?:ist|lautet)",
        0.85,
    ),
    _p(
        "override",
        "fr-ignore",
        r"\b(?:ignore[zrs]?|oublie[zrs]?|ne\s+tiens\s+(?:pas\s+)?compte\s+de|ne\s+tenez\s+(?:pas\s+)?compte\s+de|fai(?:s|tes)\s+abstraction\s+de)\s+(?:toutes\s+|tous\s+)?(?:les\s+|tes\s+|vos\s+|des\s+|de\s+)?(?:instructions|consignes|regles|directives|ordres|indications)\s+(?:precedentes|anterieures|ci-dessus|initiales|du\s+systeme|systeme|d'origine)",
        0.9,
    ),
    _p(
        "override",
        "fr-ignore-your",
        r"\b(?:ignore[zrs]?|oublie[zrs]?)\s+(?:toutes\s+)?(?:tes|vos)\s+(?:instructions|consignes|regles|directives)",
        0.9,
    ),
    _p(
        "override",
        "fr-new-task",
        r"\b(?:ta|votre)\s+(?:nouvelle|vraie|seule|veritable)\s+(?:tache|mission|consigne|instruction)\s+(?:est|consiste)",
        0.85,
    ),
    # --- role: chat-template tokens, role labels, personas, notes to a model ----------------------
    _p(
        "role",
        "template-token",
        r"<\|?\s*(?:im_start|im_end|system|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\s*\|?>|\[/?(?:inst|sys)\]|<<\s*/?sys\s*>>|</?(?:system|assistant|sys|system_prompt)>",
        0.9,
        view="folded",
    ),
    _p(
        "role",
        "template-token-leet",
        r"<\|?\s*(?:im_start|im_end|system|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\s*\|?>|\[/?(?:inst|sys)\]|<<\s*/?sys\s*>>|</?(?:system|assistant|sys|system_prompt)>",
        0.9,
    ),
    _p(
        "role",
        "role-label",
        r"(?:^|\n|[.!?]\s)\s*(?:#+\s*|\*\*)?(?:system|assistant|developer)\s*(?:prompt|message|override|instruction)\s*\**:",
        0.75,
        view="folded",
    ),
    _p(
        "role",
        "role-line",
        r"(?:^|\n)\s*(?:#+\s*|\*\*)?(?:system|assistant|developer)\s*\**:",
        0.35,
        0.75,
        view="folded",
    ),
    _p(
        "role",
        "you-are-now",
        rf"\byou\s+are\s+(?:now|no\s+longer|henceforth|hereby)\s+(?:an?\s+|the\s+|my\s+|in\s+|called\s+|named\s+|operating\s+(?:as|in)\s+)?(?:\w+\s+){{0,2}}(?:assistant|{_AI}|bot|model|agent|persona|character|dan|mode|jailbroken|unrestricted|unfiltered|uncensored|evil|hacker|pirate|free|liberated|\w+bot|\w+gpt|\w+agent)\b",
        0.85,
    ),
    _p(
        "role",
        "act-as",
        r"\b(?:act|behave|respond|answer|speak|roleplay|role-play)\s+(?:as|like)\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(?:\w+\s+){0,2}(?:unrestricted|unfiltered|uncensored|jailbroken|evil|malicious|dan|hacker|rogue)\b",
        0.85,
    ),
    _p(
        "role",
        "without-limits",
        r"\b(?:without|with\s+no|free\s+of)\s+(?:any\s+)?(?:restrictions|filters|guardrails|safety\s+(?:rules|guidelines)|content\s+polic(?:y|ies)|limitations)\b",
        0.3,
        0.7,
    ),
    _p("role", "pretend", r"\bpretend\s+(?:to\s+be|you\s+are|that\s+you|you're)\b", 0.55),
    _p(
        "role",
        "mode",
        r"\b(?:enter|enable|activate|switch\s+(?:in)?to|turn\s+on|now\s+in)\s+(?:developer|dev|god|jailbreak|dan|unrestricted|unfiltered|evil)\s+mode\b",
        0.4,
        0.85,
    ),
    _p(
        "role",
        "from-now-on",
        r"\b(?:from\s+now\s+on|henceforth|from\s+this\s+point\s+(?:on|forward)|von\s+nun\s+an|ab\s+(?:jetzt|sofort)|a\s+partir\s+de\s+maintenant|desormais)\b",
        0.2,
        0.5,
    ),
    _p(
        "role",
        "note-to-ai",
        rf"\b(?:note|message|attention|instructions?|memo|notice|reminder|warning|hinweis|nachricht|remarque|consigne)\s+(?:to|for|an|fur|a|pour)\s+(?:the\s+|any\s+|all\s+|den\s+|die\s+|l'|le\s+|les\s+)?{_AI}s?\b",
        0.6,
    ),
    _p(
        "role",
        "if-you-are-ai",
        rf"\b(?:if|when|since)\s+you\s+are\s+(?:an?\s+)?{_AI}\b|\b(?:wenn|falls)\s+du\s+(?:eine?\s+)?(?:ki|sprachmodell|assistent)\b|\bsi\s+tu\s+es\s+(?:une?\s+)?(?:ia|assistant|modele)\b",
        0.6,
    ),
    _p(
        "role",
        "ai-reading",
        rf"\b{_AI}s?\s+(?:reading|processing|summari[sz]ing|answering\s+from|indexing|that\s+reads?)\s+(?:this|these)\b|\bwhen\s+(?:you|an?\s+{_AI})\s+(?:read|reads|process|processes|summari[sz]es?|retrieve|retrieves)\s+(?:this|these)\b",
        0.6,
    ),
    # --- prompt leak -------------------------------------------------------------------------------
    _p(
        "prompt_leak",
        "reveal-your",
        r"\b(?:reveal|show|print|output|repeat|display|disclose|leak|share|dump|expose|tell\s+(?:me|us|the\s+user)|give\s+(?:me|us)|write\s+out|echo|recite|paste|send|include|quote|spell\s+out)\s+(?:me\s+|us\s+)?(?:all\s+|back\s+|out\s+)?(?:of\s+)?(?:your|its)\s+(?:(?:full|entire|complete|original|initial|hidden|secret|internal|exact|verbatim|underlying|confidential|system)\s+)*(?:prompts?|instructions|rules|guidelines|configuration|directives|pre-?prompt|system\s+message)\b",
        0.85,
    ),
    _p(
        "prompt_leak",
        "reveal-the-prompt",
        r"\b(?:reveal|show|print|output|repeat|display|disclose|leak|share|dump|expose|tell\s+(?:me|us|the\s+user)|give\s+(?:me|us)|write\s+out|echo|recite|paste|send|include|quote)\s+(?:me\s+|us\s+)?(?:all\s+|back\s+)?(?:of\s+)?the\s+(?:(?:full|entire|complete|original|initial|hidden|secret|internal|exact|verbatim|confidential)\s+)*(?:system\s+(?:prompt|message|instructions)|initial\s+prompt|hidden\s+(?:prompt|instructions|rules)|pre-?prompt|developer\s+(?:message|instructions))\b",
        0.85,
    ),
    _p(
        "prompt_leak",
        "what-are-yours",
        r"\bwhat\s+(?:is|are|was|were)\s+your\s+(?:(?:original|initial|hidden|secret|exact|system)\s+)*(?:prompts?|instructions|rules|guidelines|directives)\b",
        0.7,
    ),
    _p(
        "prompt_leak",
        "text-above",
        r"\b(?:repeat|print|output|copy|reproduce|recite)\s+(?:back\s+)?(?:the\s+|all\s+(?:the\s+)?)?(?:text|words|everything|content|lines|messages?)\s+(?:above|before\s+this|preceding|you\s+were\s+given|in\s+your\s+context)",
        0.75,
    ),
    _p(
        "prompt_leak",
        "system-prompt",
        r"\b(?:system\s*prompt|systemprompt|pre-?prompt|invite\s+systeme|prompt\s+systeme)\b",
        0.35,
        0.6,
    ),
    _p(
        "prompt_leak",
        "de-fr-leak",
        r"\b(?:zeige?|gib|nenne|verrate|wiederhole)\s+(?:mir\s+|uns\s+)?(?:deine[nr]?|ihre[nr]?|den|die)\s+(?:(?:vollstandigen|geheimen|ursprunglichen|internen)\s+)?(?:systemprompt|system-prompt|anweisungen|instruktionen|regeln)\b|\b(?:revele[zr]?|montre[zr]?|affiche[zr]?|donne[zr]?(?:-moi)?|repete[zr]?)\s+(?:moi\s+)?(?:ton|tes|vos|votre|le|les)\s+(?:prompt|instructions|consignes|regles)\s*(?:systeme|initiales?|secretes?|cachees?)?",
        0.8,
    ),
    # --- exfiltration ------------------------------------------------------------------------------
    _p(
        "exfiltration",
        "markdown-image-query",
        r"!\[[^\]]{0,200}\]\(\s*<?(?:https?:)?//[^\s)]*\?[^\s)]*=",
        0.9,
        view="folded",
    ),
    _p("exfiltration", "markdown-image", r"!\[[^\]]{0,200}\]\(\s*<?(?:https?:)?//[^\s)]+", 0.4, 0.8, view="folded"),
    _p(
        "exfiltration",
        "url-placeholder",
        r"(?:https?:)?//[^\s)\"'>]+\?[^\s)\"'>]*=\s*(?:[{\[<]|%7b|\$\{|\$\(|(?:data|history|conversation|chat|secret|prompt|answer|context|user_?data|user_?input|user_?question|input|query|question|msg|message|payload|summary|info|password|key|token)\b)",
        0.85,
        view="folded",
    ),
    _p("exfiltration", "url-query", r"(?:https?:)?//[^\s)\"'>]+\?[^\s)\"'>]*=", 0.15, 0.6, view="folded"),
    _p(
        "exfiltration",
        "send-data",
        r"\b(?:send|post|upload|forward|transmit|exfiltrate|leak|append|attach|encode|embed|submit|email|beacon|ping|copy|pass|include|add|put)\s+(?:\w+\s+){0,6}(?:conversation|chat\s+(?:history|log)|history|previous\s+messages|prior\s+messages|user'?s?\s+(?:data|messages|details|email|password|credentials)|api\s+keys?|credentials|passwords?|secrets?|session\s+(?:tokens?|cookies?)|access\s+tokens?|personal\s+data|(?:the|your)\s+(?:answer|reply|context|question)|question\s+and\s+answer|context\s+window)\s+(?:\w+\s+){0,4}?(?:to|into|in|at|via|on|as\s+a?\s*(?:query|parameter|param))\s+(?:\w+\s+){0,3}?(?:https?|url|link|endpoint|server|address|webhook|this\s+(?:url|link|address|site|image)|the\s+following|attacker|external|www|(?:the\s+)?(?:image|query|parameter))",
        0.85,
    ),
    _p(
        "exfiltration",
        "visit-url",
        r"\b(?:visit|open|fetch|load|browse\s+to|navigate\s+to|go\s+to|render|append|insert|output|embed|display|show|add|include)\s+(?:\w+\s+){0,4}(?:this\s+|the\s+following\s+)?(?:image|link|url|pixel|tracking)\b",
        0.2,
        0.6,
    ),
    # --- format hijack -----------------------------------------------------------------------------
    _p(
        "format_hijack",
        "reply-with-exactly",
        r"\b(?:reply|respond|answer)\s+(?:only\s+|just\s+|solely\s+)?(?:with|using)\s+(?:exactly|only|solely|verbatim|nothing\s+(?:but|except|other\s+than)|just|precisely|a\s+single|the\s+(?:single\s+)?(?:word|phrase|token|string|code|following\s+(?:word|phrase|token|string|text|message|sentence|code)))\b",
        0.8,
    ),
    _p(
        "format_hijack",
        "reply-only",
        r"\b(?:reply|respond|answer|output|print|say|write|return)\s+(?:only|exactly|verbatim|nothing\s+(?:but|else|except)|precisely|literally)\b(?!\s+(?:once|to|if|when|after|in|within|the\s+questions?|questions?|yes\s+or\s+no|by))",
        0.6,
    ),
    _p(
        "format_hijack",
        "answer-must-be",
        r"\b(?:your|the|every|each|any)\s+(?:final\s+)?(?:answer|reply|response|output)\s+(?:must|should|shall|has\s+to|needs\s+to|will)\s+(?:only\s+)?(?:be|contain|consist\s+of|start\s+with|begin\s+with|end\s+with|include)\s+(?:exactly|only|just|verbatim|precisely|nothing\s+but|the\s+(?:word|phrase|token|string|code))\b",
        0.5,
        0.85,
    ),
    _p(
        "format_hijack",
        "say-token",
        r"\b(?:say|output|print|write|emit|type|reply|respond|answer|append|add|include|end|start|begin|prefix|sign)\s+(?:\w+\s+){0,3}?(?:with\s+)?(?:the\s+)?(?:exact\s+|verbatim\s+)?(?:word|phrase|token|string|code\s*word|passphrase|password|codeword)\s*[:\"'“]",
        0.5,
        0.85,
    ),
    _p(
        "format_hijack",
        "dont-mention",
        r"\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|say|tell|disclose|acknowledge|refer\s+to)\s+(?:\w+\s+){0,3}?(?:this\s+(?:instruction|note|message|request|text)|these\s+instructions|that\s+you\s+(?:were|have\s+been)\s+(?:told|instructed|asked))",
        0.8,
    ),
    _p(
        "format_hijack",
        "no-sources",
        r"\b(?:do\s+not|don'?t|never)\s+(?:cite|include|mention|show|list|add)\s+(?:any\s+)?(?:the\s+)?(?:sources?|citations?|references|passages?)\b",
        0.3,
        0.7,
    ),
    _p(
        "format_hijack",
        "de-fr-reply-only",
        r"\b(?:antworte|antworten\s+sie|gib|geben\s+sie)\s+(?:nur|ausschliesslich|lediglich|genau|exakt)\s+(?:mit|das\s+wort|den\s+text|folgendes)|\b(?:reponds?|repondez|ecris|ecrivez)\s+(?:uniquement|seulement|exactement|simplement)\s+(?:par|avec|le\s+mot|ceci)",
        0.8,
    ),
    # --- tool abuse ------------------------------------------------------------------------------
    _p(
        "tool_abuse",
        "call-tool",
        r"\b(?:call|invoke|use|trigger|execute|run|fire|perform)\s+(?:the\s+|your\s+|a\s+|an\s+)?(?:[\w.-]+\s+){0,2}(?:tool|function|function[-\s]call|plugin|api\s+call|action|webhook)s?\b(?!\s+(?:from\s+the\s+)?(?:menu|bar|box|panel|kit|set|chest))",
        0.3,
        0.85,
    ),
    _p(
        "tool_abuse",
        "call-named-tool",
        r"\b(?:call|invoke|trigger|execute|run)\s+(?:the\s+)?`?\w+(?:_\w+)+`?\s*(?:\(|tool|function|with|action|command|endpoint|api)",
        0.5,
        0.9,
    ),
    _p(
        "tool_abuse",
        "run-command",
        r"\b(?:run|execute|exec|issue|type|enter|perform)\s+(?:the\s+|this\s+|these\s+|following\s+|a\s+)?(?:shell\s+|terminal\s+|system\s+|bash\s+|os\s+|sql\s+|admin\s+)?(?:commands?|cmd|script|code|query|payload)\b",
        0.15,
        0.8,
    ),
    _p(
        "tool_abuse",
        "destroy-all",
        r"\b(?:delete|erase|wipe|purge|drop|destroy|remove|truncate|deactivate|disable|cancel|revoke|reset)\s+(?:all|every|each|the\s+entire|the\s+whole|all\s+the|all\s+of\s+the|any)\s+(?:\w+\s+){0,2}(?:files?|records?|data|databases?|tables?|users?|accounts?|e-?mails?|messages?|backups?|repositor(?:y|ies)|documents?|logs?|customers?|tickets?|entries|rows|orders|invoices|permissions|keys)\b",
        0.3,
        0.85,
    ),
    _p(
        "tool_abuse",
        "dangerous-command",
        r"\brm\s+-r?f\s+(?:/|~|\*|\$home)|\bdrop\s+(?:table|database)\s+\w+|\b(?:curl|wget)\s+[^|\n]{3,200}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\bformat\s+c:|:\(\)\s*\{\s*:\|:&\s*\};:",
        0.45,
        0.9,
        view="folded",
    ),
    _p(
        "tool_abuse",
        "send-money",
        r"\b(?:send|transfer|wire|pay|refund)\s+(?:\w+\s+){0,3}(?:money|funds|payment|bitcoin|btc|crypto|gift\s+cards?)\b",
        0.2,
        0.8,
    ),
    _p(
        "tool_abuse",
        "de-fr-tool",
        r"\b(?:fuhre|fuhren\s+sie|rufe|rufen\s+sie|starte|starten\s+sie)\s+(?:\w+\s+){0,3}(?:befehl|werkzeug|tool|funktion|skript)\b|\b(?:losche|loschen\s+sie)\s+(?:alle|samtliche)\b|\b(?:execute[zr]?|lance[zr]?|appelle[zr]?)\s+(?:\w+\s+){0,2}(?:commande|outil|fonction|script)\b|\bsupprime[zr]?\s+(?:tous|toutes)\b",
        0.3,
        0.85,
    ),
)

# Added after the second round of dev templates (generic forms, not any one phrasing).
_MORE = (
    _p(
        "override",
        "rules-replaced",
        r"\b(?:new|different|updated|special)\s+(?:rules|instructions|orders|directives)\s+(?:apply|are\s+in\s+effect|take\s+(?:precedence|effect)|override)\b",
        0.45,
    ),
    _p(
        "override",
        "guidance-void",
        rf"\b(?:the\s+)?(?:{_EARLIER})\s+(?:guidance|rules|instructions|directives|prompt)\s+(?:no\s+longer\s+appl(?:y|ies)|(?:is|are)\s+(?:void|cancel+ed|superseded|revoked|obsolete))\b{_NAMED}",
        0.45,
    ),
    _p(
        "role",
        "privilege",
        r"\btreat\s+(?:the\s+|this\s+)?user\s+as\s+(?:an?\s+)?(?:admin(?:istrator)?|root|developer|superuser|owner|trusted)\b",
        0.6,
    ),
    _p(
        "role",
        "ai-is-now",
        rf"\b(?:the\s+)?(?:assistant|{_AI}|model|chatbot|agent)\s+(?:is|are)\s+now\s+(?:in\s+|an?\s+|operating\s+)?",
        0.6,
    ),
    _p("role", "comply", r"\byou\s+(?:must|will|shall)\s+(?:now\s+)?(?:comply|obey)\b", 0.6),
    _p(
        "role",
        "mode-setting",
        r"\b(?:assistant\s+)?mode\s*[:=]\s*(?:unrestricted|jailbreak|jailbroken|developer|god|dan|unfiltered|uncensored)\b",
        0.75,
    ),
    _p("role", "role-link", r"\[(?:system|assistant|developer)\]\(\s*#?", 0.8, view="folded"),
    _p("role", "system-label", r"\bsystem\s+(?:automation|notice|override|instruction|command|directive)s?\s*:", 0.6),
    _p(
        "prompt_leak",
        "hidden-config",
        r"\b(?:copy|paste|include|reproduce|output|print|dump|reveal|show|repeat)\s+(?:\w+\s+){0,3}(?:hidden|secret|internal|initial|original|confidential)\s+(?:configuration|instructions|prompt|rules|setup|settings)\b",
        0.8,
    ),
    _p(
        "prompt_leak",
        "context-window",
        r"\b(?:everything|all|anything)\s+(?:\w+\s+){0,2}in\s+your\s+(?:context(?:\s+window)?|memory|prompt|instructions)\b",
        0.8,
    ),
    _p(
        "prompt_leak",
        "you-were-given",
        r"\b(?:instructions|configuration|prompt|rules)\s+you\s+(?:were|have\s+been)\s+given\b",
        0.6,
    ),
    _p(
        "exfiltration",
        "html-image-query",
        r"<img\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^\s\"'>]*\?[^\s\"'>]*=",
        0.9,
        view="folded",
    ),
    _p(
        "exfiltration",
        "data-into-link",
        r"\b(?:conversation|chat\s+history|history|user'?s?\s+(?:question|input|messages)|previous\s+messages|summary|context)\b.{0,80}?\b(?:in|into|to|as)\s+(?:the\s+|this\s+|a\s+)?(?:link|url|query\s+string|parameter)\b",
        0.8,
    ),
    _p(
        "format_hijack",
        "only-output",
        r"\byour\s+(?:only|sole|single|entire)\s+(?:output|answer|reply|response)\s+(?:should|must|will|shall|is\s+to)\s+be\b",
        0.8,
    ),
    _p(
        "format_hijack",
        "first-line",
        r"\b(?:as|at)\s+the\s+(?:first|last|opening|final)\s+(?:line|word|sentence)\s+of\s+(?:every|each|your|all|any)\s+(?:response|answer|reply|output)s?\b",
        0.8,
    ),
    _p(
        "format_hijack",
        "begin-every",
        r"\b(?:begin|start|end|prefix|preface|sign)\s+(?:every|each|all|your|any)\s+(?:responses?|answers?|replies|outputs?)\s+with\b",
        0.7,
    ),
    _p(
        "format_hijack",
        "answer-every-with",
        r"\b(?:answer|reply|respond)\s+(?:to\s+)?(?:every|all|each|any)\s+(?:\w+\s+){0,4}?(?:questions?|queries|requests|messages)\s+with\b",
        0.35,
        0.7,
    ),
    _p(
        "tool_abuse",
        "bulk-transfer",
        r"\b(?:forward|send|email|export|upload|share|transfer|copy)\s+(?:all|every|the\s+entire|the\s+whole)\s+(?:\w+\s+){0,2}(?:records|data|files|e-?mails|contacts|documents|database|credentials)\s+to\b",
        0.35,
        0.85,
    ),
)
PATTERNS = PATTERNS + _MORE
