"""The server's routes, one module per topic, each an `APIRouter` whose handlers take what they
need through `Annotated[..., Depends(...)]` (server/deps.py): `pages` (home, a seat's page, an
invitation), `games` (create, view, act, claim, export), `seats` (the host's control, away and
back), `live` (a seat's websocket), `world` (maps, protocol, UI strings)."""
