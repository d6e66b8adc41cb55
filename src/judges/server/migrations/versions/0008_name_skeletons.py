"""Look-alike names: `accounts.name_skeleton`, what a name looks like (server/community/account_store.py,
`name_skeleton`: NFKC, case-folded, look-alike letters of other scripts mapped to the Latin
letter they pass for), unique, so that no new account takes the look-alike of another's name.
The accounts made before get their skeleton here; of several that already look alike, the
oldest keeps it and the others get none (they stay as they are; no new one may join them).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from judges.server.community.account_store import name_skeleton

    op.add_column("accounts", sa.Column("name_skeleton", sa.String(), nullable=True))
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("name_skeleton", sa.String()),
    )
    connection = op.get_bind()
    taken: set[str] = set()
    for row in connection.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)).all():
        skeleton = name_skeleton(row.name)
        if skeleton not in taken:
            taken.add(skeleton)
            connection.execute(accounts.update().where(accounts.c.id == row.id).values(name_skeleton=skeleton))
    with op.batch_alter_table("accounts") as batch:
        batch.create_unique_constraint("uq_accounts_name_skeleton", ["name_skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_name_skeleton", type_="unique")
        batch.drop_column("name_skeleton")
