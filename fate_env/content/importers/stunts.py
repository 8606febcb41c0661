"""Stunts read from their words: the common phrasings of the kinds the engine plays.

The rules texts write stunts in two shapes (003:400-445): a bonus ("get a +2 when I use Shoot to
attack when ...") and a rule change ("can use Stealth to attack", "two more stress boxes", "another
mild consequence slot"). A stunt is mapped only when all it says is something the engine applies:
a bonus with no circumstance or one the engine checks, one skill used for an attack or a defense
(against any attack, or against one skill's attacks), extra stress boxes, one more mild
consequence. Anything else (a circumstance the engine cannot check, "once per scene", a limit
"but only ...") is kept as text with the reason, never played as a looser rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .labels import fold

#: how a stunt's text names an action (folded words)
ACTION_WORDS = {"attack": "attack", "attacks": "attack", "attacking": "attack", "defend": "defend",
                "defends": "defend", "defending": "defend", "defense": "defend", "defence": "defend",
                "overcome": "overcome", "overcoming": "overcome", "create an advantage": "create_advantage",
                "create advantages": "create_advantage", "creating an advantage": "create_advantage",
                "creating advantages": "create_advantage", "create advantage": "create_advantage"}
_ACTION = "(?P<action>" + "|".join(sorted(map(re.escape, ACTION_WORDS), key=len, reverse=True)) + ")"
_SKILL = r"(?P<skill>[a-z][a-z]+(?: (?!rolls?\b|to\b|when\b|instead\b|against\b)[a-z][a-z]+)?)"
_N = r"(?P<bonus>[1-4])"
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "an": 1, "a": 1, "another": 1, "1": 1, "2": 2, "3": 3, "4": 4}

#: "+2 to Fight when you attack", "+2 on Notice rolls to overcome", "get a +2 when I use Shoot to attack"
BONUS = [re.compile(p) for p in (
    r"(?:get |gain |gets |gains |take |takes )?(?:a )?" + _N + r" (?:bonus )?(?:to|on|with|for) (?:all |your )*"
    + _SKILL + r" (?:rolls? )?(?:when|while|to|if) (?:you |i |they )?(?:are |re )?(?:making |make |try to |trying to )?(?:an? )?"
    + _ACTION,
    r"(?:get |gain |gets |gains |take |takes )?(?:a )?" + _N + r" (?:bonus )?(?:when|whenever|if) (?:you |i |they )?(?:use |uses |using |roll |rolls )"
    + _SKILL + r" to " + _ACTION,
)]
#: "use Provoke to defend against Fight attacks", "can use Stealth to attack", "use Fight instead of Athletics to defend"
USE = [re.compile(p) for p in (
    r"(?:can |may )?(?:use |uses |using )" + _SKILL + r" (?:instead of (?P<instead>[a-z]+) )?(?:to |when (?:you )?(?:make |making )?(?:an? )?)"
    + _ACTION + r"(?: against (?P<against>[a-z]+) attacks?| against (?:all |any )?(?P<any>physical |mental )?attacks?)?",
    r"(?:can |may )?" + _ACTION + r" (?:with|using) " + _SKILL
    + r"(?: instead of (?P<instead>[a-z]+))?(?: against (?P<against>[a-z]+) attacks?)?",
)]
EXTRA_STRESS = re.compile(r"(?P<n>one|two|three|four|another|an|a|[1-4]) (?:additional |extra |more )?"
                          r"(?:(?P<track>physical|mental) )?stress box(?:es)?")
EXTRA_MILD = re.compile(r"(?:an? |one |another )?(?:additional |extra |more )?mild consequence(?: slot)?")
#: what ends a stunt's mechanical clause: a circumstance or a limit the engine cannot check
LIMITS = re.compile(r"\b(?:once per|per scene|per session|but only|only (?:if|when|while|until|against|once)|"
                    r"spend a fate point|pay a fate point|costs? a fate point|unless|until|during|first time)\b")


@dataclass
class Reading:
    """What a stunt's words came to: the stunt the engine plays (None: kept as text) and why."""

    stunt: dict[str, Any] | None
    why: str


def read_stunt(name: str, text: str, skill_of) -> Reading:
    """Map one stunt. ``skill_of(word)`` gives the engine's skill for a name in the text, or None."""
    every = fold(text)
    if not every:
        return Reading(None, "no text")
    limit = LIMITS.search(every)
    for sentence in re.split(r"[.!?;]+(?:\s|$)", text):
        words = fold(sentence)
        if words:
            got = _read(name, words, limit, skill_of)
            if got is not None:
                return got
    return Reading(None, "not a phrasing the engine plays (a +N to a skill for an action, a skill used to attack or "
                         "defend, extra stress boxes, one more mild consequence)")


