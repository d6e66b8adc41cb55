"""The table core: each table's one writer, its seats, views, live updates and the fan-out
between processes."""
