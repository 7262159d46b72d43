"""The built-in rulesets, one package per source game; each imports app.core only."""
