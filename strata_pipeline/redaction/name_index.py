"""How common a word is as a first or last name, from the `names-dataset` package.

names-dataset (Remy, 2021; MIT) holds 730k first and 980k last names with their popularity rank in
each of 105 countries. Loading it takes ~15 s and ~2 GB, so the first use distils it into a compact
index (sorted 64-bit hashes and the best rank per name, ~14 MB) in the user cache, which later
processes load in milliseconds.

The rank is one piece of evidence that a capitalised word names a person, never the decision:
the data is scraped and noisy ("The" and "Street" are listed as names somewhere).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import os
import pickle
import re
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

import numpy as np

NO_RANK = 65535
_NAME = re.compile(r"^[^\W\d_]+(?:[-'’][^\W\d_]+)*$")


def word_hash(word: str) -> int:
    """The index key of a word, any case."""
    return int.from_bytes(hashlib.blake2b(word.casefold().encode(), digest_size=8).digest(), "little")


def cache_dir() -> Path:
    """`STRATA_CACHE_DIR`, else the user cache folder; shared by every state folder on the machine."""
    from strata_pipeline.settings import load_settings

    explicit = load_settings().shared_cache_dir
    if explicit:
        return Path(explicit)
    import platformdirs

    return Path(platformdirs.user_cache_dir("strata-pipeline"))


@dataclass(frozen=True)
class NameRanks:
    first: int  # best (lowest) popularity rank as a first name in any country; NO_RANK if never
    last: int

    @property
    def best(self) -> int:
        return min(self.first, self.last)


# "O'Neill", "D’Angelo": a letter, an apostrophe and a capital ("C'mon", "Luby's" are no such names)
_APOSTROPHE_PREFIX = re.compile(r"^[A-Za-z]['’][A-Z]")


class NameIndex:
    def __init__(self, hashes: np.ndarray, first: np.ndarray, last: np.ndarray) -> None:
        self._hashes, self._first, self._last = hashes, first, last

    def __len__(self) -> int:
        return len(self._hashes)

    def ranks(self, word: str) -> NameRanks | None:
        """Ranks of `word` (any case), or None when it is not a listed name. The lists write "O'Neill" and
        "D'Angelo" without the apostrophe."""
        if _APOSTROPHE_PREFIX.match(word):
            word = word.replace("'", "").replace("’", "")
        key = np.uint64(word_hash(word))
        position = int(np.searchsorted(self._hashes, key))
        if position < len(self._hashes) and self._hashes[position] == key:
            return NameRanks(int(self._first[position]), int(self._last[position]))
        return None

    def hashes(self, max_first_rank: int) -> np.ndarray:
        """Sorted keys (word_hash) of the names ranked at most `max_first_rank` as a first name."""
        return self._hashes[self._first <= max_first_rank]

    @classmethod
    def build(cls) -> NameIndex:
        """Distil the installed names-dataset: single-word names, best rank per kind."""
        import names_dataset

        folder = Path(names_dataset.__file__).parent / "v3"
        best: dict[int, list[int]] = {}
        for kind, filename in enumerate(("first_names.pkl.gz", "last_names.pkl.gz")):
            with gzip.open(folder / filename, "rb") as handle:
                names = pickle.load(handle)
            for name, info in names.items():
                ranks = [r for r in (info.get("rank") or {}).values() if r is not None]
                if not ranks or len(name) < 2 or not _NAME.match(name):
                    continue
                entry = best.setdefault(word_hash(name), [NO_RANK, NO_RANK])
                entry[kind] = min(entry[kind], min(ranks), NO_RANK - 1)
            del names
        hashes = np.fromiter(best.keys(), dtype=np.uint64, count=len(best))
        order = np.argsort(hashes)
        table = np.array(list(best.values()), dtype=np.uint16)
        return cls(hashes[order], table[order, 0], table[order, 1])

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
            np.savez(handle, hashes=self._hashes, first=self._first, last=self._last)
        os.replace(handle.name, path)  # atomic: a concurrent reader never sees half a file

    @classmethod
    def load(cls, path: Path) -> NameIndex:
        with np.load(path) as data:
            return cls(data["hashes"], data["first"], data["last"])


def index_path() -> Path:
    return cache_dir() / f"names-dataset-{version('names-dataset')}-v1.npz"


@lru_cache(maxsize=1)
def name_index() -> NameIndex:
    """The cached index, built on first use (about 20 s once per machine)."""
    path = index_path()
    if path.exists():
        return NameIndex.load(path)
    index = NameIndex.build()
    with contextlib.suppress(OSError):  # a read-only cache: keep the index in memory for this process
        index.save(path)
    return index


if __name__ == "__main__":  # `python -m strata_pipeline.redaction.name_index` pre-builds the cache
    print(f"{len(name_index()):,} names indexed at {index_path()}")
