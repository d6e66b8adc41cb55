"""*Republic of Rome*'s server parts: its table kit (kit.py). Its view is the table core's
envelope around the plug-in's own (server/table/served_wire.py)."""
