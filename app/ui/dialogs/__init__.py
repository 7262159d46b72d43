"""Windows the desk's menus open: New game, Open from server, Rules readings, the User guide and
the Ruling of a logged action."""
