"""The lab's report: summary statistics, matplotlib plots (Agg), index.html, games.csv, summary.json.

The report is built from a records file alone (`judges lab-report records.jsonl --out report/`,
or `judges lab` at the end of its run): what the run was — players, bots by seat, seeds, each
variant's rules — is read from the records, so a report can be drawn from a run that is still
going or was interrupted. `report/index.html` is self-contained apart from its images, which
are PNG files next to it. Win rates carry 95% Wilson score intervals. A shared victory counts
as a win for each winner.
"""

from __future__ import annotations

import csv
import json
import math
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
from jinja2 import Environment, FileSystemLoader

from ..engine.rules import DEFAULT_RULES
from ..engine.state import ENDINGS
from ..extras import require
from .records import ITEMS, RecordsError, read_records, sort_records

TEMPLATES = Path(__file__).resolve().parent / "templates"

PLOTS = {
    "wins_by_seat.png": "Win rate by seat (95% Wilson intervals)",
    "wins_by_bot.png": "Win rate by bot (95% Wilson intervals)",
    "endings.png": "How games ended",
    "game_length.png": "Game length (rounds)",
    "judgments.png": "Wrath judgments per game and the round of the first judgment",
    "points.png": "Where victory points came from (at the end of each game)",
    "razed.png": "Settlements razed per game, by invaders and by plunder",
    "spending.png": "Coins spent per game, by item",
}
SOURCES = ("judges", "king", "tabernacle")


