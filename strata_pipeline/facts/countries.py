"""Country names for the two-letter codes a country column stores, in English, German and French, from
pycountry's ISO 3166 data and its translations (so "Irland", "Tschechien" and "Royaume-Uni" are read
without a hand list), plus the everyday names ISO does not use ("Great Britain", "Holland")."""

from __future__ import annotations

import gettext
import re

import pycountry

# Everyday names people use where ISO 3166 has another one.
EVERYDAY_NAMES = {
    "great britain": "GB", "britain": "GB", "uk": "GB", "u.k.": "GB", "großbritannien": "GB",
    "grossbritannien": "GB", "grande-bretagne": "GB", "holland": "NL", "usa": "US", "u.s.": "US",
    "america": "US", "amerika": "US", "amérique": "US", "etats-unis": "US", "czech republic": "CZ",
    "tschechische republik": "CZ", "république tchèque": "CZ",
}  # fmt: skip


def _names() -> dict[str, str]:
    """Lower-cased name -> alpha-2 code, for every ISO country's name, common and official name in
    en, de and fr."""
    translations = [gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang]) for lang in ("de", "fr")]
    names: dict[str, str] = {}
    for country in pycountry.countries:
        english = {getattr(country, field, "") for field in ("name", "common_name", "official_name")} - {""}
        for name in english | {t.gettext(n) for t in translations for n in english}:
            names.setdefault(name.lower(), country.alpha_2)
    return names | EVERYDAY_NAMES


def _by_code(names: dict[str, str]) -> dict[str, frozenset[str]]:
    grouped: dict[str, set[str]] = {}
    for name, code in names.items():
        grouped.setdefault(code, set()).add(name)
    return {code: frozenset(group) for code, group in grouped.items()}


COUNTRIES: dict[str, str] = _names()
# Every name of each country, by code: a passage that says "Deutschland" names what "Germany" does.
COUNTRY_NAMES: dict[str, frozenset[str]] = _by_code(COUNTRIES)


def _region_names() -> frozenset[str]:
    """Lower-cased names of every country's first-level subdivisions (ISO 3166-2: states, provinces,
    regions, cantons), as ISO writes them and in en, de and fr ("Bayern", "Bavaria", "Bavière",
    "Galicia")."""
    translations = [
        gettext.translation("iso3166-2", pycountry.LOCALES_DIR, languages=[lang]) for lang in ("en", "de", "fr")
    ]
    top = [s.name for s in pycountry.subdivisions if s.parent_code is None]
    names = {n for name in top for n in (name, *(t.gettext(name) for t in translations))}
    # ISO writes some in two languages: "Galicia [Galicia]", "Bruxelles-Capitale;Brussels Hoofdstedelijk Gewest"
    return frozenset(part.strip().lower() for name in names for part in re.split(r"[;\[\]]", name) if part.strip())


REGIONS: frozenset[str] = _region_names()
