"""Copies built from the fields' own declarations.

The engine copies its table at every checkpoint and every what-if, so the copy is on the hot path:
each field says once how it is copied (``field(metadata={"copy": HOW})``, through :func:`kept`) and
:func:`copier` writes the copy function from those declarations, as fast as one written by hand
(dataclasses writes its ``__init__`` the same way). A field with no declaration is a plain value,
shared by the copies (numbers, strings, frozen values); a mutable container without one is refused
when the class is built, so a new field can never be shared between copies by mistake.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, field, fields
from typing import Any, Callable

#: how a field is copied -> the expression that copies ``self.NAME``
HOW: dict[str, str] = {
    "value": "self.{0}",                                           # immutable, or never changed in place
    "shared": "self.{0}",                                          # a container set once and only read
    "dict": "dict(self.{0})",
    "set": "set(self.{0})",
    "list": "self.{0}[:]",
    "each": "{{k: v.copy() for k, v in self.{0}.items()}}",       # a mapping of objects with .copy()
    "list_of_dicts": "[dict(r) for r in self.{0}]",
    "dict_of_sets": "{{k: set(v) for k, v in self.{0}.items()}}",
    "dict_or_none": "dict(self.{0}) if self.{0} is not None else None",
    "copy_or_none": "self.{0}.copy() if self.{0} is not None else None",
}


def kept(how: str, **kwargs: Any) -> Any:
    """A dataclass field copied as ``how`` says (HOW), or ``"derived"``: rebuilt on demand, not copied
    (its default is the copy's value; such fields come last)."""
    if how not in HOW and how != "derived":
        raise ValueError(f"copy {how!r}: expected one of {', '.join(HOW)} or 'derived'")
    return field(metadata={"copy": how}, **kwargs)


def _how(f: Field, cls: type) -> str:
    how = f.metadata.get("copy")
    if how is None:
        if f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: a mutable default needs kept(HOW, ...): how is it copied?")
        return "value"
    return how


def copier(cls: type) -> Callable[[Any], Any]:
    """The copy method of the dataclass ``cls``, built from its fields' declarations."""
    args, derived = [], False
    for f in fields(cls):
        how = _how(f, cls)
        if how == "derived":
            derived = True
            continue
        if derived:
            raise TypeError(f"{cls.__name__}.{f.name}: the derived fields come last (the copy passes the rest in order)")
        args.append(HOW[how].format(f.name))
    source = f"def copy(self):\n    return {cls.__name__}(" + ", ".join(args) + ")\n"
    scope: dict[str, Any] = {cls.__name__: cls}
    exec(source, scope)  # noqa: S102  (source built above from field names and HOW's fixed forms)
    fn = scope["copy"]
    fn.__qualname__ = f"{cls.__name__}.copy"
    fn.__doc__ = f"A copy of this {cls.__name__}, each field copied as its declaration says (rules/copies.py)."
    return fn
