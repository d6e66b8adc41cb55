"""The web server of Judges & Kings: persistence (store.py) and the HTTP layer."""

from . import notices as notices  # the seat notices' declarations (judges.engine.messages)
