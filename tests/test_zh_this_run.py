"""Reader review 4, m4: the Chinese edition said 本次运行 ("this run") where the English has no "this run" (dp-mean
17 times against the English page's 11, privacy-audit 3 against 1): a hedge the English lacks. Each catalogue entry,
message template and figure label says 本次运行 at most as often as its English says "this run" (the page-level count
is in ``tests/test_book_zh.py``)."""

from __future__ import annotations

import re

from test_terms_zh import pairs

THIS_RUN_ZH = "本次运行"
THIS_RUN_EN = re.compile(r"\bthis run\b", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")


def hedges(en: str, zh: str) -> int:
    """How many times ``zh`` says 本次运行 beyond the English's "this run" (0: none the English lacks)."""
    return max(0, zh.count(THIS_RUN_ZH) - len(THIS_RUN_EN.findall(en)))


def test_the_check_can_fail():
    assert hedges("at the run's confidence", "在本次运行所设置信度下") == 1
    assert hedges("the standard variant is not run", "本次运行没有运行标准变体") == 1
    assert hedges("at no $\\varepsilon$ of this run", "在本次运行的任何 $\\varepsilon$ 下") == 0
    assert hedges("the run checks it", "代码对此做了检查") == 0


def test_no_entry_says_this_run_where_the_english_does_not():
    extra = [
        f"{where}: {zh[:120]!r}"
        for where, en, zh in pairs()
        if not _CJK.search(en) and hedges(en, zh)  # a msgid in Chinese is not an English source
    ]
    assert not extra, f"{len(extra)} entries say 本次运行 beyond the English:\n" + "\n".join(extra)
