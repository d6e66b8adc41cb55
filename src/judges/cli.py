"""The `judges` command: simulate games, draw the board, run scenario files, verify a game's dice."""

from __future__ import annotations

import errno
import json
import socket
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .engine.rules import DEFAULT_RULES
from .engine.state import ENDINGS
from .extras import MissingExtra, require

if TYPE_CHECKING:
    from .play import GameRecord

app = typer.Typer(help="Judges & Kings: the rules engine's command line.", no_args_is_help=True, add_completion=False)
scenario_app = typer.Typer(help="Scenario files: set up a position, script dice, play actions.", no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")
err = Console(stderr=True)


def summarize(records: list[GameRecord]) -> dict[str, Any]:
    rounds = [r.rounds for r in records]
    endings = Counter(r.ending for r in records)
    wins = Counter(seat for r in records for seat in r.winners)
    return {
        "games": len(records),
        "endings": {e: endings.get(e, 0) for e in ENDINGS},
        "wins_by_seat": {str(seat): wins[seat] for seat in sorted(wins)},
        "rounds": {"median": statistics.median(rounds), "min": min(rounds), "max": max(rounds)},
        "judgments": {
            "total": sum(r.judgments for r in records),
            "per_game": round(sum(r.judgments for r in records) / len(records), 3),
        },
        "razed": {
            "by_invaders": sum(r.razed_by_invaders for r in records),
            "by_plunder": sum(r.razed_by_plunder for r in records),
        },
        "actions": sum(r.actions for r in records),
    }


@app.command()
def simulate(
    players: int = typer.Option(
        4, min=DEFAULT_RULES.min_players, max=DEFAULT_RULES.max_players, help="Players per game."
    ),
    games: int = typer.Option(20, min=1, help="How many games to play."),
    bot: str = typer.Option("random", help="Bot for every seat, or a comma-separated list by seat."),
    seed: int = typer.Option(1, help="Seed of the first game; game i uses seed + i."),
    wave_pairs: int = typer.Option(
        DEFAULT_RULES.default_wave_pairs,
        min=1,
        max=DEFAULT_RULES.max_wave_pairs,
        help="Invader pairs per wave (2 = hard).",
    ),
    round_limit: int = typer.Option(
        DEFAULT_RULES.simulation_round_limit, min=1, help="Round cap: a longer game ends with no winner."
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON record per game, then the summary."),
    game: str = typer.Option("judges", help="The game: judges (Judges & Kings) or rome (Republic of Rome)."),
) -> None:
    """Play whole games headless between bots and print how they ended."""
    from .bots import BOTS, parse_bot_spec
    from .play import simulate_one

    if game == "rome":
        simulate_rome(players, games, bot, seed, as_json)
        return
    if game != "judges":
        raise typer.BadParameter("the games are judges and rome", param_hint="--game")

    names = [b.strip() for b in bot.split(",") if b.strip()]
    if not names:
        raise typer.BadParameter(f"name a bot; bots: {', '.join(sorted(BOTS))}", param_hint="--bot")
    for name in names:
        try:
            parse_bot_spec(name)  # "greedy", "mcts:32", ...
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--bot") from None
    records = []
    with Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True
    ) as progress:
        task = progress.add_task("games", total=games)
        for i in range(games):
            record = simulate_one(seed + i, players, names, wave_pairs, round_limit)
            records.append(record)
            if as_json:
                sys.stdout.write(json.dumps(record.to_dict(), sort_keys=True) + "\n")
            progress.advance(task)
    summary = summarize(records)
    if as_json:
        sys.stdout.write(json.dumps({"summary": summary}, sort_keys=True) + "\n")
        return
    out = Console()
    out.print(f"{summary['games']} games, {players} players, bots: {','.join(names)}, first seed {seed}")
    out.print("endings: " + ", ".join(f"{k} {v}" for k, v in summary["endings"].items()))
    out.print("wins by seat: " + (", ".join(f"seat {k}: {v}" for k, v in summary["wins_by_seat"].items()) or "none"))
    r = summary["rounds"]
    out.print(f"rounds per game: median {r['median']}, min {r['min']}, max {r['max']}")
    out.print(f"Wrath judgments: {summary['judgments']['total']} ({summary['judgments']['per_game']} per game)")
    out.print(
        f"settlements razed: {summary['razed']['by_invaders']} by invaders, {summary['razed']['by_plunder']} by plunder"
    )


def simulate_rome(players: int, games: int, bot: str, seed: int, as_json: bool) -> None:
    """`simulate --game rome`: Republic of Rome's games through the game protocol, on the lab's
    runner (one game inline at a time), with Rome's statistics (lab/rome_report.py)."""
    from .bots import parse_bot_spec
    from .games.registry import game_def
    from .lab.rome_report import summarize, summary_lines
    from .lab.runner import Task, play_task

    gd = game_def("rome")
    if not gd.min_players <= players <= gd.max_players:
        raise typer.BadParameter("Republic of Rome seats 3 to 6 factions", param_hint="--players")
    names = [b.strip() for b in bot.split(",") if b.strip()]
    if not names:
        raise typer.BadParameter(f"name a bot; bots: {', '.join(sorted(gd.bots))}", param_hint="--bot")
    for name in names:
        try:
            parse_bot_spec(name, gd.bots)
        except ValueError as exc:
            raise typer.BadParameter(f"Republic of Rome: {exc}", param_hint="--bot") from None
    seats = tuple(names[s % len(names)] for s in range(players))
    records = []
    with Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True
    ) as progress:
        task = progress.add_task("games", total=games)
        for i in range(games):
            record = play_task(Task("default", None, i, seed + i, seats, players, None, 0, game="rome"))
            records.append(record)
            if as_json:
                shown = {k: v for k, v in record.items() if k not in ("seconds", "options", "variant")}
                sys.stdout.write(json.dumps(shown, sort_keys=True) + "\n")
            progress.advance(task)
    summary = summarize(records)
    summary.pop("cpu_seconds")  # the same command prints the same bytes
    if as_json:
        sys.stdout.write(json.dumps({"summary": summary}, sort_keys=True) + "\n")
        return
    out = Console()
    out.print(
        f"{summary['games']} games of Republic of Rome, {players} factions, bots: {','.join(names)}, first seed {seed}"
    )
    out.print("endings: " + ", ".join(f"{k} {v}" for k, v in summary["endings"].items()))
    wins = [(s, x["wins"]) for s, x in enumerate(summary["wins_by_seat"]) if x["wins"]]
    out.print("wins by seat: " + (", ".join(f"seat {s}: {w}" for s, w in wins) or "none"))
    t = summary["turns"]
    out.print(f"turns per game: median {t['median']}, min {t['min']}, max {t['max']}")
    out.print(f"actions per game: {summary['actions_per_game']}")
    for line in summary_lines(summary):
        out.print(line, soft_wrap=True)


