"""Phase 6, Combat (VG 1.10; R206-R232; ror-data §9): each force on a war fights in the order it
was sent: at sea first when the war has a fleet, then on land when the fleets still meet its
fleet support; disasters and standoffs on the unmodified 3d6; losses, veterans, the commander's
fate, victory's spoils, influence and provinces; then unprosecuted wars and Rome's fall under
four wars.

A civil war (VG 1.11.36-1.11.373; R247-R255) is fought by the forces the Senate sent against
the rebel, in the same order; a rebel nobody attacks wins.

The Dictator's Master of Horse rides with him (R113, R230); Ally Deserts and Enemy's Ally Deserts
change a war's strength by the dice. Not played yet: Refuge."""

from __future__ import annotations

from .board import active_wars, holder
from .context import Ctx
from .effects import come_home, kill_senator, send_master_home
from .events import deserters, omens
from .legions import lose, make_veteran, move
from .mortality import draw_chits
from .state import CIVIL_WAR, Force, ProvinceInPlay, Senator, WarInPlay
from .victory import rebel_wins, rome_falls

#: Units back to the active-forces box, the commander back to Rome.
return_force = come_home


def war_on_board(ctx: Ctx, war: str) -> WarInPlay | None:
    return next((w for w in ctx.state.wars if w.id == war), None)


def strength(ctx: Ctx, war: WarInPlay) -> tuple[int, int]:
    """Land and naval strength (R198, R201, R204; VG 1.07.332, 1.07.342): the printed numbers
    times the active wars of the series, then each leader of the series added."""
    deck = ctx.deck
    card = deck.wars[war.id]
    series = [w for w in ctx.state.wars if deck.wars[w.id].series == card.series]
    multiplier = max(1, sum(1 for w in series if w.state in ("active", "unprosecuted")))
    if war.state not in ("active", "unprosecuted"):
        multiplier = 1
    leaders = sum(deck.leaders[x].strength for w in series for x in w.leaders)
    naval = 0 if war.naval_won or card.naval == 0 else card.naval * multiplier + leaders
    return card.land * multiplier + leaders, naval


def army(force: Force, naval: bool) -> int:
    """R212, E6: fleets at sea; legions on land, a veteran counting 2."""
    return force.fleets if naval else force.legions + force.veterans


def commander_bonus(senator: Senator | None, units: int, master: Senator | None = None) -> int:
    """R213: his military rating (a Dictator's with his Master of Horse's, R113), no more than
    his army's strength."""
    rating = (senator.military if senator is not None else 0) + (master.military if master is not None else 0)
    return min(rating, units)


def master_with(ctx: Ctx, force: Force) -> Senator | None:
    """R113 (VG 1.09.34): the Master of Horse who rides with the Dictator's force."""
    commander = ctx.state.senators.get(force.commander)
    if commander is None or commander.office != "dictator":
        return None
    master = holder(ctx.state, "master_of_horse")
    return master if master is not None and master.location == "field" else None


def is_revolt(ctx: Ctx, war: str) -> bool:
    """R200, VG 1.07.333: a revolt pays no spoils: a war whose named province exists, or an
    earlier war of a series whose last war was beaten."""
    card = ctx.deck.wars[war]
    if any(w.id == war and w.revolt for w in ctx.state.wars):
        return True
    return bool(card.revolt_if_province) and any(p.id == card.revolt_if_province for p in ctx.state.provinces)


def combat(ctx: Ctx) -> bool:
    """R206: forces fight in the order they were sent (proconsuls from earlier turns included)."""
    state = ctx.state
    state.scratch["spent"] = {}
    for force in list(state.forces):
        if state.result is not None:
            return True
        if force.war == CIVIL_WAR:
            rebels = state.rebellion
            if rebels is not None and not rebels.won and force in state.forces and force.commander and force.legions:
                civil_battle(ctx, force)
            continue
        war = war_on_board(ctx, force.war)
        if war is None or force not in state.forces or not force.commander:
            continue
        if war.state in ("inactive", "imminent"):
            war.state = "active"  # R159
        fight(ctx, force, war)
    return True


def fight(ctx: Ctx, force: Force, war: WarInPlay) -> None:
    card = ctx.deck.wars[war.id]
    force.fought = True
    if card.naval and not war.naval_won:
        if force.fleets == 0 or battle(ctx, force, war, naval=True) != "victory":
            return
        if force not in ctx.state.forces or not force.commander:
            return
        if force.legions == 0:  # R163, VG 1.10.12: sent to fight at sea only, he comes home
            ctx.state.forces.remove(force)
            ctx.report("rome.combat.home_from_sea", senator=force.commander, war=war.id)
            return_force(ctx, force)
            return
    if force.legions > 0 and force.fleets >= card.fleet_support:
        battle(ctx, force, war, naval=False)


