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


#: seconds of silence after a line without its newline that mean the child waits for input
QUIET = 0.1


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
            ready, _, _ = select.select([self.master], [], [], QUIET)
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
    assert "aspects: #17 Heavy Crates" in first  # the opening board is brief: the scene's aspects, handles
    term.send("/state")  # the whole board, paged
    board = term.read_until_prompt()
    while "Enter for more" in board.split("\n")[-1]:
        term.send("")
        board += term.read_until_prompt()
    assert "\x1b[" in term.raw.decode(errors="replace"), "on a terminal the panel is drawn in colour"
    assert "Aspects in play (#handle)" in board and "#10" in board
    assert re.search(r"  Attack:\n +\d+\. (\(proposed\) )?attack .+ with Fight +\(\+3 against \+2: 58% success",
                     first)
    assert "type 'more' to see all" in first and "type 'more' to see all" in board  # the question again below
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


def _window(fd: int, rows: int, cols: int) -> None:
    import fcntl
    import struct
    import termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_play_fits_an_80_by_24_terminal_and_keeps_the_question_on_screen(tmp_path):
    """A whole warehouse fight in an 80x24 terminal: no line wider than 80 columns (the board, /state,
    the menus, the narration, the prompts), /state and 'more' paged, and each of the player's questions
    fully on the last screen when it is asked."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "COLUMNS": "80", "LINES": "24", "TERM": "xterm"}
    term = Terminal([sys.executable, "-m", "fate_env.cli", "play", "warehouse", "--seed", "5",
                     "--control", "smugglers=tactician"], env)
    _window(term.master, 24, 80)
    out = term.read_until_prompt()
    asked = paged = 0
    sent_state = sent_more = False
    steps = 0
    while term.proc.poll() is None and steps < 900:
        screen = out.rstrip("\n").split("\n")[-24:]
        if out.endswith("> ") and "decides (" in out:
            assert any("decides (" in line for line in screen), "\n".join(screen)  # the question is on screen
            asked += 1
        if "Enter for more, q to stop" in screen[-1]:
            paged += 1
            term.send("")
        elif out.endswith("> ") and not sent_state and asked >= 2:
            term.send("/state")
            sent_state = True
        elif out.endswith("> ") and not sent_more and sent_state:
            term.send("more")
            sent_more = True
        else:
            term.send("auto")
        out = term.read_until_prompt()
        steps += 1
    text = term.close()
    assert "Winner:" in text and asked >= 3 and paged >= 2, (asked, paged)
    wide = [line for line in text.split("\n") if len(line) > 80]
    assert not wide, wide[:5]


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("cols", [80, 100])
def test_the_proposal_mark_stays_whole_enter_takes_it_and_help_gives_the_question_back(tmp_path, cols):
    """Issue 75's terminal points: the proposal's mark is never split over two lines at 80 or 100 columns;
    at a player's decision Enter takes the proposal; after /help (read to its end or left with q) the
    question is shown again."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "COLUMNS": str(cols), "LINES": "24", "TERM": "xterm"}
    term = Terminal([sys.executable, "-m", "fate_env.cli", "play", "warehouse", "--seed", "5",
                     "--control", "smugglers=tactician"], env)
    _window(term.master, 24, cols)
    out = term.read_until_prompt()
    taken = helped = 0
    steps = 0
    while term.proc.poll() is None and steps < 400 and taken < 3:
        prompt = out.rstrip("\n").split("\n")[-1]
        if "Enter for more, q to stop" in prompt:
            term.send("q")
            out = term.read_until_prompt()
            assert "decides (" in out and "(proposed)" in out, out  # the question again, after the list
            helped += 1
            continue
        elif prompt.startswith("  [Enter: ") and prompt.endswith("]> "):  # a player's decision
            number = prompt.split("[Enter: ")[1].split("]")[0]
            proposed = [line for line in out.split("\n") if "(proposed)" in line]
            assert proposed and proposed[-1].lstrip().startswith(f"{number}. (proposed) "), out
            if helped == 0 and taken == 1:
                term.send("/help")
                out = term.read_until_prompt()
                continue
            term.send("")  # Enter: the proposal
            out = term.read_until_prompt()
            assert "! type the number" not in out
            taken += 1
            continue
        else:
            term.send("auto")
        out = term.read_until_prompt()
        steps += 1
    term.send("/quit")
    text = term.close()
    assert taken == 3 and helped == 1, (taken, helped)
    lines = text.split("\n")
    assert not [line for line in lines if len(line) > cols]
    split = [line for line in lines if ("(proposed" in line) != ("(proposed)" in line) or line.lstrip().startswith("proposed)")]
    assert not split, split
