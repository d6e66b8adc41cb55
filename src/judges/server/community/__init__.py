"""The community around the tables: accounts, the lobby, chat, ratings, paces, notices and mail,
rematches, moderation."""
