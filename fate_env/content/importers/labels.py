"""What a sheet's labels mean, in the languages character files are written in.

Fari's own Fate templates label their sections, aspects, stress tracks and consequences in
English, German, Spanish, French, Italian, Polish, Brazilian Portuguese and Turkish (and a user
may rename any of them); Foundry's Fate Core Official sheets in whatever language the world uses.
A label is matched by meaning: folded to plain lower-case words (accents and case dropped, so
``KÖRPERLICH``, ``körperlich`` and ``Korperlich`` are one word), then looked up in the word lists
below. A stress track may also be named after the skill that sizes it (``Physical Stress
(Physique)``, ``Mental Stress (Will)``).

Skill names are mapped to the default skill list only where the translation is certain (the
official translations' own names); any other name is kept as a skill of its own, and the importer
says so.
"""

from __future__ import annotations

import re

from ..npc_spec import slug


def fold(text: str) -> str:
    """Plain lower-case ASCII words: ``"Körperlicher Stress"`` -> ``"korperlicher stress"`` (the ids'
    own transliteration, ``npc_spec.slug``, with spaces between the words)."""
    return slug(str(text), "").replace("_", " ")


def _has(label: str, stems: tuple[str, ...]) -> bool:
    """Some word of ``label`` starts with one of ``stems`` (a stem may be several words)."""
    folded = fold(label)
    words = folded.split()
    return any((" " in s and s in folded) or any(w.startswith(s) for w in words) for s in stems)


# -- sheets of other games ------------------------------------------------------------
#: labels that only another game's sheet holds (Fari ships sheets for other games too): two of them on
#: one sheet and its numbers are not Fate's (a D&D ability is no Fate skill: Charisma is not Rapport)
OTHER_GAMES: dict[str, tuple[str, ...]] = {
    "Dungeons & Dragons 5e": ("armor class", "hit points", "hit dice", "death save success", "death save fail",
                              "saving throws", "spell slots"),
}


def other_game(labels: list[str]) -> tuple[str, list[str]] | None:
    """The other game whose sheet these labels are (and the labels that say so), or None."""
    folded = {fold(label) for label in labels}
    for game, marks in OTHER_GAMES.items():
        found = [m for m in marks if m in folded]
        if len(found) >= 2:
            return game, found
    return None


# -- sections --------------------------------------------------------------------------
SECTIONS: dict[str, tuple[str, ...]] = {
    "aspects": ("aspect", "aspekt", "aspetti", "aspetto"),
    "stunts": ("stunt", "proez", "talent", "sztuczk", "prouess", "facanh", "atut"),
    "stress": ("stress", "estres", "presja"),
    "consequences": ("consequen", "konsequenz", "consecuenc", "conseguenz", "konsekw", "condition", "zustand"),
    "skills": ("skill", "fertigkeit", "habilidad", "abilita", "umiejetn", "competenc", "pericia", "beceri",
               "approach", "approche", "methode", "enfoque", "abordagem", "podejsc", "approcci"),
    "notes": ("note", "notiz", "nota", "notatk", "notlar"),
}


def section_kind(label: str) -> str | None:
    """What a section holds, from its label: aspects, stunts, stress, consequences, skills, notes."""
    for kind, stems in SECTIONS.items():
        if _has(label, stems):
            return kind
    return None


# -- aspects ---------------------------------------------------------------------------
HIGH_CONCEPT = ("high concept", "konzept", "concepto", "concetto", "koncepcj", "conceito", "concept")
TROUBLE = ("trouble", "dilemma", "complicacion", "problema", "problem", "dificuldade", "bela")


def aspect_role(label: str) -> str:
    """high_concept, trouble or other, from an aspect's label (``Konzept``, ``PROBLèME``)."""
    if _has(label, HIGH_CONCEPT):
        return "high_concept"
    if _has(label, TROUBLE):
        return "trouble"
    return "other"


# -- stress tracks ---------------------------------------------------------------------
#: a track's own name, or the skill that sizes it (Physique for physical, Will for mental, 003:475-480)
TRACKS: dict[str, tuple[str, ...]] = {
    "physical": ("physical", "physisch", "korperlich", "fisic", "fizyczn", "fiziksel", "physique", "kraft", "vigor",
                 "budowa", "beden"),
    "mental": ("mental", "geistig", "umyslow", "zihinsel", "will", "voluntad", "volonta", "volonte", "vontade",
               "wola", "irade", "psych"),
}


def track_kind(label: str) -> str | None:
    """physical or mental for a stress track's label; None when it is neither (or both)."""
    hits = [kind for kind, stems in TRACKS.items() if _has(label, stems)]
    return hits[0] if len(hits) == 1 else None


# -- consequences ----------------------------------------------------------------------
SEVERITY_WORDS: dict[str, tuple[str, ...]] = {
    "mild": ("mild", "leicht", "leve", "lieve", "lagodn", "suave", "legere", "hafif", "lekk"),
    "moderate": ("moderat", "mittel", "mittler", "moderad", "umiarkowan", "moderee", "ortalama", "sredni"),
    "severe": ("severe", "schwer", "grave", "powazn", "sever", "agir", "ciezk"),
    "extreme": ("extrem", "estrem", "ekstrem", "asiri"),
}


