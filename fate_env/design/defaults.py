"""`fate-npc design`'s numbers, declared once: the command uses them and its help shows them (this
module imports nothing, so `fate-npc --help` stays quick)."""

#: the independent bench of the designed file: fresh seeds, this many fights
CHECK_FIGHTS = 10_000
#: the band around the target the design must land in (the issue's 0.04)
TOLERANCE = 0.04
#: trials when --trials is not given (the budget may stop it sooner)
DEFAULT_TRIALS = 600
#: the search's time budget when --budget is not given, in seconds
DEFAULT_BUDGET = 55.0