@app.command()
def board(
    svg: Path = typer.Option(..., "--svg", help="Where to write the SVG drawing of the board."),
    map_name: str = typer.Option("canaan", "--map", help="Map name."),
    lang: str = typer.Option("en", "--lang", help="Language of the names and the legend: en, es, pt_BR."),
) -> None:
    """Draw the board to an SVG file (the same drawing as the game screen's)."""
    from .i18n import normalize_language
    from .render.svg import render_board_svg
    from .world import load_world

    svg.write_text(render_board_svg(load_world(map_name), lang=normalize_language(lang)), encoding="utf-8")
    err.print(f"board written to {svg}")


SWITCH_INTERVAL = 0.001  # seconds a thread holds the interpreter's lock while another waits


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, help="Port to listen on."),
    database: str | None = typer.Option(
        None, "--database", envvar="JUDGES_DATABASE_URL", help="Database URL (default: SQLite file judges.db here)."
    ),
    allow_scenarios: bool = typer.Option(False, help="Let games start from a scenario position (tests, design)."),
    allow_seeds: bool = typer.Option(
        False,
        help="Let a game's creator choose its seed, which gives away every "
        "hand and die to whoever knows it (tests, design).",
    ),
) -> None:
    """Start the game server (SQLite by default) and print its URL."""
    import uvicorn

    from .server import logs
    from .server.app import create_app
    from .server.connections import ConnectionLimits, Gate
    from .server.memory import keep_collections_young
    from .settings import load as load_settings

    settings = load_settings()  # the environment, read once (judges/settings.py)
    # JUDGES_LOG_FORMAT=json: every logger's lines as JSON, uvicorn's included (server/logs.py)
    json_logs = logs.configure(settings) is not None
    url = database or settings.database_url
    # One process per SQLite file: a second one would keep its own copies of the games and
    # wait on the first's write lock (several processes: PostgreSQL, docs/deploy.md).
    held = _hold_sqlite(url)
    application = create_app(url, allow_scenarios=allow_scenarios, allow_seeds=allow_seeds, settings=settings)
    # The port is taken before anything is announced: a port in use is said so, plainly, and
    # the URL printed is one that answers (on one line, whatever the terminal's width).
    listener = _listen(host, port)
    typer.echo(f"Judges & Kings is served at http://{host}:{port}/")
    typer.echo(f"database: {url}")
    # Websocket compression (permessage-deflate) is off unless JUDGES_WS_DEFLATE=1: the live
    # updates are small deltas (under 1 KiB), and compressing each one for each socket cost
    # about a tenth of the server's CPU per action and ~100 KiB of zlib state per socket
    # (docs/decisions/0019-live-updates-as-deltas-and-the-fan-out-carries-the-action.md).
    deflate = settings.deflate
    # The bare server's own limits (docs/deploy.md, "In front of it"): its connections are
    # counted by server/connections.py (HTTP connections and websockets apart, per address, a
    # request read in time, idle connections closed first to make room), not by uvicorn's
    # limit_concurrency; a websocket frame holds at most 64 KiB (the protocol's are under
    # 1 KiB); a request's line and headers at most 32 KiB (431 past it, server/connections.py).
    http_protocol, ws_protocol = Gate(ConnectionLimits.from_settings(settings)).protocols()
    keep_collections_young()  # the collector's pauses were the latency's tail (server/memory.py)
    # The bots' and hints' searches run on threads of this process: at the interpreter's default
    # 5 ms switch interval the event loop waits up to that long for the lock each time it wakes,
    # several times a request, while a search computes. 1 ms hands it back sooner.
    sys.setswitchinterval(SWITCH_INTERVAL)
    # proxy_headers=False: uvicorn would believe X-Forwarded-For from any loopback peer; the
    # application believes it from JUDGES_TRUSTED_PROXIES only (server/limits.py).
    config = uvicorn.Config(
        application,
        host=host,
        port=port,
        log_level=settings.log_level.strip().lower() or "warning",  # JUDGES_LOG_LEVEL
        log_config=None if json_logs else uvicorn.config.LOGGING_CONFIG,
        ws_per_message_deflate=deflate,
        http=http_protocol,
        ws=ws_protocol,
        timeout_keep_alive=5,
        ws_max_size=64 * 1024,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        h11_max_incomplete_event_size=16 * 1024,
        proxy_headers=False,
    )
    uvicorn.Server(config).run(sockets=[listener])
    del held