def _item_order(item: str) -> tuple[Any, ...]:
    return (ITEMS.index(item) if item in ITEMS else len(ITEMS), item)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """(rate, low, high): the 95% Wilson score interval of wins/n."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p = wins / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, center - half), min(1.0, center + half)


def _rate(wins: int, n: int) -> dict[str, Any]:
    rate, low, high = wilson(wins, n)
    return {"wins": wins, "games": n, "rate": round(rate, 4), "low": round(low, 4), "high": round(high, 4)}


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def summarize_variant(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    players = len(records[0]["bots"]) if records else 0
    by_seat = [_rate(sum(1 for r in records if seat in r["winners"]), n) for seat in range(players)]
    bot_wins: Counter[Any] = Counter()
    bot_games: Counter[Any] = Counter()
    for r in records:
        for seat, spec in enumerate(r["bots"]):
            bot_games[spec] += 1
            bot_wins[spec] += seat in r["winners"]
    rounds = [r["rounds"] for r in records]
    firsts = [r["first_judgment_round"] for r in records if r["first_judgment_round"] is not None]
    winners = [(r, seat) for r in records for seat in r["winners"]]
    everyone = [(r, seat) for r in records for seat in range(players)]
    spent_items = sorted({item for r in records for item in r["spent"]}, key=_item_order)
    return {
        "games": n,
        "wins_by_seat": by_seat,
        "wins_by_bot": {spec: _rate(bot_wins[spec], bot_games[spec]) for spec in bot_games},
        "wins_by_bot_and_seat": {
            spec: [
                _rate(
                    sum(1 for r in records if r["bots"][seat] == spec and seat in r["winners"]),
                    sum(1 for r in records if r["bots"][seat] == spec),
                )
                for seat in range(players)
            ]
            for spec in bot_games
        },
        "no_winner": sum(1 for r in records if not r["winners"]),
        "endings": {e: sum(1 for r in records if r["ending"] == e) for e in ENDINGS},
        "rounds": {
            "mean": _mean(rounds),
            "median": statistics.median(rounds) if rounds else 0,
            "min": min(rounds, default=0),
            "max": max(rounds, default=0),
        },
        "judgments": {
            "total": sum(r["judgments"] for r in records),
            "per_game": _mean([r["judgments"] for r in records]),
            "games_with_judgment": len(firsts),
            "first_round_median": statistics.median(firsts) if firsts else None,
        },
        "points_of_winners": {s: _mean([r["points"][seat][s] for r, seat in winners]) for s in SOURCES},
        "points_of_all": {s: _mean([r["points"][seat][s] for r, seat in everyone]) for s in SOURCES},
        "razed_per_game": {
            "by_invaders": _mean([r["razed_by_invaders"] for r in records]),
            "by_plunder": _mean([r["razed_by_plunder"] for r in records]),
        },
        "spent_per_game": {item: _mean([r["spent"].get(item, 0) for r in records]) for item in spent_items},
        "cpu_seconds": round(sum(r["seconds"] for r in records), 2),
    }


# --- plots ------------------------------------------------------------------------------------


DRAWING = "drawing the lab's report (its plots)"  # a feature of the 'lab' extra (judges.extras)


def require_plots() -> None:
    """Refuses, naming the extra, when matplotlib is missing: a run checks it before its games."""
    require("matplotlib", "lab", DRAWING)


def _plt() -> Any:
    """matplotlib.pyplot on the Agg backend (imported late: only a report draws)."""
    matplotlib = require("matplotlib", "lab", DRAWING)
    matplotlib.use("Agg")
    return require("matplotlib.pyplot", "lab", DRAWING)


def _grouped(
    ax: Any,
    labels: list[str],
    series: dict[str, list[float]],
    errors: dict[str, tuple[Any, ...]] | None = None,
    ylabel: str = "",
    percent: bool = False,
) -> None:
    k = max(1, len(series))
    width = 0.8 / k
    for j, (name, values) in enumerate(series.items()):
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(labels))]
        kwargs = {}
        if errors and name in errors:
            kwargs = {"yerr": errors[name], "capsize": 3}
        ax.bar(xs, values, width, label=name, **kwargs)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=0 if len(labels) <= 6 else 30)
    ax.set_ylabel(ylabel)
    if percent:
        ax.set_ylim(0, 1)
    if k > 1:
        ax.legend(fontsize=8)


def _win_plot(plt: Any, path: Path, labels: list[str], rates: dict[str, list[dict[str, Any]]], title: str) -> None:
    fig, ax = plt.subplots(figsize=(7, 4))
    series = {v: [x["rate"] for x in xs] for v, xs in rates.items()}
    errors = {v: ([x["rate"] - x["low"] for x in xs], [x["high"] - x["rate"] for x in xs]) for v, xs in rates.items()}
    _grouped(ax, labels, series, errors, "win rate", percent=True)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def write_plots(out: Path, by_variant: dict[str, list[dict[str, Any]]], summaries: dict[str, dict[str, Any]]) -> None:
    plt = _plt()
    names = list(by_variant)
    players = max((len(rs[0]["bots"]) for rs in by_variant.values() if rs), default=0)
    _win_plot(
        plt,
        out / "wins_by_seat.png",
        [f"seat {s}" for s in range(players)],
        {v: summaries[v]["wins_by_seat"] for v in names},
        PLOTS["wins_by_seat.png"],
    )
    specs = sorted({spec for v in names for spec in summaries[v]["wins_by_bot"]})
    empty = {"rate": 0.0, "low": 0.0, "high": 0.0}
    _win_plot(
        plt,
        out / "wins_by_bot.png",
        specs,
        {v: [summaries[v]["wins_by_bot"].get(s, empty) for s in specs] for v in names},
        PLOTS["wins_by_bot.png"],
    )

    fig, ax = plt.subplots(figsize=(8, 4))
    _grouped(
        ax,
        [e.replace("_", " ") for e in ENDINGS],
        {v: [summaries[v]["endings"][e] for e in ENDINGS] for v in names},
        ylabel="games",
    )
    ax.set_title(PLOTS["endings.png"])
    fig.tight_layout()
    fig.savefig(out / "endings.png", dpi=90)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    top = max((r["rounds"] for rs in by_variant.values() for r in rs), default=1)
    bins = range(1, top + 2)
    for v in names:
        ax.hist([r["rounds"] for r in by_variant[v]], bins=bins, histtype="step", linewidth=1.8, label=v)
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    ax.set_title(PLOTS["game_length.png"])
    if len(names) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "game_length.png", dpi=90)
    plt.close(fig)

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
    top = max((r["judgments"] for rs in by_variant.values() for r in rs), default=0)
    for v in names:
        a1.hist(
            [r["judgments"] for r in by_variant[v]],
            bins=[x - 0.5 for x in range(top + 2)],
            histtype="step",
            linewidth=1.8,
            label=v,
        )
        firsts = [r["first_judgment_round"] for r in by_variant[v] if r["first_judgment_round"] is not None]
        if firsts:
            a2.hist(firsts, bins=range(1, max(firsts) + 2), histtype="step", linewidth=1.8, label=v)
    a1.set_xlabel("judgments in the game")
    a1.set_ylabel("games")
    a1.set_title("Wrath judgments per game")
    a2.set_xlabel("round")
    a2.set_ylabel("games")
    a2.set_title("Round of the first judgment")
    if len(names) > 1:
        a1.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "judgments.png", dpi=90)
    plt.close(fig)

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, key, title in (
        (a1, "points_of_winners", "winners (mean per winner)"),
        (a2, "points_of_all", "every player (mean per player)"),
    ):
        bottom = [0.0] * len(names)
        for source in SOURCES:
            values = [summaries[v][key][source] for v in names]
            ax.bar(range(len(names)), values, 0.6, bottom=bottom, label=source)
            bottom = [b + x for b, x in zip(bottom, values, strict=True)]
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names)
        ax.set_title(title)
    a1.set_ylabel("victory points at the end")
    a1.legend(fontsize=8)
    fig.suptitle(PLOTS["points.png"])
    fig.tight_layout()
    fig.savefig(out / "points.png", dpi=90)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4))
    _grouped(
        ax,
        ["by invaders", "by plunder"],
        {
            v: [summaries[v]["razed_per_game"]["by_invaders"], summaries[v]["razed_per_game"]["by_plunder"]]
            for v in names
        },
        ylabel="settlements razed per game (mean)",
    )
    ax.set_title(PLOTS["razed.png"])
    fig.tight_layout()
    fig.savefig(out / "razed.png", dpi=90)
    plt.close(fig)

    items = sorted({i for v in names for i in summaries[v]["spent_per_game"]}, key=_item_order)
    fig, ax = plt.subplots(figsize=(8, 4))
    _grouped(
        ax,
        items or ["(nothing)"],
        {v: [summaries[v]["spent_per_game"].get(i, 0) for i in items] or [0] for v in names},
        ylabel="coins per game (mean, all players)",
    )
    ax.set_title(PLOTS["spending.png"])
    fig.tight_layout()
    fig.savefig(out / "spending.png", dpi=90)
    plt.close(fig)


# --- files ------------------------------------------------------------------------------------


def write_csv(path: Path, records: list[dict[str, Any]]) -> None:
    players = max((len(r["bots"]) for r in records), default=0)
    items = sorted({i for r in records for i in r["spent"]}, key=_item_order)
    head = [
        "variant",
        "game",
        "seed",
        "bots",
        "ending",
        "winners",
        "rounds",
        "judgments",
        "judgment_rounds",
        "first_judgment_round",
        "razed_by_invaders",
        "razed_by_plunder",
        "battles",
        "actions",
        "regions_sustaining",
        "wrath",
        "seconds",
    ]
    seat_cols = [
        f"{what}_{seat}"
        for seat in range(players)
        for what in ("bot", "points", "judges", "king", "tabernacle", "settlements", "coins", "eliminated")
    ]
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(head + seat_cols + [f"spent_{i}" for i in items])
        for r in records:
            row = [
                r["variant"],
                r["game"],
                r["seed"],
                "|".join(r["bots"]),
                r["ending"],
                "|".join(map(str, r["winners"])),
                r["rounds"],
                r["judgments"],
                "|".join(map(str, r["judgment_rounds"])),
                "" if r["first_judgment_round"] is None else r["first_judgment_round"],
                r["razed_by_invaders"],
                r["razed_by_plunder"],
                r["battles"],
                r["actions"],
                r["regions_sustaining"],
                r["wrath"],
                r["seconds"],
            ]
            for seat in range(players):
                p = r["points"][seat]
                row += [
                    r["bots"][seat],
                    p["total"],
                    p["judges"],
                    p["king"],
                    p["tabernacle"],
                    r["settlements"][seat],
                    r["coins"][seat],
                    int(r["eliminated"][seat]),
                ]
            row += [r["spent"].get(i, 0) for i in items]
            w.writerow(row)


def _pct(x: dict[str, Any]) -> str:
    return f"{100 * x['rate']:.1f}% [{100 * x['low']:.1f}–{100 * x['high']:.1f}] ({x['wins']}/{x['games']})"


def write_html(path: Path, config_json: dict[str, Any], summaries: dict[str, dict[str, Any]]) -> None:
    """index.html from the template ``lab/templates/report.html``: the tables, the plots."""
    names = list(summaries)
    rows = []

    def table(title: str, header: list[str], body: list[list[Any]]) -> tuple[Any, ...]:
        return title, header, body

    players = len(summaries[names[0]]["wins_by_seat"]) if names else 0
    rows.append(
        table(
            "Win rate by seat (95% Wilson interval)",
            ["variant"] + [f"seat {s}" for s in range(players)],
            [[v] + [_pct(x) for x in summaries[v]["wins_by_seat"]] for v in names],
        )
    )
    specs = sorted({s for v in names for s in summaries[v]["wins_by_bot"]})
    rows.append(
        table(
            "Win rate by bot (95% Wilson interval; a bot counted once per seat it holds)",
            ["variant"] + specs,
            [
                [v] + [_pct(summaries[v]["wins_by_bot"][s]) if s in summaries[v]["wins_by_bot"] else "–" for s in specs]
                for v in names
            ],
        )
    )
    for v in names:
        rows.append(
            table(
                f"Win rate by bot and seat — {v}",
                ["bot"] + [f"seat {s}" for s in range(players)],
                [
                    [spec] + [_pct(x) if x["games"] else "–" for x in xs]
                    for spec, xs in sorted(summaries[v]["wins_by_bot_and_seat"].items())
                ],
            )
        )
    rows.append(
        table(
            "Endings",
            ["variant"]
            + list(ENDINGS)
            + ["rounds: median (min–max)", "judgments/game", "first judgment: median round", "CPU s"],
            [
                [v]
                + [summaries[v]["endings"][x] for x in ENDINGS]
                + [
                    f"{summaries[v]['rounds']['median']} ({summaries[v]['rounds']['min']}–"
                    f"{summaries[v]['rounds']['max']})",
                    summaries[v]["judgments"]["per_game"],
                    summaries[v]["judgments"]["first_round_median"],
                    summaries[v]["cpu_seconds"],
                ]
                for v in names
            ],
        )
    )
    records = config_json.get("records")
    # the records file is linked when it sits in the report's folder
    records_link = Path(records).name if records and Path(records).resolve().parent == path.resolve().parent else None
    page = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True).get_template("report.html")
    path.write_text(
        page.render(config=config_json, tables=rows, plots=PLOTS, records_link=records_link), encoding="utf-8"
    )


def _changed_rules(rules: dict[str, Any]) -> list[str]:
    """A variant's rules as NAME=VALUE overrides of the default rules (dicts entry by entry)."""
    default = json.loads(json.dumps(msgspec.to_builtins(DEFAULT_RULES)))
    out = []
    for name, value in rules.items():
        base = default.get(name)
        if isinstance(value, dict) and isinstance(base, dict) and set(value) == set(base):
            out += [f"{name}.{k}={json.dumps(v)}" for k, v in value.items() if v != base[k]]
        elif value != base:
            out.append(f"{name}={json.dumps(value)}")
    return out


