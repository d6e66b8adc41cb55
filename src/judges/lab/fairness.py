"""Is the table fair? Wins by seat for several player counts, with equal bots in every seat.

    judges lab-fairness --players 3,4,5,6 --games 2000 --seed 777 --bot greedy \\
        [--guest mcts:8] [--set NAME=VALUE ...] [--workers 2] [--json FILE] [--out DIR]

For each player count, game i is seeded `seed + i` and every seat holds `--bot` (its seed
`bot_seed(seed + i, seat)`, as in `judges simulate` and `judges lab`), so `--bot greedy --seed 777
--games 1000` plays exactly the games of `judges simulate --players N --games 1000 --bot greedy
--seed 777`. With `--guest SPEC`, one seat of each game holds the guest instead: the lab's
rotation of the list `guest, bot, bot, …` (game i rotates it by i mod N), so over N consecutive
games the guest sits once in every seat.

The table: each seat's wins with its 95 % Wilson interval (a shared victory counts for each
winner), the spread (best seat's rate minus worst seat's, in percentage points), the mean seat
rate (the overall mean every seat is compared with), the seats whose interval leaves out that
mean, the pairs of seats whose intervals do not overlap (*apart*: one plainly ahead of the
other), the p-value of Pearson's chi-squared test that every seat wins equally often, and the
median number of rounds. With a guest, the guest's own wins by seat too.

Every game of every player count goes to one local pool of at most `workers` processes; the
records are sorted before counting, so the same seeds give the same table whatever order the
games end in. `--out DIR` keeps each player count's records (`DIR/players-N/records.jsonl`) and
draws the lab's report from them (its plots included: `judges lab-report` on the same file).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .backends import play
from .overrides import OverrideError
from .records import RecordsWriter, sort_records
from .report import _rate  # a win rate with its Wilson interval, as the lab's report gives it
from .runner import LabConfig, make_tasks

MAX_WORKERS = 2  # the machine the lab is tuned on is shared: never more than two processes


@dataclass
class FairnessConfig:
    players: list[int] = field(default_factory=lambda: [3, 4, 5, 6])
    games: int = 1000
    seed: int = 777
    bot: str = "greedy"
    guest: str | None = None  # one seat's bot, rotating over the seats
    sets: list[str] = field(default_factory=list)
    workers: int = MAX_WORKERS
    round_limit: int | None = None  # None: the rules' simulation round limit (as simulate)
    out: Path | None = None

    def lab_config(self, players: int) -> LabConfig:
        bots = [self.bot] * players
        if self.guest:
            bots[0] = self.guest
        config = LabConfig(players=players, games=self.games, bots=bots, seed=self.seed, sets=list(self.sets))
        if self.round_limit is not None:
            config.round_limit = self.round_limit
        else:
            config.round_limit = config.all_variants()[0].rules.simulation_round_limit
        return config


def seat_table(records: list[dict[str, Any]], guest: str | None = None) -> dict[str, Any]:
    """The fairness row of one player count's records (all of one variant)."""
    records = sort_records(records)
    n = len(records)
    players = len(records[0]["bots"])
    seats = [_rate(sum(1 for r in records if seat in r["winners"]), n) for seat in range(players)]
    rates = [s["wins"] / n for s in seats]
    mean = sum(rates) / players
    rounds = [r["rounds"] for r in records]
    wins = [s["wins"] for s in seats]
    row: dict[str, Any] = {
        "players": players,
        "games": n,
        "seats": seats,
        "spread_pp": round(100 * (max(rates) - min(rates)), 1),
        "mean_rate": round(mean, 4),
        "outside": [seat for seat, s in enumerate(seats) if not s["low"] <= round(mean, 4) <= s["high"]],
        # pairs of seats whose intervals do not overlap: one seat plainly ahead of another
        "apart": [
            [a, b]
            for a in range(players)
            for b in range(a + 1, players)
            if seats[a]["low"] > seats[b]["high"] or seats[b]["low"] > seats[a]["high"]
        ],
        "chi2_p": round(_chi2_equal(wins), 4) if sum(wins) else None,
        "no_winner": sum(1 for r in records if not r["winners"]),
        "rounds": {"median": statistics.median(rounds), "mean": round(sum(rounds) / n, 2)},
        "seeds": [records[0]["seed"], records[-1]["seed"]],
    }
    if guest:
        row["guest"] = guest
        row["guest_by_seat"] = [
            _rate(
                sum(1 for r in records if r["bots"][seat] == guest and seat in r["winners"]),
                sum(1 for r in records if r["bots"][seat] == guest),
            )
            for seat in range(players)
        ]
        row["guest_overall"] = _rate(sum(1 for r in records for seat in r["winners"] if r["bots"][seat] == guest), n)
    return row


def _chi2_equal(wins: list[int]) -> float:
    """The p-value of Pearson's chi-squared test that every seat wins equally often (the wins
    counted per seat, a shared victory for each winner): the chance of seats this uneven or
    more among equal seats."""
    k = len(wins)
    expected = sum(wins) / k
    x = sum((w - expected) ** 2 for w in wins) / expected
    return _chi2_sf(x, k - 1)


