"""MkDocs hooks: the site shows files that live elsewhere in the checkout, without copying them into docs/.

- ``cases/<game>/PROCEDURE.md`` (each game's per-step contract, kept beside its cases) becomes the page
  ``procedures/<game>.md``;
- ``reports/screenshot*.png`` (the report's screenshots, kept beside the report code) become ``img/*.png``.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]


def on_files(files: Files, config) -> Files:
    for procedure in sorted((ROOT / "cases").glob("*/PROCEDURE.md")):
        files.append(File.generated(config, f"procedures/{procedure.parent.name}.md", abs_src_path=str(procedure)))
    for shot in sorted((ROOT / "reports").glob("screenshot*.png")):
        files.append(File.generated(config, f"img/{shot.name}", abs_src_path=str(shot)))
    return files
