"""Chinese labels on figures when a font can draw them, English ones otherwise.

matplotlib draws a missing glyph as an empty box, so a figure labelled in Chinese on a
machine without a CJK font says nothing.  :func:`label` picks the Chinese text and selects
the font where one is installed, and the English text elsewhere; the command line's plots
and the notebooks use it.
"""

from __future__ import annotations

from functools import lru_cache

_CJK_FAMILIES = (
    "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei", "SimHei", "Microsoft YaHei", "PingFang SC", "Heiti SC",
    "Arial Unicode MS",
)  # fmt: skip


@lru_cache(maxsize=1)
def cjk_font() -> str | None:
    """A font family that draws Chinese, if one is installed (selected for matplotlib)."""
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    family = next((f for f in _CJK_FAMILIES if f in installed), None)
    if family:
        plt.rcParams["font.family"] = [family, "sans-serif"]
    return family


def label(zh: str, en: str) -> str:
    """``zh`` where a CJK font is installed, else ``en``."""
    return zh if cjk_font() else en
