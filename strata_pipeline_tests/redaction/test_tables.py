"""Table cells with their headers (`tables.table_cells`) and the address fields read from them."""

from __future__ import annotations

from strata_pipeline.redaction.addresses import address_spans, column_address_spans
from strata_pipeline.redaction.scan import scan_text
from strata_pipeline.redaction.tables import table_cells


def cells(text: str) -> list[tuple[str, str, int]]:
    return [(c.header, text[c.start : c.end], c.row) for c in table_cells(text)]


def test_tab_and_pipe_tables_give_each_body_cell_its_header() -> None:
    tsv = "name\tcity\nAnna Berg\tUmeå\nJon Ek\tLuleå\n"
    assert cells(tsv) == [("name", "Anna Berg", 1), ("city", "Umeå", 1), ("name", "Jon Ek", 2), ("city", "Luleå", 2)]
    markdown = "| Naam | Plaats |\n|---|---|\n| Sanne de Wit | Utrecht |\n"
    assert cells(markdown) == [("naam", "Sanne de Wit", 1), ("plaats", "Utrecht", 1)]


def test_form_fields_are_one_record() -> None:
    form = "Name: Rhiannon Pritchard\nTown: Cardiff\nPostcode: CF14 7JN\n"
    assert cells(form) == [("name", "Rhiannon Pritchard", 0), ("town", "Cardiff", 0), ("postcode", "CF14 7JN", 0)]


def test_a_city_is_an_address_field_only_in_a_persons_record() -> None:
    people = scan_text(
        "customer;street;city;zip\nMarisol Q;4410 Juniper Hollow Rd;Albuquerque;87110\nDelroy B;;Newark;07104\n"
    )
    found = [people[s:e] for s, e, _ in column_address_spans(people)]
    assert found == ["4410 Juniper Hollow Rd", "Albuquerque", "87110", "Newark", "07104"]
    depots = scan_text("site;city;country\nLisbon depot;Lisbon;Portugal\nPorto hub;Porto;Portugal\n")
    assert column_address_spans(depots) == []


def test_the_grammar_keeps_its_finer_spans_inside_an_address_field() -> None:
    text = "Neue Adresse: Hauptstraße 5, 10115 Berlin; vorher Lindenstraße 27a, 80331 München."
    assert [text[s.start : s.end] for s in address_spans(text)] == [
        "Hauptstraße 5, 10115 Berlin",
        "Lindenstraße 27a, 80331 München",
    ]


def test_a_street_cell_needs_a_house_number_or_a_persons_record() -> None:
    zones = scan_text("zone;main_streets;rate\nA;Marktplatz / Kirchgasse;3.00\nB;Gleisweg / Posthof;2.50\n")
    assert [c.header for c in table_cells(zones)][:3] == ["zone", "main_streets", "rate"]
    assert column_address_spans(zones) == []  # street names that locate nobody
    sites = scan_text("site;street;hours\nDepot West;Hafenstraße 12;7-18\nDepot Ost;Kaiweg;8-17\n")
    assert [sites[s:e] for s, e, _ in column_address_spans(sites)] == ["Hafenstraße 12"]
    people = scan_text("name;street;hours\nAnna Berg;Hafenstraße;7-18\nJon Ek;Kaiweg 3;8-17\n")
    assert [people[s:e] for s, e, _ in column_address_spans(people)] == ["Hafenstraße", "Kaiweg 3"]


def test_a_placeholders_number_in_a_street_list_is_no_house_number() -> None:
    """The leak check reads redacted rows under their header: "[PERSON_1]" in a list of street names is
    what redaction wrote, and its "1" made the list a street with a house number."""
    text = "zone\tmain_streets\thourly_rate\nC\tHafenstraße; [PERSON_1]; Speicherplatz\t2.00\nD\tMarktplatz\t1.50"
    assert column_address_spans(text) == []
    assert column_address_spans("zone\tmain_streets\nC\tHafenstraße 12\nD\tMarktplatz") != []
