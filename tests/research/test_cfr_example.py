"""examples/dead_end_drive_cfr.py writes its figure where it is run (or --out), never over the
committed docs/research-cfr.{png,json} unless asked (issue 42, item 9)."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "dead_end_drive_cfr.py"
COMMITTED = [ROOT / "docs" / "research-cfr.json", ROOT / "docs" / "research-cfr.png"]


def load_example():
    spec = importlib.util.spec_from_file_location("dead_end_drive_cfr", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def digests() -> list[str]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in COMMITTED]


def test_the_default_run_leaves_the_committed_figure_alone(tmp_path, monkeypatch):
    example = load_example()
    before = digests()
    monkeypatch.chdir(tmp_path)
    example.main(["--iterations", "1"])
    assert digests() == before
    assert (tmp_path / "research-cfr.json").exists() and (tmp_path / "research-cfr.png").exists()


def test_out_names_the_folder(tmp_path, monkeypatch):
    example = load_example()
    monkeypatch.chdir(tmp_path)
    example.main(["--iterations", "1", "--out", str(tmp_path / "figs")])
    assert (tmp_path / "figs" / "research-cfr.json").exists()
    assert not (tmp_path / "research-cfr.json").exists()
