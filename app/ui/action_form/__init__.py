"""The action form: the Combat and Initiative panels' views of an ``ActionDraft`` (issue 43).

``fields`` paints the draft's fields, ``dice`` its dice, ``odds`` the odds of its prepared
action; each keystroke goes to the draft, never into a value a widget keeps.
"""