DATABASE_OPTION = typer.Option(
    None, "--database", envvar="JUDGES_DATABASE_URL", help="Database URL (default: SQLite file judges.db here)."
)


@app.command()
def backup(
    path: Path = typer.Argument(..., help="The backup file to write (replaced if it exists)."),
    database: str | None = DATABASE_OPTION,
) -> None:
    """Back up the server's SQLite database while it serves (SQLite's online backup)."""
    from .server.backup import backup as make_backup

    written = _on_database(database, lambda url: make_backup(url, path), lambda url: f"back up {url}")
    typer.echo(f"backed up to {written}")


@app.command()
def restore(
    path: Path = typer.Argument(..., help="A backup written by `judges backup`."),
    database: str | None = DATABASE_OPTION,
) -> None:
    """Replace the SQLite database by a backup (stop the server first)."""
    from .server.backup import restore as put_back

    # the server's lock held meanwhile: refused while a server serves this file
    target = _on_database(database, lambda url: put_back(path, url), lambda url: f"restore {path}", hold=True)
    typer.echo(f"restored {target} from {path}")


def _on_database(
    database: str | None, step: Callable[[str], Path], refused: Callable[[str], str], hold: bool = False
) -> Path:
    """`step` on the database's URL (`--database`, else JUDGES_DATABASE_URL or the default); a
    step that cannot be done (BackupError) says "Judges & Kings cannot <refused(url)>: why" and
    exits with status 1. `hold`: the lock a server holds on its SQLite file is taken first (and
    the step refused while a server holds it)."""
    from .server.backup import BackupError
    from .settings import load as load_settings

    url = database or load_settings().database_url
    held = _hold_sqlite(url) if hold else None
    try:
        return step(url)
    except BackupError as exc:
        err.print(f"Judges & Kings cannot {refused(url)}: {exc}", soft_wrap=True)
        raise typer.Exit(1) from None
    finally:
        del held


