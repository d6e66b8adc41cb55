"""The web server of Judges & Kings: persistence (store.py) and the HTTP layer."""
