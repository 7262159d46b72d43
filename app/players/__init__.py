"""The players' own screens (issue 48): a page per side, served by the desk on the club's
network when the umpire turns it on. Pure Python, no Qt: the side tokens (``tokens``), what a
side may see (``side_view``), the cards as HTML (``card_html``), what the pages sent and the
umpire's answer (``pending``), and the web server (``server``, an ASGI app served by uvicorn in
a thread). The desk's bridge (``app.ui.players.bridge``) builds the views on the GUI thread and
hands the server immutable snapshots; the server hands what a page sends back to the GUI
thread through a callback the bridge makes a queued Qt signal. A page never changes the game:
what it sends is a pending entry the umpire accepts with one key."""