admin_app = typer.Typer(
    help="Operators: the accounts that moderate the site (docs/operations.md).", no_args_is_help=True
)
app.add_typer(admin_app, name="admin")


def _role(name: str, database: str | None, reason: str, give: bool) -> None:
    from .server.community.moderation_store import OPERATOR, ModerationStore
    from .server.store import GameStore
    from .settings import load as load_settings

    with GameStore(database or load_settings().database_url) as store:
        store.migrate()
        moderation = ModerationStore(store)
        account = moderation.account_id(name)
        if account is None:
            err.print(f"Judges & Kings has no account named {name!r}", soft_wrap=True)
            raise typer.Exit(1)
        changed = (moderation.grant if give else moderation.revoke)(account, OPERATOR, None, reason)
    verb = "is an operator now" if give else "is no operator now"
    typer.echo(f"{name} {verb}" if changed else f"{name} {'was an operator already' if give else 'was no operator'}")


@admin_app.command("grant")
def admin_grant(
    name: str = typer.Argument(..., help="The account's name."),
    reason: str = typer.Option("granted on the command line", "--reason", help="Kept in the audit log."),
    database: str | None = DATABASE_OPTION,
) -> None:
    """Makes an account an operator (it sees the reports at /admin and acts on them)."""
    _role(name, database, reason, True)


@admin_app.command("revoke")
def admin_revoke(
    name: str = typer.Argument(..., help="The account's name."),
    reason: str = typer.Option("revoked on the command line", "--reason", help="Kept in the audit log."),
    database: str | None = DATABASE_OPTION,
) -> None:
    """Takes an account's operator role back."""
    _role(name, database, reason, False)


def _hold_sqlite(url: str) -> object | None:
    """For a SQLite file, an exclusive lock on `<file>.lock` held as long as the process lives
    (the system frees it when the process dies, even killed); a clear message and exit status 1
    when another process holds it. None for another database."""
    import fcntl

    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database).resolve()
    handle = open(path.with_name(path.name + ".lock"), "a+b")  # noqa: SIM115 - held for the process's life
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        err.print(
            f"Judges & Kings cannot serve {path}: another server process is serving it. One process per "
            "SQLite file; for several, use PostgreSQL (docs/deploy.md).",
            soft_wrap=True,
        )
        raise typer.Exit(1) from None
    return handle


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port, or a clear message and exit status 1 when it cannot be."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listener = socket.socket(family, kind, proto)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        listener.bind(address)
        listener.listen(2048)
    except OSError as exc:
        taken = exc.errno == errno.EADDRINUSE
        reason = f"port {port} is already in use (another server?); choose another with --port" if taken else str(exc)
        err.print(f"Judges & Kings cannot listen on {host}:{port}: {reason}", soft_wrap=True)
        raise typer.Exit(1) from None
    listener.set_inheritable(True)
    return listener


