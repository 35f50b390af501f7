"""Figures label in Chinese only where a font draws it, and say so in English elsewhere."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from matplotlib import font_manager

from interpreter import figures


@pytest.fixture
def fonts(monkeypatch):
    def installed(*names):
        entries = [SimpleNamespace(name=n) for n in names]
        monkeypatch.setattr(font_manager.fontManager, "ttflist", entries)
        figures.cjk_font.cache_clear()

    yield installed
    figures.cjk_font.cache_clear()


def test_english_where_no_font_draws_chinese(fonts):
    fonts("DejaVu Sans")
    assert figures.cjk_font() is None
    assert figures.label("庄家得分", "dealer's points") == "dealer's points"


def test_chinese_and_its_font_where_one_is_installed(fonts, monkeypatch):
    import matplotlib.pyplot as plt

    monkeypatch.setitem(plt.rcParams, "font.family", ["sans-serif"])
    fonts("DejaVu Sans", "WenQuanYi Zen Hei")
    assert figures.label("庄家得分", "dealer's points") == "庄家得分"
    assert plt.rcParams["font.family"][0] == "WenQuanYi Zen Hei"
