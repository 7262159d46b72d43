"""Air Power (J.D. Webster): air-to-air guns and rockets, angle-off, recovery periods, SSGT,
radar ranging and the Genie nuclear rocket, from the revised rules text (seed
000_8bb6a36db64f6e01), with the original wording as a variant."""

from rulesets.airpower.ruleset import AirPower

RULESET = AirPower()