@scenario_app.command("run")
def scenario_run(
    file: Path = typer.Argument(..., exists=True, dir_okay=False, help="Scenario JSON file."),
    seat: int | None = typer.Option(
        None,
        "--seat",
        min=0,
        help="Print what this seat sees (its player view: other hands, the deck and the dice "
        "hidden) instead of the whole game.",
    ),
) -> None:
    """Set up the scenario's position, play its actions, print the result as JSON, with every
    player's score by source (a Republic of Rome scenario, "game": "rome": its report lines)."""
    from .engine.errors import JudgesError, SetupError
    from .engine.scenario import run_scenario

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        err.print(f"{file}: not valid JSON: {exc}")
        raise typer.Exit(2) from None
    try:
        if isinstance(data, dict) and data.get("game", "judges") == "rome":
            from .rome.scenario import run_scenario as run_rome_scenario

            result = run_rome_scenario(data, seat=seat)
        elif isinstance(data, dict) and data.get("game", "judges") != "judges":
            raise SetupError(f"game: {data['game']!r}; the games are judges and rome")
        else:
            result = run_scenario(data, seat=seat)
    except JudgesError as exc:
        err.print(f"{file}: {exc}")
        raise typer.Exit(2) from None
    sys.stdout.write(json.dumps(result, indent=2, sort_keys=True) + "\n")
    if result["error"] is not None:
        raise typer.Exit(1)


@app.command()
def verify(
    file: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="A finished game's export (GET /api/games/{id}/export)."
    ),
    expected: str | None = typer.Option(
        None, "--commitment", help="The commitment the game showed at its start (hex), to check too."
    ),
) -> None:
    """Check a finished game: its revealed seed hashes to the commitment, and replaying its
    actions with that seed reaches its stored result, so every die was the committed one."""
    from .verify import VerificationError, verify_export

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        err.print(f"{file}: not valid JSON: {exc}")
        raise typer.Exit(2) from None
    try:
        result = verify_export(data, expected)
    except VerificationError as exc:
        err.print(f"{file}: NOT VERIFIED: {exc}", soft_wrap=True)
        raise typer.Exit(1) from None
    Console().print(
        f"{file}: verified. Game {result.game_id or '(no id)'}: the {result.generator} seed matches the "
        f"commitment {result.commitment}, and its {result.actions} actions replay to the stored "
        f"result ({result.ending}, {'turn' if result.game == 'rome' else 'round'} {result.rounds}, "
        f"winners {result.winners or 'none'}).",
        soft_wrap=True,
    )