def battle(ctx: Ctx, force: Force, war: WarInPlay, naval: bool) -> str:
    """One battle: R209-R227, VG 1.10.1-1.10.8. Returns "victory", "stalemate", "defeat",
    "disaster" or "standoff"."""
    state, deck = ctx.state, ctx.deck
    card = deck.wars[war.id]
    commander = state.senators.get(force.commander)
    master = master_with(ctx, force)
    land, sea = strength(ctx, war)
    enemy = sea if naval else land
    units = army(force, naval)
    dice = ctx.roll(3)
    natural = sum(dice)
    change = deserters(ctx, dice)
    if change:
        enemy = max(0, enemy + change)
        ctx.report("rome.combat.deserters", war=war.id, int=change)
    total = natural + units + commander_bonus(commander, units, master) - enemy - omens(ctx)
    spent: list[int] = state.scratch["spent"].setdefault(war.id, [])
    ignores = (
        commander is not None
        and commander.statesman
        and deck.statesmen[commander.statesman].ability == "ignores_war_numbers"
        and card.series in deck.statesmen[commander.statesman].ability_series
    )
    leaders = [deck.leaders[x] for w in state.wars if deck.wars[w.id].series == card.series for x in w.leaders]
    disasters = set(() if ignores else card.disaster) | {n for x in leaders for n in x.disaster}
    standoffs = set(() if ignores else card.standoff) | {n for x in leaders for n in x.standoff}
    supported = naval or card.fleet_support > 0
    if natural in disasters and natural not in spent:
        spent.append(natural)
        result = "disaster"
        lost_l, lost_f = -(-force.legions // 2), -(-force.fleets // 2) if supported else 0
        state.unrest += ctx.rules.disaster_unrest
    elif natural in standoffs and natural not in spent:
        spent.append(natural)
        result = "standoff"
        lost_l, lost_f = -(-force.legions // 4), -(-force.fleets // 4) if supported else 0
    else:
        row = deck.combat_result(total)
        result = row.result
        n = max(force.legions, force.fleets) if row.losses < 0 else row.losses
        lost_l, lost_f = min(n, force.legions), (min(n, force.fleets) if supported else 0)
    if commander is not None and commander.statesman and deck.statesmen[commander.statesman].ability == "halves_losses":
        lost_l, lost_f = -(-lost_l // 2), -(-lost_f // 2)  # Fabius: halved, rounded up; never as Master (R114)
    lose_units(ctx, force, lost_l, lost_f)
    ctx.report("rome.combat.battle", war=war.id, senator=force.commander, int=natural, total=total, result=result)
    if commander is not None:
        commander.popularity = max(-9, commander.popularity - lost_l // 2)  # VG 1.10.61
    if result == "defeat":
        state.unrest += ctx.rules.defeat_unrest
        if master is not None:
            kill_senator(ctx, master.id, "battle")  # R113: he dies with the Dictator
        if commander is not None:
            kill_senator(ctx, commander.id, "battle")
        force.commander = ""
        return result
    if result != "victory" and not naval and force.legions:
        make_veteran(force, force.commander)  # VG 1.10.5
    fate(ctx, force, war.id, lost_l + lost_f, result, master)
    if result == "victory":
        win(ctx, force, war, naval)
    elif force.commander:
        proconsul(ctx, force)
    return result


def lose_units(ctx: Ctx, force: Force, legions: int, fleets: int) -> None:
    """VG 1.10.6: lost legions are drawn at random among regular and veteran ones."""
    lose(ctx, force, legions)
    force.fleets -= min(fleets, force.fleets)


def fate(ctx: Ctx, force: Force, war: str, lost: int, result: str, master: Senator | None = None) -> None:
    """R227, R228, R230, VG 1.10.7: a chit per unit lost; the commander's (or his Master of
    Horse's) kills him, or captures him when it is the last of two or more and the battle was not
    a victory. A Dictator lost sends his Master home, still in office."""
    if lost == 0 or not force.commander:
        return
    chits = draw_chits(ctx, lost)
    for who in [x for x in (master.id if master is not None else "", force.commander) if x in chits]:
        if chits[-1] == who and len(chits) >= 2 and result != "victory":
            captive = ctx.state.senators[who]
            captive.location, captive.captive_of = "captive", war
            ctx.report("rome.combat.captured", senator=who)
            if who == force.commander:
                send_master_home(ctx)
        else:
            kill_senator(ctx, who, "battle")
        if who == force.commander:
            force.commander = ""


def proconsul(ctx: Ctx, force: Force) -> None:
    """VG 1.10.8: he stays in command, loses his office and takes the prior-consul marker; a
    Dictator's Master of Horse goes home."""
    s = ctx.state.senators[force.commander]
    if s.office == "dictator":
        send_master_home(ctx)
    s.office = ""
    s.prior_consul = True


def win(ctx: Ctx, force: Force, war: WarInPlay, naval: bool) -> None:
    """R210, R222, R223, R224: unrest −1; the commander gains half the beaten strength (rounded
    up) in influence and popularity; at sea the war keeps a naval-victory marker; on land the war
    is gone: spoils to the State (none for a revolt), its provinces to the Forum, its leaders to
    the Curia (VG 1.07.344); one surviving legion becomes a veteran."""
    state, deck = ctx.state, ctx.deck
    card = deck.wars[war.id]
    state.unrest = max(0, state.unrest + ctx.rules.victory_unrest)
    gain = -(-(card.naval if naval else card.land) // 2)
    commander = state.senators.get(force.commander)  # R113: his Master of Horse gains nothing
    if commander is not None:
        commander.influence += gain
        commander.popularity = min(9, commander.popularity + gain)
    if naval:
        war.naval_won = True
        ctx.report("rome.combat.naval_victory", war=war.id)
        return
    if force.legions:
        make_veteran(force, force.commander)
    spoils = 0 if is_revolt(ctx, war.id) else card.spoils
    war_beaten(ctx, war, spoils)
    ctx.report("rome.combat.victory", war=war.id, talents=spoils)
    force.won = True
    war_gone(ctx, war.id, force)


def war_beaten(ctx: Ctx, war: WarInPlay, spoils: int) -> None:
    """A war beaten for good (R200, R222): it leaves the game, the earlier wars of its series
    become revolts when it was the last, its leaders go to the Curia, the State takes `spoils`,
    its provinces wait in the Forum for governors."""
    state, deck = ctx.state, ctx.deck
    card = deck.wars[war.id]
    state.wars.remove(war)
    if card.number == max(w.number for w in deck.wars.values() if w.series == card.series):
        for earlier in state.wars:
            if deck.wars[earlier.id].series == card.series:
                earlier.revolt = True
    state.removed.append(war.id)
    state.curia.extend(war.leaders)
    state.treasury += spoils
    for p in card.provinces:
        whole = [w.id for w in deck.wars.values() if w.series == card.series]
        if card.provinces_need_whole_series and not all(w in state.removed for w in whole):
            continue
        if not any(x.id == p for x in state.provinces):
            state.provinces.append(ProvinceInPlay(id=p))


def war_gone(ctx: Ctx, war: str, victor: Force | None = None, captives: str = "execution") -> None:
    """A war off the board: the other forces on it come home (VG 1.10.4); its captives die with
    it (R229), or come home when it sued for peace."""
    state = ctx.state
    for other in [f for f in state.forces if f.war == war and f is not victor]:
        state.forces.remove(other)
        return_force(ctx, other)
    for s in list(state.senators.values()):
        if s.location == "captive" and s.captive_of == war:
            if captives == "execution":
                kill_senator(ctx, s.id, "execution")
            else:
                s.location, s.captive_of = "rome", ""


def sue_for_peace(ctx: Ctx, war: WarInPlay, intensified: bool) -> None:
    """The enemy sues for peace (New Alliance, Enemy Leader Dies intensified; ror-data §5.2):
    half its spoils (rounded down) to the State and the card shuffled into the top six cards of
    the deck, its leaders to the Curia; intensified, all its spoils and the war is beaten for good
    (its provinces created). Forces on it come home; [D] its captives come home too, unless it is
    beaten for good."""
    state = ctx.state
    card = ctx.deck.wars[war.id]
    if intensified:
        war_beaten(ctx, war, card.spoils)
        ctx.report("rome.war.peace", war=war.id, talents=card.spoils)
        war_gone(ctx, war.id)
        return
    state.wars.remove(war)
    state.curia.extend(war.leaders)
    state.treasury += card.spoils // 2
    state.deck.insert(max(0, len(state.deck) - ctx.dice.roll(6) + 1), war.id)
    ctx.report("rome.war.peace", war=war.id, talents=card.spoils // 2)
    war_gone(ctx, war.id, captives="freed")


def rebel_army_strength(ctx: Ctx) -> int:
    """The rebel army's strength in battle (VG 1.11.37)."""
    rebels = ctx.state.rebellion
    assert rebels is not None
    senators = ctx.state.senators
    return rebel_strength(ctx, senators[rebels.rebel], rebels.legions, rebels.veterans, senators.get(rebels.master))


def rebel_strength(ctx: Ctx, rebel: Senator, legions: int, veterans: int, master: Senator | None = None) -> int:
    """VG 1.11.37 (R248): his legions (a veteran counting 2) plus his military rating (with an
    ex-Master of Horse's who joined him), no more than his army's strength."""
    units = legions + veterans
    rating = rebel.military + (master.military if master is not None else 0)
    return units + min(rating, units)


def civil_battle(ctx: Ctx, force: Force) -> str:
    """VG 1.11.37-1.11.373 (R248-R255): the Senate attacks the rebel army as a war whose strength
    is the rebel's; the table's losses strike both armies, but the rebel loses none in a defeat;
    chits for all units lost are checked against both commanders and the rebel's ex-Master of
    Horse. Victory: every rebel dies, the survivors go back to Rome, unrest −1, the commander
    gains half the rebel strength; a rebel left with no legion, or killed by a chit, also fails.
    Defeat: the commander dies, his survivors come home, the rebel has won. Otherwise the civil
    war goes on [D: a rebel army has no disaster or standoff numbers]."""
    state, deck = ctx.state, ctx.deck
    rebels = state.rebellion
    assert rebels is not None
    state.scratch["civil_fought"] = True
    force.fought = True
    for owner in [o for o in rebels.loyal if state.senators[o].location != "rebel"]:
        move(rebels, force, 0, [owner] * rebels.loyal[owner])  # R249 [D: their senator so orders]
    commander = state.senators.get(force.commander)
    master = master_with(ctx, force)
    rebel = rebels.rebel
    enemy = rebel_army_strength(ctx)
    units = army(force, False)
    natural = sum(ctx.roll(3))
    total = natural + units + commander_bonus(commander, units, master) - enemy - omens(ctx)
    row = deck.combat_result(total)
    n = max(force.legions, rebels.legions) if row.losses < 0 else row.losses
    lost_rome = min(n, force.legions)
    lost_rebel = 0 if row.result == "defeat" else min(n, rebels.legions)
    lose_units(ctx, force, lost_rome, 0)
    lose(ctx, rebels, lost_rebel)
    if row.result in ("stalemate", "defeat") and rebels.legions:
        make_veteran(rebels, rebel)  # VG 1.10.5
    ctx.report(
        "rome.combat.civil_war", senator=force.commander, rebel=rebel, int=natural, total=total, result=row.result
    )
    if commander is not None:
        commander.popularity = max(-9, commander.popularity - lost_rome // 2)  # VG 1.10.61
    if row.result == "defeat":
        for fallen in (master, commander):
            if fallen is not None:
                kill_senator(ctx, fallen.id, "battle")
        state.forces.remove(force)
        return_force(ctx, force)
    chits = draw_chits(ctx, lost_rome)  # VG 1.10.7: for the Senate's losses, striking either side
    for who in (master.id if master is not None else "", force.commander, rebels.master, rebel):
        if who and who in chits and who in state.senators and (who != rebel or state.rebellion is not None):
            kill_senator(ctx, who, "battle")
    if row.result == "defeat":
        if state.rebellion is not None:
            rebels.won = True
        return row.result
    if row.result == "victory" and force.commander:
        gain = -(-enemy // 2)
        hero = state.senators[force.commander]
        hero.influence += gain
        hero.popularity = min(9, hero.popularity + gain)
        state.unrest = max(0, state.unrest + ctx.rules.victory_unrest)
        force.won = True
    if row.result in ("stalemate", "victory") and force.legions:
        make_veteran(force, force.commander)  # VG 1.10.5
    if state.rebellion is not None and (row.result == "victory" or state.rebellion.legions == 0):
        kill_senator(ctx, rebel, "execution")
    elif state.rebellion is not None and force.commander:
        proconsul(ctx, force)
    return row.result


def end_of_combat(ctx: Ctx) -> bool:
    """R218, R231, R232, VG 1.10.9: an active war with a force that fought and kept its legions
    (and fleet support), or fleets against a war with a fleet, is prosecuted, every other active
    war unprosecuted; four or more active wars and Rome falls."""
    state, deck = ctx.state, ctx.deck
    for war in state.wars:
        if war.state not in ("active", "unprosecuted"):
            continue
        card = deck.wars[war.id]
        held = [
            f
            for f in state.forces
            if f.war == war.id
            and f.fought
            and (f.legions and f.fleets >= card.fleet_support or (card.naval > 0 and f.fleets))
        ]
        war.state = "active" if held else "unprosecuted"
    for f in state.forces:
        f.fought = False
    rebels = state.rebellion
    if rebels is not None and not rebels.won and not state.scratch.get("civil_fought"):
        rebels.won = True  # R247, VG 1.11.36: the Senate sent no army against him
        ctx.report("rome.revolution.unopposed", senator=rebels.rebel)
    if rebels is not None and rebels.won:
        rebel_wins(ctx)
    elif len(active_wars(state)) >= ctx.rules.wars_lose_game:
        rome_falls(ctx, "wars")
    return True
