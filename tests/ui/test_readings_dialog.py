"""Help > Rules readings (issue 33): every variant with both readings, the game's marked."""

from __future__ import annotations

from html import escape

from app.plugins import available_rulesets, load_ruleset
from app.ui.dialogs.readings import readings_html


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


def test_the_cards_and_the_log_name_a_games_readings(tmp_path) -> None:
    """Issue 33: a game using the new readings says so on every card and in its log."""
    from app.session import GameSession
    from app.ui.cards.render import card_face

    chosen = ["ssgt_slow_no_modifier", "genie_vfps_nearest"]
    s = GameSession.create(tmp_path / "g.airboss", "airpower", "Readings", variants=chosen)
    try:
        aid = s.add_aircraft("Blue", "f-4e", "Blue 1")
        face = card_face(s.ruleset, s.engagement, s.engagement.get(aid))
        assert face.variants == (
            "SSGT below speed 3: no modifier",
            "Genie flight: the proportion of VFPs rounded to the nearest",
        )
        first = s.events()[0].narrative
        assert all(v in first for v in chosen)
    finally:
        s.close()
