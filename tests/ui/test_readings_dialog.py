"""Help > Rules readings (issue 33): every variant with both readings, the game's marked."""

from __future__ import annotations

from html import escape

from app.plugins import available_rulesets, load_ruleset
from app.ui.readings_dialog import readings_html


def test_readings_list_both_readings_of_every_variant() -> None:
    rulesets = [load_ruleset(r) for r in available_rulesets()]
    html = readings_html(rulesets, "nth_fleet", {"ew_each"})
    for rs in rulesets:
        for v in rs.variants:
            start = html.index(escape(v.title))
            end = html.index("</li>", start)
            item = html[start:end]
            if v.off:
                assert "<i>Without it:</i> " + escape(v.off) in item
            if v.on:
                assert "<i>With it:</i> " + escape(v.on) in item
    ew = html[html.index("Each EW aircraft") :]
    assert "<b>In this game: on.</b>" in ew[: ew.index("</li>")]