def _read(name: str, words: str, limit, skill_of) -> Reading | None:
    """One sentence's reading, or None if it says nothing the patterns know."""
    for pat in BONUS:
        m = pat.search(words)
        if m:
            skill = skill_of(m["skill"])
            if skill is None:
                return Reading(None, f"a bonus to {m['skill']!r}, not a skill of this sheet")
            rest = words[m.end():].strip()
            when = _circumstance(rest)
            if limit or (rest and when is None):
                return Reading(None, f"a +{m['bonus']} to {skill} with a condition the engine cannot check "
                                     f"({(limit.group(0) if limit else rest)[:60]!r})")
            out = {"name": name, "kind": "bonus", "skill": skill, "action": ACTION_WORDS[m["action"]],
                   "bonus": int(m["bonus"])}
            if when:
                out["when"] = when
            return Reading(out, f"+{m['bonus']} to {skill} to {ACTION_WORDS[m['action']].replace('_', ' ')}"
                                + (f" ({when})" if when else ""))
    for pat in USE:
        m = pat.search(words)
        if m:
            skill, action = skill_of(m["skill"]), ACTION_WORDS[m["action"]]
            if skill is None:
                return Reading(None, f"uses {m['skill']!r}, not a skill of this sheet")
            if action not in ("attack", "defend"):
                return Reading(None, f"{skill} for {action.replace('_', ' ')}: the engine swaps skills only to attack "
                                     "or defend")
            rest = words[m.end():].strip()
            if limit or rest:
                return Reading(None, f"{skill} to {action} with a condition the engine cannot check "
                                     f"({(limit.group(0) if limit else rest)[:60]!r})")
            out = {"name": name, "kind": "use_skill", "skill": skill, "action": action}
            instead = skill_of(m["instead"]) if m.groupdict().get("instead") else None
            if m.groupdict().get("instead"):
                reach = {"Fight": "melee", "Shoot": "ranged"}.get(instead or "")
                if action == "attack" and reach:
                    out["reach"] = reach
                else:
                    return Reading(None, f"{skill} instead of {m['instead']!r} to {action}: the engine cannot limit "
                                         f"it to where {m['instead']!r} would be used")
            against = m.groupdict().get("against")
            if against and action == "defend":
                foe = skill_of(against)
                if foe is None:
                    return Reading(None, f"{skill} to defend against {against!r} attacks, not a skill the engine knows")
                out["against"] = foe
            if m.groupdict().get("any"):
                return Reading(None, f"{skill} to defend against {m['any'].strip()} attacks only: the engine "
                                     "cannot limit a defense to one kind of attack")
            return Reading(out, f"{skill} to {action}" + (f" against {out['against']} attacks" if "against" in out else ""))
    m = EXTRA_STRESS.search(words)
    if m and not limit:
        track = m["track"] or _track_from(words)
        if track is None:
            return Reading(None, "extra stress boxes on a track it does not name")
        n = _WORDS[m["n"]]
        return Reading({"name": name, "kind": "extra_stress", "track": track, "count": n},
                       f"{n} more {track} stress box{'es' if n > 1 else ''}")
    if EXTRA_MILD.search(words) and not limit and ("additional" in words or "extra" in words or "more" in words
                                                    or "another" in words):
        track = _track_from(words)
        out = {"name": name, "kind": "extra_mild", **({"track": track} if track else {})}
        return Reading(out, "one more mild consequence" + (f" ({track})" if track else ""))
    return None


def _track_from(words: str) -> str | None:
    phys, ment = "physical" in words, "mental" in words
    return "physical" if phys and not ment else "mental" if ment and not phys else None


def _circumstance(rest: str) -> str | None:
    """A circumstance after the action the engine checks (``when:``), '' for none, None for another."""
    rest = re.sub(r"^(?:rolls?|actions?|attempts?)\b", "", rest).strip(" ,.;")
    if not rest:
        return ""
    if re.fullmatch(r"(?:against|on|at) (?:someone|anyone|a target|an enemy|a foe)? ?in (?:the same|your) zone", rest) \
            or re.fullmatch(r"(?:in|within) (?:the same|your) zone|in (?:close quarters|melee)|at close range", rest):
        return "same_zone"
    if re.fullmatch(r"(?:at range|from (?:another|a different) zone|against (?:someone|a target) in another zone)", rest):
        return "other_zone"
    return None
