"""Load source-adapter plugins: every `*.py` in STRATA_PLUGINS_DIR, imported when definitions load.

A plugin registers its adapters with `strata_pipeline.discovery.adapters.register_adapter`. A
missing folder is not an error; a plugin that fails to import stops the load, naming its file.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


class PluginError(RuntimeError):
    pass


def load_plugins(plugins_dir: str | Path | None) -> list[str]:
    """Import each plugin module once; returns the module names loaded (sorted by file name)."""
    if not plugins_dir:
        return []
    folder = Path(plugins_dir)
    if not folder.is_dir():
        return []
    loaded = []
    for path in sorted(folder.glob("*.py")):
        name = f"strata_plugins.{path.stem}"
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise PluginError(f"Plugin {path} cannot be imported (not a Python module).")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except Exception as exc:
                del sys.modules[name]
                raise PluginError(f"Plugin {path} failed to load: {type(exc).__name__}: {exc}") from exc
        loaded.append(name)
    return loaded
