"""The lab's statistics of Republic of Rome games (`judges lab --game rome`, `judges simulate
--game rome`): fairness by seat (Wilson 95 % intervals), how often and how Rome falls, turns per
game, and which offices and wars decide games — the offices the winners' factions held at the
end, and the wars still active when Rome fell to them."""

from __future__ import annotations

import csv
import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader

from ..games.rome_game import FALLS
from ..rome.engine.state import ENDINGS, OFFICES
from .report import TEMPLATES, _mean, _pct, _plt, _rate, _win_plot, describe_run

PLOTS = {
    "wins_by_seat.png": "Win rate by seat (95% Wilson intervals)",
    "endings.png": "How games ended",
    "game_length.png": "Game length (turns)",
}


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(records)
    players = len(records[0]["bots"]) if records else 0
    endings = Counter(r["ending"] for r in records)
    fell = [r for r in records if r["ending"] in FALLS]
    turns = [r["turns"] for r in records]
    bot_wins: Counter[str] = Counter()
    bot_games: Counter[str] = Counter()
    for r in records:
        for seat, spec in enumerate(r["bots"]):
            bot_games[spec] += 1
            bot_wins[spec] += seat in r["winners"]
    winner_offices = Counter(o for r in records for o in r["winner_offices"])
    wars_at_fall = Counter(w for r in records if r["ending"] == "wars" for w in r["wars"])
    return {
        "games": n,
        "endings": {e: endings.get(e, 0) for e in ENDINGS},
        "wins_by_seat": [_rate(sum(1 for r in records if seat in r["winners"]), n) for seat in range(players)],
        "wins_by_bot": {spec: _rate(bot_wins[spec], bot_games[spec]) for spec in bot_games},
        "rome_fell": {
            "games": len(fell),
            "rate": round(len(fell) / n, 4) if n else 0.0,
            "by": {e: endings.get(e, 0) for e in FALLS},
        },
        "turns": {
            "mean": _mean(turns),
            "median": statistics.median(turns) if turns else 0,
            "min": min(turns, default=0),
            "max": max(turns, default=0),
        },
        "actions_per_game": round(sum(r["actions"] for r in records) / n, 1) if n else 0.0,
        "winner_offices": {o: winner_offices[o] for o in OFFICES if winner_offices[o]},
        "wars_when_rome_fell_to_wars": dict(sorted(wars_at_fall.items(), key=lambda kv: (-kv[1], kv[0]))),
        "cpu_seconds": round(sum(r.get("seconds", 0.0) for r in records), 2),
    }


def _counts(d: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items()) or "none"


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The statistics beyond endings, wins and turns, one line each (simulate's text output)."""
    fell = summary["rome_fell"]
    return [
        f"Rome fell in {fell['games']} games ({100 * fell['rate']:.1f}%): {_counts(fell['by'])}",
        "win rate by seat: " + ", ".join(f"seat {s}: {_pct(x)}" for s, x in enumerate(summary["wins_by_seat"])),
        "offices the winners held: " + _counts(summary["winner_offices"]),
        "wars active when Rome fell to wars: " + _counts(summary["wars_when_rome_fell_to_wars"]),
    ]


def write_report(
    records: list[dict[str, Any]], out: Path, command: str = "", records_path: Path | None = None
) -> dict[str, Any]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    run = describe_run(records)
    config = {k: run[k] for k in ("players", "games", "bots", "seed", "last_seed")}
    config["command"] = command
    config["game"] = "rome"
    if records_path is not None:
        config["records"] = str(records_path)
    s = summarize(records)
    summary = {"config": config, "variants": {"default": s}}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True), encoding="utf-8")
    _write_csv(out / "games.csv", records)
    _write_plots(out, records, s)
    tables = [
        (
            "Win rate by seat (95% Wilson interval)",
            [f"seat {i}" for i in range(config["players"])],
            [[_pct(x) for x in s["wins_by_seat"]]],
        ),
        (
            "Win rate by bot (95% Wilson interval; a bot counted once per seat it holds)",
            list(s["wins_by_bot"]),
            [[_pct(x) for x in s["wins_by_bot"].values()]],
        ),
        ("Endings", list(ENDINGS), [[s["endings"][e] for e in ENDINGS]]),
        (
            "Rome fell",
            ["games", "rate", *FALLS],
            [[s["rome_fell"]["games"], f"{100 * s['rome_fell']['rate']:.1f}%", *s["rome_fell"]["by"].values()]],
        ),
        (
            "Turns per game",
            ["mean", "median", "min", "max", "actions per game", "CPU s"],
            [[*s["turns"].values(), s["actions_per_game"], s["cpu_seconds"]]],
        ),
        (
            "Offices the winners' factions held at the end",
            list(s["winner_offices"]) or ["none"],
            [list(s["winner_offices"].values())],
        ),
        (
            "Wars active when Rome fell to wars",
            list(s["wars_when_rome_fell_to_wars"]) or ["none"],
            [list(s["wars_when_rome_fell_to_wars"].values())],
        ),
    ]
    records_link = (
        Path(records_path).name if records_path and Path(records_path).resolve().parent == out.resolve() else None
    )
    page = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True).get_template("rome_report.html")
    (out / "index.html").write_text(
        page.render(config=config, tables=tables, plots=PLOTS, records_link=records_link), encoding="utf-8"
    )
    return summary


def _write_csv(path: Path, records: list[dict[str, Any]]) -> None:
    players = max((len(r["bots"]) for r in records), default=0)
    head = [
        "game",
        "seed",
        "bots",
        "ending",
        "winners",
        "turns",
        "actions",
        "winner_offices",
        "wars",
        "unrest",
        "treasury",
        "seconds",
    ]
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(head + [f"influence_{s}" for s in range(players)])
        for r in records:
            w.writerow(
                [
                    r["game"],
                    r["seed"],
                    "|".join(r["bots"]),
                    r["ending"],
                    "|".join(map(str, r["winners"])),
                    r["turns"],
                    r["actions"],
                    "|".join(r["winner_offices"]),
                    "|".join(r["wars"]),
                    r["unrest"],
                    r["treasury"],
                    r.get("seconds", 0.0),
                    *r["influence"],
                ]
            )


def _write_plots(out: Path, records: list[dict[str, Any]], s: dict[str, Any]) -> None:
    plt = _plt()
    players = len(s["wins_by_seat"])
    _win_plot(
        plt,
        out / "wins_by_seat.png",
        [f"seat {i}" for i in range(players)],
        {"default": s["wins_by_seat"]},
        PLOTS["wins_by_seat.png"],
    )
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar([e.replace("_", " ") for e in ENDINGS], [s["endings"][e] for e in ENDINGS])
    ax.set_title(PLOTS["endings.png"])
    ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    fig.savefig(out / "endings.png", dpi=90)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(7, 4))
    turns = [r["turns"] for r in records]
    ax.hist(turns, bins=range(min(turns), max(turns) + 2))
    ax.set_xlabel("turns")
    ax.set_title(PLOTS["game_length.png"])
    fig.tight_layout()
    fig.savefig(out / "game_length.png", dpi=90)
    plt.close(fig)
