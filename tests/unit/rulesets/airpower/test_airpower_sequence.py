"""Issue 14: Air Power's "who acts now" through one game turn (flight, missile launch, Genie,
administration), each line naming the procedure it opens."""

from __future__ import annotations

from pathlib import Path

from app.core.data import save_override
from app.core.dice import TableDice
from app.session import GameSession


def walk(s: GameSession) -> list[tuple[str, ...]]:
    """Each line's who, what and procedure (when it opens one), by name."""
    lines = s.ruleset.acting(s.engagement)
    return [(x.who, x.what, x.procedure) if x.procedure else (x.who, x.what) for x in lines]


def test_one_game_turn_of_who_acts_now(tmp_path: Path, _user_data: Path) -> None:
    save_override("airpower", "genie", {"launch_number": 8})  # not printed: a test value
    with GameSession.create(tmp_path / "ap.airboss", "airpower", "Turn") as s:
        scorpion = s.add_aircraft("Blue", "f-89j", "Scorpion")
        bear = s.add_aircraft("Red", "f-89j", "Other")
        # Flight phase: every aircraft records its FPs (rule "Recovery Periods")
        assert walk(s) == [
            (scorpion, "flies its move FP by FP; gun or rocket attacks after an FP", "flight"),
            (bear, "flies its move FP by FP; gun or rocket attacks after an FP", "flight"),
        ]
        s.clock.next_step()  # air-to-air missile launch phase: the Genie carriers (Genie Launch)
        lines = walk(s)
        assert [line[0] for line in lines] == [scorpion, bear]
        assert all(line[2] == "genie_launch" for line in lines)
        s.perform("genie_launch", {"attacker": scorpion}, TableDice([3]))  # 3 <= 8: launched
        s.clock.next_step()  # Genie phase: only this turn's Genie flies, scatters, detonates
        assert walk(s) == [
            (scorpion, "its Genie flies straight ahead (VFPs as the launcher's)", "genie_flight"),
            (scorpion, "its Genie scatters, then detonates", "genie_scatter"),
        ]
        s.clock.next_step()  # administration: speeds for next turn, nothing to roll
        assert all(len(line) == 2 for line in walk(s))
        s.clock.next_step()  # next turn: last turn's Genie no longer scatters
        s.clock.next_step()
        s.clock.next_step()
        assert walk(s) == []
