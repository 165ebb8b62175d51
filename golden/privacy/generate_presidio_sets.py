"""Write the Presidio-generator PII sets: `presidio-dev.jsonl` and `presidio-test.jsonl`.

The sentences come from Microsoft's `presidio-evaluator` package (its templates and fake person
records), not from this project, so they measure the detector on text nobody here wrote. The
generator does not give the same corpus twice for a seed, so the files are committed and scored as
they are; rerun this only to draw a fresh sample.

It needs presidio-evaluator, which is not a runtime dependency:

    python3.11 -m venv /tmp/pe && /tmp/pe/bin/pip install presidio-evaluator==0.3.2
    /tmp/pe/bin/python golden/privacy/generate_presidio_sets.py

Every labelled span is kept with the generator's own type (PERSON, STREET_ADDRESS, GPE, ...); the
scorer decides which types are personal data to redact.
"""

from __future__ import annotations

import json
from pathlib import Path

from presidio_evaluator.data_generator import PresidioSentenceFaker

HERE = Path(__file__).parent
SIZE = 1500
SEEDS = {"dev": 1009, "test": 2027}
LOWER_CASE_RATIO = 0.05  # the share of lower-cased names the package's own examples use


def main() -> None:
    for part, seed in SEEDS.items():
        faker = PresidioSentenceFaker("en_US", lower_case_ratio=LOWER_CASE_RATIO, random_seed=seed)
        samples = faker.generate_new_fake_sentences(SIZE)
        with open(HERE / f"presidio-{part}.jsonl", "w", encoding="utf-8") as out:
            for number, sample in enumerate(samples):
                entities = sorted(
                    (
                        {"type": span.entity_type, "start": span.start_position, "end": span.end_position}
                        for span in sample.spans
                    ),
                    key=lambda e: (e["start"], e["end"]),
                )
                record = {"id": f"presidio-{part}-{number:04d}", "text": sample.full_text, "entities": entities}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
        print(f"wrote {len(samples)} sentences to presidio-{part}.jsonl")


if __name__ == "__main__":
    main()