def describe_run(records: list[dict[str, Any]]) -> dict[str, Any]:
    """What the records say of their run: the report's header and summary.json's config."""
    first = records[0]
    players = len(first["bots"])
    variants = list(dict.fromkeys(r["variant"] for r in records))  # records are sorted
    seeds = sorted({r["seed"] for r in records})
    options = first["options"]
    k = -first["game"] % players
    return {
        "players": players,
        "games": max(sum(1 for r in records if r["variant"] == v) for v in variants),
        "bots": first["bots"][k:] + first["bots"][:k],  # by seat in game 0; game i rotates it by i
        "seed": seeds[0],
        "last_seed": seeds[-1],
        "round_limit": options.get("round_limit"),
        "wave_pairs": options.get("wave_pairs"),
        "variants": [
            {"name": v, "set": _changed_rules(next(r for r in records if r["variant"] == v)["options"]["rules"])}
            for v in variants
        ],
    }


def report_from_file(path: Path, out: Path, command: str = "") -> dict[str, Any]:
    """The report of the records file at `path` (complete lines only), written into `out`."""
    records = read_records(Path(path))
    if not records:
        raise RecordsError(f"{path} holds no finished game yet")
    return write_report(records, out, command=command, records_path=Path(path))


def write_report(
    records: list[dict[str, Any]], out: Path, command: str = "", records_path: Path | None = None
) -> dict[str, Any]:
    if records and records[0].get("game_name", "judges") == "rome":
        from .rome_report import write_report as write_rome_report

        return write_rome_report(sort_records(records), out, command=command, records_path=records_path)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    records = sort_records(records)
    config_json = {"command": command, **describe_run(records)}
    if records_path is not None:
        config_json["records"] = str(records_path)
    by_variant = {v["name"]: [r for r in records if r["variant"] == v["name"]] for v in config_json["variants"]}
    summaries = {name: summarize_variant(rs) for name, rs in by_variant.items()}
    summary = {"config": config_json, "variants": summaries}
    write_plots(out, by_variant, summaries)
    write_csv(out / "games.csv", records)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True), encoding="utf-8")
    write_html(out / "index.html", config_json, summaries)
    return summary
