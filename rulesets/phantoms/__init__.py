"""Phantoms (Dave Schueler): modern air combat on a hex map, after Avalon Hill's Mustangs.

Ten impulses a turn driven by the Movement Impulse Chart, an Initiative Marker, guns, radar
lock-on and heat-seeking and radar-guided missiles, critical hits, fires, ejection, loss of
control, break-off, optional spotting and countermeasures by era.
"""

from rulesets.phantoms.ruleset import Phantoms

RULESET = Phantoms()

__all__ = ["RULESET", "Phantoms"]
