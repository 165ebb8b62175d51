"""Old versions with no archive folder: retrieval when superseded documents sit beside current ones.

The golden corpora keep old versions in `archive/` folders, which the `superseded-version` ranking
rule reads. Many corpora do not: `policy-v2.md` lies beside `policy-v3.md`, and only the file name or
a banner under the title says which is outdated. This benchmark copies the source-sets that have old
versions (fieldops, hospital, itops, utility), moves every `archive/` or `archiv/` file up into its
parent folder (the golden questions follow), adds `insurance` as it is (its old versions never sat in
an archive folder), and materialises the copy twice: with the detection of
classification/versions.py turned off (`detect_versions: false`) and on. The two retrieval tables of
benchmarks.retrieval_quality are printed one above the other, test part first, dev beside it.

    python -m benchmarks.flat_versions          # two materialisations into temporary homes: ~10 min
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
SETS = ("fieldops", "hospital", "itops", "utility", "insurance")
_ARCHIVE = re.compile(r"(^|/)(?:archive|archived|archiv)/")


def flatten(target: Path) -> dict[str, str]:
    """Copy SETS and their golden files to `target` with archive folders merged into their parents;
    returns each moved file's old and new path (source-set/path)."""
    moved: dict[str, str] = {}
    for name in SETS:
        source = GOLDEN / "corpus" / name
        renamed: dict[str, str] = {}
        for path in sorted(p for p in source.rglob("*") if p.is_file()):
            old = path.relative_to(source).as_posix()
            new = _ARCHIVE.sub(r"\1", old)
            if new != old:
                if (source / new).exists():
                    raise SystemExit(f"{name}/{old} would replace {name}/{new}; rename one of them first.")
                renamed[old] = new
            (target / "corpus" / name / new).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / "corpus" / name / new)
        golden = (GOLDEN / f"{name}.yaml").read_text(encoding="utf-8")
        for old, new in renamed.items():
            golden = golden.replace(old, new)
        (target / f"{name}.yaml").write_text(golden, encoding="utf-8")
        moved |= {f"{name}/{old}": f"{name}/{new}" for old, new in renamed.items()}
    return moved


def rules_copy(target: Path, detect: bool) -> Path:
    shutil.copytree(ROOT / "rules", target)
    with (target / "corpus-rules.yaml").open("a", encoding="utf-8") as fh:
        fh.write(f"\ndetect_versions: {'true' if detect else 'false'}\n")
    return target


def table(work: Path, detect: bool) -> str:
    """Materialise the flattened copy with detection on or off; the retrieval table of the result."""
    label = "on" if detect else "off"
    if detect and (work / "home-off" / "cache").exists():  # the texts are the same: embed them once
        shutil.copytree(work / "home-off" / "cache", work / f"home-{label}" / "cache")
    env = os.environ | {
        "STRATA_HOME": str(work / f"home-{label}"),
        "STRATA_CORPUS_ROOT": str(work / "golden" / "corpus"),
        "STRATA_GOLDEN_DIR": str(work / "golden"),
        "STRATA_RULES_DIR": str(rules_copy(work / f"rules-{label}", detect)),
    }
    done = subprocess.run(
        [sys.executable, "-m", "strata_pipeline.cli", "materialize"], env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"materialize failed (detection {label}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    scored = subprocess.run(
        [sys.executable, "-m", "benchmarks.retrieval_quality"], env=env, capture_output=True, text=True, check=True
    )
    return "\n".join(line for line in scored.stdout.splitlines() if line.startswith("|"))


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="strata-flat-") as tmp:
        work = Path(tmp)
        moved = flatten(work / "golden")
        print(f"{len(moved)} old versions moved out of their archive folders, beside the current ones.\n")
        for detect in (False, True):
            print(f"Detection of old versions {'on' if detect else 'off'}:\n{table(work, detect)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
