"""Small pieces every panel and window shares: the message bar, the odds chart, who rolls, the
wheel guard, accessible names, the log's reading progress and the PDF page of a report."""
