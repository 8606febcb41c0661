"""A family of scripted NPCs that fight like their fiction.

Each is ``basic`` (agents/basic.py) with a few rules changed, and each rule
gives its reason for the narration. Parameters live in ``configs/policies.yaml``.

* ``brute``: goes for the closest foe and hits it; never concedes.
* ``spreader``: spreads its blows: hits the foe in reach with the most left to take (the
  opposite of the tactician's focus), so that no one foe bears the fight; concedes as ``basic``.
* ``sniper``: keeps its distance: steps out of a foe's zone, then shoots.
* ``tactician``: stacks free invokes with advantages on the most wounded foe,
  then attacks it and cashes them all; full defense when one hit from out.
* ``coward``: concedes as soon as the next likely hit could take it out, and
  keeps fate points back.
* ``minion``: nameless help (003:1994: "minor NPCs aren't meant to stick
  around"): concedes once marked, or once its mob has lost members.
* ``support``: helps the ally about to act with teamwork, or sets up an
  advantage for the allies; attacks only when nobody is left to help.
* ``stacker``: the rules' "stacking advantages" (000:562) on its own aspects: takes
  advantage of aspects it carries, which faces a passive difficulty unless the table
  rules that a foe opposes (003:834-838, the ``exploit_opposition`` dial), until it
  holds ``stack`` free invokes, then attacks and spends every one on the blow. The
  line a learned table finds against the shipped NPCs (docs/npcs.md, exploitability), as a script.
* ``counter``: ``spender`` that turtles when it is outmatched: holding no free invoke, and with
  every attack it could make rated below its target's defense, it goes on full defense. Under
  Fate Condensed that turn is never wasted: +2 on its defends until its next turn, or a boost
  when nothing came at it (003:2232-2250); Fate Core's +2 (000:272-278); FATE 2.0 and 3.0's
  (002:41, 001:80). The boost or free invoke it then holds goes into its next attack. The
  ``guard`` parameter of the stacker family.
* ``spender``: the stacker that stacks nothing (``stack: 0``): ``basic``'s turns, but every free
  invoke it holds goes into its attack, where ``basic`` spends only what the hit needs. A free
  invoke kept past the fight is worth nothing, and each one spent on a hit that lands adds its +2
  to the shifts of harm (less against a solo bonus, 003:2593-2600). The general learned NPC's
  helper (agents/learned.py).
"""

from __future__ import annotations

from fate_env.content.reasons import reason
from fate_env.rules.conflict import Conflict, Decision
from fate_env.rules.options import Attack, Concede, CreateAdvantage, Exploit, FullDefense, Invoke, Move, Support

from .registry import register
from .basic import BasicController


def _attacks(c: Conflict, d: Decision) -> list[int]:
    return [i for i, o in enumerate(d.options) if type(o) is Attack]


@register("brute")
class BruteController(BasicController):
    name = "brute"

    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me, opts = d.actor, d.options
        attacks = _attacks(c, d)
        if attacks:
            same = [i for i in attacks if c.distance(me, opts[i].target) == 0] or attacks
            i = max(same, key=lambda i: c.attack_rating(me, opts[i].skill, opts[i].target))
            return i, reason("smash", c.scene.display_names, target=opts[i].target)
        return super()._turn(c, d)


@register("spreader")
class SpreaderController(BasicController):
    """``basic``, but with an attack in reach it spreads its blows: the foe with the most left to take
    (Conflict.capacity; the first offered of those alike), hit with its best-rated attack. What a GM
    does with thugs meant to test every PC, not to take the weakest out: the designer's attention
    setting "spreads its blows" (design/space.py). Like ``brute`` it hits before it works on a scene's
    goal or blasts a zone; unlike it, it concedes as ``basic`` does."""

    name = "spreader"

    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me, opts = d.actor, d.options
        attacks = _attacks(c, d)
        if not attacks or (self._should_concede(c, me) and any(type(o) is Concede for o in opts)):
            return super()._turn(c, d)
        targets = list(dict.fromkeys(opts[i].target for i in attacks))
        fresh = max(targets, key=lambda t: (c.capacity(t), -targets.index(t)))
        i = max((i for i in attacks if opts[i].target == fresh),
                key=lambda i: (c.attack_rating(me, opts[i].skill, fresh), -i))
        return i, reason("spread", c.scene.display_names, target=fresh)