def _chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-squared variable of `df` degrees of freedom (closed forms)."""
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for j in range(1, df // 2):
            term *= half / j
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * math.exp(-half) / math.gamma(1.5)
    for j in range(df // 2):
        total += term
        term *= half / (j + 1.5)
    return min(1.0, total)


def run_fairness(config: FairnessConfig, on_record: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Plays every player count's games on one pool and returns the table (JSON-ready).
    `on_record` sees each record as its game ends (a progress bar)."""
    if not config.players:
        raise OverrideError("--players: name at least one player count")
    if not 1 <= config.workers <= MAX_WORKERS:
        raise OverrideError(f"--workers: 1 to {MAX_WORKERS} processes, not {config.workers}")
    if config.out is not None:
        from .report import require_plots

        require_plots()  # --out draws the lab's report: refused before the games if it cannot
    labs = {p: config.lab_config(p) for p in config.players}
    tasks = [t for p in config.players for t in make_tasks(labs[p])]
    by_players: dict[int, list[dict[str, Any]]] = {p: [] for p in config.players}
    for record in play(tasks, workers=config.workers):
        by_players[len(record["bots"])].append(record)
        if on_record:
            on_record(record)
    rows = [seat_table(by_players[p], config.guest) for p in config.players]
    if config.out is not None:
        from .report import write_report

        for p in config.players:
            folder = Path(config.out) / f"players-{p}"
            path = folder / "records.jsonl"
            if path.exists():
                path.unlink()
            with RecordsWriter(path) as writer:
                for record in sort_records(by_players[p]):
                    writer.write(record)
            write_report(by_players[p], folder, command=f"judges lab-fairness (players {p})", records_path=path)
    return {
        "bot": config.bot,
        "guest": config.guest,
        "games": config.games,
        "seed": config.seed,
        "set": list(config.sets),
        "round_limit": labs[config.players[0]].round_limit,
        "rows": rows,
    }


def format_table(table: dict[str, Any]) -> str:
    """The table as Markdown: one row per player count, a column per seat."""
    width = max(row["players"] for row in table["rows"])
    head = ["players", *(f"seat {s}" for s in range(width)), "spread", "mean", "outside", "apart", "χ² p"]
    head.append("median rounds")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in table["rows"]:
        cells = [str(row["players"])]
        for s in range(width):
            if s < row["players"]:
                x = row["seats"][s]
                cells.append(f"{100 * x['rate']:.1f} % [{100 * x['low']:.1f}–{100 * x['high']:.1f}]")
            else:
                cells.append("")
        cells += [
            f"{row['spread_pp']:.1f} pp",
            f"{100 * row['mean_rate']:.1f} %",
            ", ".join(map(str, row["outside"])) or "none",
            ", ".join(f"{a}–{b}" for a, b in row.get("apart", [])) or "none",
            "" if row.get("chi2_p") is None else f"{row['chi2_p']:.3f}",
            f"{row['rounds']['median']}",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    if table.get("guest"):
        lines += ["", f"{table['guest']} (one seat, rotating) wins by seat:", ""]
        lines += ["| players | " + " | ".join(f"seat {s}" for s in range(width)) + " | overall |"]
        lines.append("|" + "---|" * (width + 2))
        for row in table["rows"]:
            cells = [str(row["players"])]
            for s in range(width):
                if s < row["players"]:
                    x = row["guest_by_seat"][s]
                    cells.append(f"{x['wins']}/{x['games']}")
                else:
                    cells.append("")
            g = row["guest_overall"]
            cells.append(f"{100 * g['rate']:.1f} % [{100 * g['low']:.1f}–{100 * g['high']:.1f}]")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_plot(path: Path, tables: dict[str, list[dict[str, Any]]]) -> None:
    """One panel per player count: each labelled table's win rate by seat with its Wilson
    interval (the lab report's bar drawing), the mean seat rate as a line. `tables` maps a
    label ("before", "after") to the rows of one or more tables (`run_fairness(...)["rows"]`)."""
    from .report import _grouped, _plt

    plt = _plt()
    counts = sorted({row["players"] for rows in tables.values() for row in rows})
    fig, axes = plt.subplots(1, len(counts), figsize=(3.6 * len(counts), 3.6), squeeze=False)
    for ax, players in zip(axes[0], counts, strict=True):
        series, errors = {}, {}
        for label, rows in tables.items():
            row = next((r for r in rows if r["players"] == players), None)
            if row is None:
                continue
            name = f"{label} ({row['spread_pp']:.1f} pp)"
            series[name] = [s["rate"] for s in row["seats"]]
            errors[name] = ([s["rate"] - s["low"] for s in row["seats"]], [s["high"] - s["rate"] for s in row["seats"]])
        _grouped(ax, [str(s) for s in range(players)], series, errors, "win rate" if players == counts[0] else "")
        ax.axhline(1 / players, color="grey", linewidth=0.8, linestyle="--")
        ax.set_ylim(0, 0.6)
        ax.set_xlabel("seat")
        ax.set_title(f"{players} players")
    fig.suptitle("Wins by seat, every seat the same bot (95% Wilson intervals; dashed: 1/N)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
