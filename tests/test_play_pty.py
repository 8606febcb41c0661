"""`fate-npc play` through a pseudo-terminal (issue 16): a scripted table answering prompts as they
come, as a GM at a terminal would. It shows grouped menus with odds, the state panel (drawn by
rich, in colour on a terminal), a consequence named by the table, and /add bringing in help."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest
from conftest import ROOT

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """A child process on a pseudo-terminal, read until it waits for a line, answered one line at a time."""

    def __init__(self, argv: list[str], env: dict[str, str]):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True)
        os.close(slave)
        self.raw = b""

    def read_until_prompt(self, timeout: float = 60) -> str:
        """Output until it ends in a prompt (a line without its newline) and stays quiet."""
        start = len(self.raw)
        end = time.time() + timeout
        while time.time() < end:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                self.raw += chunk
                continue
            tail = ANSI.sub("", self.raw[start:].decode(errors="replace"))
            if tail and not tail.endswith("\n") or self.proc.poll() is not None:
                break
        return ANSI.sub("", self.raw[start:].decode(errors="replace")).replace("\r", "")

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> str:
        try:
            self.proc.wait(timeout=30)
        finally:
            os.close(self.master)
        return ANSI.sub("", self.raw.decode(errors="replace")).replace("\r", "")


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_gm_at_a_terminal_sees_menus_with_odds_a_panel_named_consequences_and_add(tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "COLUMNS": "120", "TERM": "xterm"}
    term = Terminal([sys.executable, "-m", "fate_env.cli", "play", "warehouse", "--seed", "3",
                     "--control", "smugglers=tactician", "--confirm"], env)
    first = term.read_until_prompt()
    assert "\x1b[" in term.raw.decode(errors="replace"), "on a terminal the panel is drawn in colour"
    assert "Aspects in play (#handle)" in first and "#10" in first
    assert re.search(r"  Attack:\n +\d+\. attack .+ with Fight +\[Good \(\+3\) vs Fair \(\+2\): 58% success", first)
    assert "type 'more' to see all" in first
    term.send("/add Dock Thug x2: mob, Fight 2 @floor_east")
    out = term.read_until_prompt()
    assert "(GM) Dock Thug (2 of them) join the fight in Main floor (east)" in out
    named, steps = False, 0
    while term.proc.poll() is None and steps < 900:
        if "Enter for '" in out and not named:
            term.send("Cracked Collarbone")
            named = True
        else:  # 'auto' answers every prompt: the PC's helper, the NPC's proposal, a suggested name
            term.send("auto")
        out = term.read_until_prompt()
        steps += 1
    text = term.close()
    assert named, "a consequence was taken and named in this fight (seed 3)"
    assert "Cracked Collarbone" in text.split("Winner:")[0]
    assert text.count("-- exchange ") >= 2  # the short panel after each exchange
    assert "Winner:" in text