def severity(label: str) -> str | None:
    """mild, moderate, severe or extreme from a consequence's label (``2: Mild``, ``Mittlere``)."""
    for sev, stems in SEVERITY_WORDS.items():
        if _has(label, stems):
            return sev
    return None


def is_fate_points(label: str) -> bool:
    return _has(label, ("fate point", "fatepunkt", "fate punkt", "fate punt", "punti fato", "puntos de destino",
                        "punkty losu", "pontos de destino", "points fate", "points de destin", "fate puan"))


# -- skills ----------------------------------------------------------------------------
#: skill names of the official translations -> the default list's (folded keys)
LOCAL_SKILLS: dict[str, str] = {
    # Deutsch (Fate Core and Fate Condensed, Uhrwerk Verlag)
    "athletik": "Athletics", "charisma": "Rapport", "diebeskunste": "Burglary", "empathie": "Empathy",
    "fahren": "Drive", "handwerk": "Crafts", "heimlichkeit": "Stealth", "kampfen": "Fight", "kontakte": "Contacts",
    "kraft": "Physique", "nachforschung": "Investigate", "provozieren": "Provoke", "ressourcen": "Resources",
    "schiessen": "Shoot", "tauschung": "Deceive", "wahrnehmung": "Notice", "wille": "Will", "wissen": "Lore",
    "bildung": "Academics", "spezialwissen": "Lore",
    # Español
    "atletismo": "Athletics", "carisma": "Rapport", "conducir": "Drive", "conocimiento academico": "Academics",
    "contactos": "Contacts", "disparar": "Shoot", "empatia": "Empathy", "enganar": "Deceive", "fisico": "Physique",
    "investigar": "Investigate", "maquinas": "Crafts", "pelear": "Fight", "percepcion": "Notice",
    "provocar": "Provoke", "recursos": "Resources", "robar": "Burglary", "saber": "Lore", "sigilo": "Stealth",
    "voluntad": "Will",
    # Français
    "athletisme": "Athletics", "cambriolage": "Burglary", "combat": "Fight", "conduite": "Drive",
    "discretion": "Stealth", "enquete": "Investigate", "erudition": "Lore", "intimidation": "Provoke",
    "metiers": "Crafts", "observation": "Notice", "physique": "Physique", "relations": "Contacts",
    "ressources": "Resources", "sociabilite": "Rapport", "tir": "Shoot", "tromperie": "Deceive", "volonte": "Will",
    # Português (Brasil)
    "atirar": "Shoot", "comunicacao": "Rapport", "conducao": "Drive", "conhecimentos": "Lore", "contatos": "Contacts",
    "estudos": "Academics", "furtividade": "Stealth", "lutar": "Fight", "oficios": "Crafts", "roubo": "Burglary",
    "vigor": "Physique", "vontade": "Will",
    # Polski
    "budowa": "Physique", "kontakty": "Contacts", "kradziez": "Burglary", "nauka": "Academics", "oszustwo": "Deceive",
    "prowadzenie": "Drive", "prowokacja": "Provoke", "relacje": "Rapport", "rzemioslo": "Crafts",
    "spostrzegawczosc": "Notice", "sprawnosc": "Athletics", "strzelanie": "Shoot", "sledztwo": "Investigate",
    "ukrywanie": "Stealth", "walka": "Fight", "wiedza tajemna": "Lore", "wiedza": "Lore", "wola": "Will",
    "zasoby": "Resources",
    # Italiano (only the names that are one skill in both Italian sheets)
    "atletica": "Athletics", "combattere": "Fight", "contatti": "Contacts", "guidare": "Drive",
    "influenzare": "Rapport", "investigare": "Investigate", "percezione": "Notice", "provocare": "Provoke",
    "raggirare": "Deceive", "risorse": "Resources", "sparare": "Shoot", "volonta": "Will", "artigianato": "Crafts",
    "ingegneria": "Crafts",
    # Türkçe (only the certain ones)
    "akademik": "Academics", "aldatmaca": "Deceive", "aticilik": "Shoot", "baglantilar": "Contacts",
    "beden": "Physique", "ceviklik": "Athletics", "empati": "Empathy", "gizlilik": "Stealth", "hirsizlik": "Burglary",
    "ilim": "Lore", "irade": "Will", "kaynaklar": "Resources", "kiskirtma": "Provoke", "muhabbet": "Rapport",
    "surucluk": "Drive", "suruculuk": "Drive", "yakin dovus": "Fight", "zanaat": "Crafts",
}


def skill_name(label: str, defaults: tuple[str, ...]) -> tuple[str, bool]:
    """(the engine's name for a skill label, whether it was translated): ``FIGHT`` -> ``Fight``,
    ``Kämpfen`` -> ``Fight`` (translated); an unknown name is kept as written (trimmed)."""
    folded = fold(label)
    for d in defaults:
        if fold(d) == folded:
            return d, False
    if folded in LOCAL_SKILLS and LOCAL_SKILLS[folded] in defaults:
        return LOCAL_SKILLS[folded], True
    return " ".join(str(label).split()), False


#: a skill-pyramid row of a sheet ("+5 Skills:", "+4 Skills: Fight, Shoot"): its rating and the names after the colon
PYRAMID_ROW = re.compile(r"^\s*\+?\s*(?P<rating>[0-8])\s*(?P<word>[^\W\d_][^:]*)?:\s*(?P<names>.*)$", re.UNICODE)
