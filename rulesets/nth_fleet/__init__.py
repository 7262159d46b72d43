"""Nth Fleet air rules: air points on Air Base Displays, 2d5 air-to-air combat.

The rules work at the operational level (Nth Fleet 2.1): a two-sided air unit becomes four air
points, a single-sided unit two, and each air base (carrier or land base) keeps its aircraft on
an Air Base Display with three tracks: unused, used, and on CAP.

How the display is kept, and why:

- A roster entry is one *counter on one base's display*: an aircraft type with a number of air
  points (``count``), its base in ``details["base"]``. Several counters may share a base, and
  the same type may have several counters (one per mission flown at the same time).
- The entry's typed ``State`` (``state.py``) holds its ``Tracks``: how many of its points are
  ``unused``, on ``cap``, ``used`` (the three tracks of 2.1), and ``aloft`` (flying a mission,
  on the strategic display), with the mission flown and its effectiveness. Missions move points
  between these places with ``AttributesSet`` events that carry the whole new ``tracks`` value,
  computed and checked by the procedure from the current projection (a move of more points
  than a track holds is refused before anything is appended; the draft checks every value
  against ``State``).
- The entry's ``air_points`` ledger counts the points still in service; air-to-air losses spend
  it, so the projection itself refuses shooting down more points than a counter has, and the
  card shows the losses as crossed-out boxes. The four track numbers always add up to it.

The tracks are not ledgers themselves because a ledger starts full (``AircraftAdded`` sets value
and maximum alike), while a display track starts empty and fills as points move in; per-type
entries (rather than one entry per base) keep each type's attack and defence values, losses and
mission on one card, and ``display.base_display`` assembles any base's whole display.

Procedures, each one ``decide`` (``app.core.procedure``): ``mission_effectiveness`` (2.2,
2.3), ``air_attack`` (2.9-2.11, a what-if), ``air_combat`` (2.5-2.15); the calculators without
dice ``launch_mission`` (2.1, 2.2), ``return_to_base`` (2.1, 2.3), ``move_air_points`` (2.1).
Tables: the air-to-air attack table and the Defence Value Table are data with missing cells
(``tables/*.toml``, see ``table_files``); the aircraft catalogue (``aircraft/*.toml``) holds
sample values, marked ``sample = true``.
"""

from rulesets.nth_fleet.ruleset import NthFleet

RULESET = NthFleet()

__all__ = ["RULESET", "NthFleet"]
