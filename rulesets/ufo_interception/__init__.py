"""UFO Interception: jets against UFOs on a table measured in inches, with d6s.

From the untitled UFO interception rules (seed 003_184eec7a9e953b3d). The text has no rule
numbers; procedures cite its section headings ("UFO rules, Firing: Ray Gun").
"""

from .ruleset import UfoInterception

RULESET = UfoInterception()

__all__ = ["RULESET", "UfoInterception"]