@register("sniper")
class SniperController(BasicController):
    name = "sniper"

    def _foe_here(self, c: Conflict, me: str) -> bool:
        return any(c.distance(me, f) == 0 for f in c.foes_of(me))

    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me, opts = d.actor, d.options
        if self._foe_here(c, me):
            for i, o in enumerate(opts):  # step away first, if a free move can still shoot from there
                if type(o) is Move and self._reach_after(c, me, o.zone):
                    return i, reason("back_off", c.scene.display_names, zone=o.zone)
        ranged = [i for i in _attacks(c, d) if opts[i].skill != "Fight"]
        if ranged:
            i = max(ranged, key=lambda i: c.attack_rating(me, opts[i].skill, opts[i].target)
                    - c.defense_rating(opts[i].target, me, opts[i].skill))
            return i, reason("shoot", c.scene.display_names, target=opts[i].target)
        return super()._turn(c, d)

    def _move(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me = d.actor
        if self._foe_here(c, me):
            for i, o in enumerate(d.options):
                if type(o) is Move and self._reach_after(c, me, o.zone):
                    return i, reason("fall_back")
        return super()._move(c, d)


@register("tactician")
class TacticianController(BasicController):
    name = "tactician"

    def _held(self, c: Conflict, me: str, target: str) -> int:
        """Free invokes it (or its side) holds on aspects of, or placed on, ``target``."""
        side = c.side_of(me)
        total = 0
        for a in c.aspects.values():
            if a.owner == target:
                total += sum(n for h, n in a.free.items() if c.side_of(h) == side)
        return total

    def _weakest(self, c: Conflict, me: str, targets: list[str]) -> str:
        return min(targets, key=lambda t: (c.capacity(t), targets.index(t)))

    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me, opts = d.actor, d.options
        if self._should_concede(c, me) and Concede() in opts:
            return opts.index(Concede()), reason("concede")
        if FullDefense() in opts and (self._danger(c, me) or 0) > 0:
            return opts.index(FullDefense()), reason("guard")
        attacks = _attacks(c, d)
        if attacks:
            targets = list(dict.fromkeys(opts[i].target for i in attacks))
            focus = self._weakest(c, me, targets)
            if self._held(c, me, focus) >= int(self.params.get("stack", 2)):
                i = max((i for i in attacks if opts[i].target == focus),
                        key=lambda i: c.attack_rating(me, opts[i].skill, focus))
                return i, reason("cash_in", c.scene.display_names, target=focus)
            setups = [i for i, o in enumerate(opts) if type(o) is CreateAdvantage and o.target == focus]
            if setups:
                return setups[0], reason("set_up_on", c.scene.display_names, template=opts[setups[0]].template, target=focus)
            i = max((i for i in attacks if opts[i].target == focus),
                    key=lambda i: c.attack_rating(me, opts[i].skill, focus))
            return i, reason("focus", c.scene.display_names, target=focus)
        return super()._turn(c, d)

    def _invoke(self, c: Conflict, d: Decision) -> tuple[int, str]:
        ctx = d.context
        if ctx["as_roller"] and ctx["action"] == "attack":
            target = c.roll.target if c.roll is not None else None
            for i, o in enumerate(d.options):  # free invokes on the target's aspects: spend them all
                if type(o) is Invoke and o.free and o.effect == "bonus" and c.aspects[o.aspect].owner == target:
                    return i, reason("cash_invoke", aspect=c.aspects[o.aspect].name)
        return super()._invoke(c, d)

    def _next(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me = d.actor
        side = c.side_of(me)
        mine = [i for i, o in enumerate(d.options) if c.side_of(o.character) == side]
        holders = [i for i in mine if any(d.options[i].character in a.free for a in c.aspects.values())]
        if holders:
            return holders[0], reason("hand_to_holder", c.scene.display_names, character=d.options[holders[0]].character)
        return super()._next(c, d)


@register("coward")
class CowardController(BasicController):
    name = "coward"


@register("minion")
class MinionController(BasicController):
    name = "minion"

    def _should_concede(self, c: Conflict, me: str) -> bool:
        f = c.f[me]
        if self.params.get("concede_when_marked"):
            marked = any(any(t.marked) for t in f.tracks.values())
            lost = f.sheet.kind == "mob" and f.members * 2 <= f.sheet.count
            if marked or lost or f.consequences_taken:
                return True
        return super()._should_concede(c, me)


@register("support")
class SupportController(BasicController):
    name = "support"

    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me, opts = d.actor, d.options
        if self._should_concede(c, me) and Concede() in opts:
            return opts.index(Concede()), reason("concede")
        helps = [i for i, o in enumerate(opts) if type(o) is Support and o.ally not in c.acted]
        for i in helps:
            ally = opts[i].ally
            best = max((c.effective(ally, s, "attack") for s in c.attack_skills(ally)), default=0)
            skill = max(c.attack_skills(ally), key=lambda s: c.effective(ally, s, "attack"))
            if best > 0 and c.f[me].skill(skill) >= 1:
                return i, reason("back_up", c.scene.display_names, ally=ally, skill=skill)
        setups = [i for i, o in enumerate(opts) if type(o) is CreateAdvantage and o.target in c.foes_of(me)]
        if setups and c.allies_of(me):
            return setups[0], reason("set_up_for", c.scene.display_names, template=opts[setups[0]].template, target=opts[setups[0]].target)
        return super()._turn(c, d)


@register("stacker")
class StackerController(BasicController):
    name = "stacker"

    def _held(self, c: Conflict, me: str) -> int:
        """Free invokes ``me`` holds, on any aspect."""
        return sum(a.free.get(me, 0) for a in c.aspects.values())

    def _turn(self, c: Conflict, d: Decision) -> tuple[int, str]:
        me, opts = d.actor, d.options
        if self._should_concede(c, me) and Concede() in opts:
            return opts.index(Concede()), reason("concede")
        held = self._held(c, me)
        if self.params.get("guard") and not held and FullDefense() in opts and self._outmatched(c, d):
            return opts.index(FullDefense()), reason("outmatched")
        if held < int(self.params.get("stack", 4)):
            i = next((i for i, o in enumerate(opts) if type(o) is Exploit and c.aspect(o.aspect).owner == me), None)
            if i is not None:
                name = c.aspect(opts[i].aspect).name
                return i, reason("stack", aspect=name, held=held)
        return super()._turn(c, d)

    def _outmatched(self, c: Conflict, d: Decision) -> bool:
        """Some attack is on offer, and each is rated below its target's defense (not even a tie)."""
        me, opts = d.actor, d.options
        attacks = _attacks(c, d)
        return bool(attacks) and all(c.attack_rating(me, opts[i].skill, opts[i].target)
                                     < c.defense_rating(opts[i].target, me, opts[i].skill) for i in attacks)

    def _invoke(self, c: Conflict, d: Decision) -> tuple[int, str]:
        ctx = d.context
        if ctx["as_roller"] and ctx["action"] == "attack":
            for i, o in enumerate(d.options):  # the stack goes into the blow, all of it
                if type(o) is Invoke and o.free and o.effect == "bonus" and o.payer == d.actor:
                    return i, reason("stacked_invoke", aspect=c.aspects[o.aspect].name)
        return super()._invoke(c, d)


@register("spender")
class SpenderController(StackerController):
    """``stacker`` with its own entry in configs/policies.yaml (``stack: 0``): it never sets up a
    stack, so its turns are ``basic``'s, and it spends the free invokes it gets on the blow."""

    name = "spender"


@register("counter")
class CounterController(StackerController):
    """``spender`` with the stacker family's ``guard`` rule (configs/policies.yaml: ``stack: 0,
    guard: true``): outmatched and holding nothing, it goes on full defense for the +2 or the
    boost, and spends what it then holds on its next blow."""

    name = "counter"


__all__ = ["BruteController", "SniperController", "TacticianController", "CowardController",
           "MinionController", "SupportController", "StackerController",
           "SpenderController", "CounterController"]
