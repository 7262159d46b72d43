"""After the fight (issue 35): the data read from the log, its plots, the panel's content, the
exports and the PDF report. The dock that holds the panel is ``app.ui.docks.after_action``."""
