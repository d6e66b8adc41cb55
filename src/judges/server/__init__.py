"""The web server: the table core (table/), the community (community/), the advice (advice/), the
routes, the store, and what the whole process shares."""

from .community import notices as notices  # the seat notices' declarations (judges.engine.messages)
