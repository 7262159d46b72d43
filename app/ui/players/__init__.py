"""What the players see: the Player display (a second window) and the players' web pages (the
bridge to ``app.players``' server and the dialog that turns them on)."""
