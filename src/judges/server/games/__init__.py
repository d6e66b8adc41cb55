"""Each game's own server parts, one package per game beside the table core (server/table/):
its table kit (the options a new table is stored with, rebuilding a table, the action encoding,
the export, the view builder: server/table/envelope.py's `GameViews`). The table core reaches a
kit through `registry.KITS`, keyed by the game's name."""
