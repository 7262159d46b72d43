"""Smoke test: the combat dock builds a form and shows odds for every procedure of every
installed ruleset that loads, with aircraft from its own catalogue."""

from __future__ import annotations

import pytest

from app.core.data import save_override
from app.plugins import available_rulesets, load_ruleset
from app.session import GameSession
from app.ui.docks.combat import CombatDock
from app.ui.model import EngagementModel


def loadable() -> list[str]:
    out = []
    for rid in available_rulesets():
        try:
            load_ruleset(rid)
        except Exception:  # noqa: BLE001 - a broken ruleset is listed by the plugin tests
            continue
        out.append(rid)
    return out


@pytest.mark.parametrize("ruleset", loadable())
def test_every_procedure_gets_a_form_and_odds_or_a_reason(qtbot, tmp_path, ruleset):
    s = GameSession.create(tmp_path / "g.airboss", ruleset, "Smoke")
    types = list(s.ruleset.aircraft)
    for side in ("Blue", "Red"):
        try:
            s.add_aircraft(side, types[0], f"{side} 1")
        except Exception:  # noqa: BLE001 - some catalogues need details; then what-ifs only
            break
    d = CombatDock(EngagementModel(s))
    qtbot.addWidget(d)
    for i in range(d.procedure.count()):
        d.procedure.setCurrentIndex(i)
        name = d.procedure.currentText()
        assert d.form is not None, name
        odds = d.odds  # worked out now rather than after the pause in typing
        shown = d.odds_table.rowCount() > 0 or d.odds_message.text()
        assert shown, f"{ruleset} {name}: neither odds nor a reason"
        if odds:
            assert sum(odds.values()) == 1, name
    s.close()


@pytest.mark.parametrize("ruleset", ["ufo_interception", "phantoms"])
def test_combat_never_opens_on_the_initiative_panels_roll(qtbot, tmp_path, ruleset):
    """Issue 14: the UFO game's Combat panel opened on a duplicate Initiative form with a red
    error; the initiative roll is the Initiative panel's alone."""
    s = GameSession.create(tmp_path / "g.airboss", ruleset, "Smoke")
    d = CombatDock(EngagementModel(s))
    qtbot.addWidget(d)
    offered = [d.procedure.itemData(i) for i in range(d.procedure.count())]
    assert s.ruleset.initiative not in offered
    assert d.procedure.currentData() == offered[0]
    assert not d.refusal.message
    s.close()


def test_air_power_gun_card_values_are_read_only_until_overridden(qtbot, tmp_path):
    """Issue 14/15: Air Power's gun attack shows the ADC's numbers read-only, each with an
    Override, so the umpire judges only range, angle-off, flight and the like."""
    from PySide6.QtWidgets import QToolButton

    s = GameSession.create(tmp_path / "g.airboss", "airpower", "Cards")
    mig = s.add_aircraft("Red", "mig-17f", "Fresco")
    sabre = s.add_aircraft("Blue", "f-86d", "Sabre Dog")
    d = CombatDock(EngagementModel(s))
    qtbot.addWidget(d)
    d.open_for("gun_attack", mig, sabre)
    for name in ("hit_numbers", "attack_rating", "gunsight_tt", "target_size", "pilot"):
        assert d.form.is_locked(name), name
        assert d.form.findChild(QToolButton, f"override_{name}").isVisibleTo(d.form), name
    assert d.form.shown_text("attack_rating") == "6"
    assert not d.form.is_locked("horizontal_range")
    s.close()


def test_air_power_board_readings_fill_the_gun_attack_and_the_outcome_uses_them(qtbot, tmp_path):
    """Issue 18: with both aircraft on the board, choosing them fills range, angle-off and
    altitudes "from the board" (read-only, Override logged); undoing a move restores the
    previous reading; the resolved attack records the board's values."""
    s = GameSession.create(tmp_path / "g.airboss", "airpower", "Board")
    mig = s.add_aircraft("Red", "mig-17f", "Fresco")
    sabre = s.add_aircraft("Blue", "f-86d", "Sabre Dog")
    s.roster.place(sabre, 0, 0, 90, 2)
    s.roster.place(mig, 0, -3, 90, 2)  # three hexes dead astern of the Sabre
    d = CombatDock(EngagementModel(s))
    qtbot.addWidget(d)
    d.open_for("gun_attack", mig, sabre)
    assert d.form.shown_text("horizontal_range") == "3"
    assert d.form.shown_text("angle_off") == "0 line"
    assert d.form.is_locked("horizontal_range") and d.form.is_locked("angle_off")
    assert "From the board: " in d.notice.message and "0 line" in d.notice.message
    s.roster.place(mig, 0, -1, 90, 2)  # closes to one hex
    d.open_for("gun_attack", mig, sabre)
    assert d.form.shown_text("horizontal_range") == "1"
    # the umpire's values for the unprinted angle-off modifiers (a test table, not the game's)
    save_override(
        "airpower",
        "modifiers",
        {
            "angle_off": {
                a: 0
                for a in (
                    "0 line",
                    "30 arc",
                    "60 arc",
                    "90 arc",
                    "120 arc",
                    "150 arc",
                    "180 arc",
                    "180 line",
                )
            },
            "attacker_damage": {"damaged": 2},
            "radar_ranging": {"RE": -1, "CA": -2, "IG": -3},
            "pilot_quality": {
                q: 0 for q in ("green", "inexperienced", "average", "experienced", "ace")
            },
        },
    )
    d.model.tables_saved()  # the Tables editor's save: the form is prepared again
    d.form.editor("fp").setText("1")
    d.players_roll.setChecked(True)
    qtbot.keyClicks(d.dice_fields[0].edit, "1")
    d.resolve()
    assert not d.refusal.message, d.refusal.message
    record = next(e.event for e in reversed(s.events()) if e.event.kind == "procedure_resolved")
    assert record.inputs["horizontal_range"] == 1 and record.inputs["angle_off"] == "0 line"
    s.undo()  # the attack
    s.undo()  # and the move: the reading goes back
    d.open_for("gun_attack", mig, sabre)
    assert d.form.shown_text("horizontal_range") == "3"
    s.close()