@app.command()
def lab(
    players: int = typer.Option(
        4, min=DEFAULT_RULES.min_players, max=DEFAULT_RULES.max_players, help="Players per game."
    ),
    games: int = typer.Option(100, min=1, help="Games per variant; game i uses seed + i."),
    bots: str | None = typer.Option(
        None,
        help="Bot specs by seat, comma-separated (e.g. greedy,mcts:64,random); "
        "game i rotates the list by i mod players. Default: greedy (Republic of Rome: random).",
    ),
    seed: int = typer.Option(1, help="Seed of the first game."),
    out: Path = typer.Option(
        Path("report"), help="Directory for records.jsonl, index.html, the plots, games.csv, summary.json."
    ),
    workers: int = typer.Option(0, min=0, help="Worker processes of the local pool (0: one per CPU)."),
    cluster: str | None = typer.Option(
        None,
        help="Play on a Dask cluster instead of the local pool: a scheduler address (tcp://HOST:8786) "
        "or local:N (N worker processes started here). Needs the 'cluster' extra.",
    ),
    records: Path | None = typer.Option(
        None, help="The JSONL file each finished game is appended to (default: OUT/records.jsonl)."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Continue an interrupted run: play only the games the records file lacks."
    ),
    overwrite: bool = typer.Option(False, "--overwrite", help="Start the records file again if it holds games."),
    report: bool = typer.Option(True, help="Write the report at the end (--no-report: only the records)."),
    sets: list[str] | None = typer.Option(
        None,
        "--set",
        help="NAME=VALUE (JSON) or NAME.key=VALUE: override "
        "a rule (wrath_threshold=10, costs.wall=8) in "
        "every game. Repeatable.",
    ),
    variants: list[str] | None = typer.Option(
        None, "--variant", help="NAME:RULE=VALUE,RULE=VALUE: a variant compared on the same seeds. Repeatable."
    ),
    baseline: bool = typer.Option(True, help="With --variant, also play the 'default' variant (only --set)."),
    round_limit: int = typer.Option(
        DEFAULT_RULES.simulation_round_limit, min=1, help="Round cap: a longer game has no winner."
    ),
    wave_pairs: int = typer.Option(
        DEFAULT_RULES.default_wave_pairs, min=1, max=DEFAULT_RULES.max_wave_pairs, help="Invader pairs per wave."
    ),
    game: str = typer.Option("judges", help="The game: judges (Judges & Kings) or rome (Republic of Rome)."),
) -> None:
    """Play many seeded games between bots in parallel (local processes or a Dask cluster),
    streaming one record per game to a JSONL file, and write an HTML report with plots."""
    import shlex

    from .games.registry import GAMES
    from .lab import LabConfig, OverrideError, RecordsError, parse_variant, run_lab

    if game not in GAMES:
        raise typer.BadParameter(f"the games are {', '.join(GAMES)}", param_hint="--game")
    gd = GAMES[game]
    if not gd.min_players <= players <= gd.max_players:
        raise typer.BadParameter(f"{gd.min_players} to {gd.max_players} players", param_hint="--players")
    if bots is None:
        bots = "greedy" if game == "judges" else "random"

    if resume and overwrite:
        err.print("judges lab: --resume and --overwrite exclude each other")
        raise typer.Exit(2)
    if cluster and workers:
        err.print("judges lab: --workers sizes the local pool; a --cluster has its own workers")
        raise typer.Exit(2)
    try:
        config = LabConfig(
            players=players,
            games=games,
            bots=[b.strip() for b in bots.split(",") if b.strip()],
            seed=seed,
            out=out,
            workers=workers,
            cluster=cluster,
            records=records if records is not None else out / "records.jsonl",
            resume=resume,
            overwrite=overwrite,
            round_limit=round_limit,
            wave_pairs=wave_pairs,
            sets=list(sets or []),
            variants=[parse_variant(v) for v in variants or []],
            baseline=baseline,
            game=game,
        )
        words = [
            "judges",
            "lab",
            "--players",
            players,
            "--games",
            games,
            "--bots",
            bots,
            "--seed",
            seed,
            "--out",
            out,
        ]
        words += ["--round-limit", round_limit] if game == "judges" else []
        words += ["--cluster", cluster] if cluster else ["--workers", workers]
        words += ["--game", game] if game != "judges" else []
        words += ["--records", records] if records is not None else []
        words += ["--wave-pairs", wave_pairs] if wave_pairs != DEFAULT_RULES.default_wave_pairs else []
        words += [w for text in sets or [] for w in ("--set", text)]
        words += [w for text in variants or [] for w in ("--variant", text)]
        config.command = shlex.join(str(w) for w in words + ([] if baseline else ["--no-baseline"]))
        config.seat_bots()
        total = games * len(config.all_variants())
    except OverrideError as exc:
        err.print(f"judges lab: {exc}", markup=False)
        raise typer.Exit(2) from None
    try:
        with Progress(
            TextColumn("lab"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        ) as progress:
            task = progress.add_task("games", total=total)
            summary = run_lab(config, on_record=lambda record: progress.advance(task), report=report)
    except (OverrideError, RecordsError) as exc:  # a refused --cluster or records file: nothing was played
        err.print(f"judges lab: {exc}", soft_wrap=True, markup=False)
        raise typer.Exit(2) from None
    except MissingExtra as exc:  # the report's plots, refused before any game
        err.print(f"judges lab: {exc} (or --no-report: only the records)", soft_wrap=True, markup=False)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        err.print(f"judges lab: interrupted; the finished games are in {config.records}: --resume continues the run")
        raise typer.Exit(130) from None
    out_console = Console()
    if summary is None:
        out_console.print(f"records written to {config.records}")
        return
    _print_lab_summary(out_console, summary)
    out_console.print(f"report written to {out / 'index.html'}")


@app.command("lab-report")
def lab_report(
    records: Path = typer.Argument(..., exists=True, dir_okay=False, help="A lab's records file (JSONL)."),
    out: Path = typer.Option(Path("report"), help="Directory for index.html, the plots, games.csv, summary.json."),
) -> None:
    """Write the report of a lab's records file (a finished, interrupted or running lab)."""
    import shlex

    from .lab.records import RecordsError
    from .lab.report import report_from_file

    command = shlex.join(["judges", "lab-report", str(records), "--out", str(out)])
    try:
        summary = report_from_file(records, out, command=command)
    except (RecordsError, MissingExtra) as exc:
        err.print(f"judges lab-report: {exc}", soft_wrap=True, markup=False)
        raise typer.Exit(2) from None
    out_console = Console()
    _print_lab_summary(out_console, summary)
    out_console.print(f"report written to {out / 'index.html'}")


def _print_lab_summary(out_console: Console, summary: dict[str, Any]) -> None:
    for name, s in summary["variants"].items():
        bots_line = ", ".join(
            f"{spec} {100 * x['rate']:.1f}% [{100 * x['low']:.1f}–{100 * x['high']:.1f}]"
            for spec, x in s["wins_by_bot"].items()
        )
        out_console.print(
            f"{name}: {s['games']} games; wins by bot: {bots_line}; "
            f"endings: " + ", ".join(f"{k} {v}" for k, v in s["endings"].items() if v)
        )


@app.command("lab-fairness")
def lab_fairness(
    players: str = typer.Option("3,4,5,6", help="Player counts, comma-separated."),
    games: int = typer.Option(1000, min=1, help="Games per player count; game i uses seed + i."),
    seed: int = typer.Option(777, help="Seed of the first game."),
    bot: str = typer.Option("greedy", help="The bot of every seat."),
    guest: str | None = typer.Option(
        None, help="One seat's bot instead (e.g. mcts:8), rotating over the seats from game to game."
    ),
    sets: list[str] | None = typer.Option(
        None, "--set", help="NAME=VALUE (JSON) or NAME.key=VALUE: override a rule in every game. Repeatable."
    ),
    workers: int = typer.Option(2, min=1, max=2, help="Worker processes (at most 2)."),
    round_limit: int | None = typer.Option(
        None, min=1, help="Round cap (default: the rules' simulation_round_limit, as simulate)."
    ),
    json_out: Path | None = typer.Option(None, "--json", help="Write the table as JSON to this file."),
    out: Path | None = typer.Option(
        None, help="Keep each player count's records in OUT/players-N/ with the lab's report and plots."
    ),
) -> None:
    """Wins by seat with the same bot in every seat, for several player counts: Wilson 95 %
    intervals, the spread between the best and the worst seat, the median game length."""
    from .bots import parse_bot_spec
    from .lab import OverrideError
    from .lab.fairness import FairnessConfig, format_table, run_fairness

    try:
        counts = [int(p) for p in players.split(",") if p.strip()]
    except ValueError:
        raise typer.BadParameter(f"{players!r}: player counts like 3,4,5,6", param_hint="--players") from None
    for count in counts:
        if not DEFAULT_RULES.min_players <= count <= DEFAULT_RULES.max_players:
            raise typer.BadParameter(
                f"{count}: {DEFAULT_RULES.min_players} to {DEFAULT_RULES.max_players} players", param_hint="--players"
            )
    for spec, hint in ((bot, "--bot"), (guest, "--guest")):
        if spec is not None:
            try:
                parse_bot_spec(spec)
            except ValueError as exc:
                raise typer.BadParameter(str(exc), param_hint=hint) from None
    config = FairnessConfig(
        players=counts,
        games=games,
        seed=seed,
        bot=bot,
        guest=guest,
        sets=list(sets or []),
        workers=workers,
        round_limit=round_limit,
        out=out,
    )
    try:
        with Progress(
            TextColumn("lab-fairness"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        ) as progress:
            task = progress.add_task("games", total=games * len(counts))
            table = run_fairness(config, on_record=lambda record: progress.advance(task))
    except OverrideError as exc:
        err.print(f"judges lab-fairness: {exc}", soft_wrap=True, markup=False)
        raise typer.Exit(2) from None
    except MissingExtra as exc:  # --out's report, refused before any game
        err.print(f"judges lab-fairness: {exc} (or no --out: only the table)", soft_wrap=True, markup=False)
        raise typer.Exit(2) from None
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(format_table(table) + "\n")


@app.command("lab-fairness-plot")
def lab_fairness_plot(
    tables: list[str] = typer.Argument(..., help="LABEL=FILE[,FILE...]: tables written by lab-fairness --json."),
    out: Path = typer.Option(..., help="The PNG to write."),
) -> None:
    """Draw wins by seat of lab-fairness tables side by side (e.g. before=old.json after=new.json)."""
    from .lab.fairness import write_plot

    rows: dict[str, list[dict[str, Any]]] = {}
    for text in tables:
        label, sep, files = text.partition("=")
        if not sep or not label or not files:
            raise typer.BadParameter(f"{text!r}: expected LABEL=FILE[,FILE...]", param_hint="TABLES")
        rows[label] = [row for f in files.split(",") for row in json.loads(Path(f).read_text(encoding="utf-8"))["rows"]]
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_plot(out, rows)
    except MissingExtra as exc:
        err.print(f"judges lab-fairness-plot: {exc}", soft_wrap=True, markup=False)
        raise typer.Exit(2) from None
    Console().print(f"plot written to {out}")


@app.command("train-value")
def train_value(
    games: int = typer.Option(300, min=1, help="Greedy games per player count; game i uses seed + i."),
    players: str = typer.Option("2,3,4", help="Player counts, comma-separated."),
    seed: int = typer.Option(10_000, help="Seed of the first game (the lab's evaluations use other seeds)."),
    l2: float = typer.Option(1.0, min=0.0, help="L2 penalty of the fit."),
    out: Path = typer.Option(
        Path("src/judges/data/value.json"), help="Where to write the weights (default: the packaged model)."
    ),
) -> None:
    """Fit the MCTS bot's value model on seeded greedy games and write its weights (bots/value.py)."""
    from .bots.value import train

    counts = tuple(int(n) for n in players.split(",") if n.strip())
    try:
        require("numpy", "lab", "judges train-value")  # the fit; checked before the games
    except MissingExtra as exc:
        err.print(str(exc), soft_wrap=True, markup=False)
        raise typer.Exit(2) from None
    model = train(games, counts, seed, l2)
    out.write_text(model.to_json() + "\n", encoding="utf-8")
    Console().print(f"value model ({model.trained_on}) written to {out}")


if __name__ == "__main__":  # pragma: no cover
    app()
