"""`fate-npc serve` as the GM runs it (a real process): a port it cannot have is one line and leaves no
file behind; Ctrl-C with pages listening stops it quickly and quietly, the save said in the terminal;
a scene's control characters are shown, not obeyed (issue 48)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")

from conftest import ROOT  # noqa: E402

HOSTILE_TITLE = "Duel \x1b[2J\x07on the \u202eSteps"


def _env(tmp_path) -> dict:
    return {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONUNBUFFERED": "1"}


def _cli(args, tmp_path, **kw):
    return subprocess.run([sys.executable, "-m", "fate_env.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=_env(tmp_path), **kw)


def _hostile_scene(tmp_path):
    text = (ROOT / "configs" / "scenes" / "duel.yaml").read_text(encoding="utf-8")
    scene = tmp_path / "hostile.yaml"
    title = 'title: "' + HOSTILE_TITLE.replace("\x1b", "\\e").replace("\x07", "\\a") + '"'  # YAML's escapes
    scene.write_text(re.sub(r"^title: .*$", lambda _: title, text, count=1, flags=re.M), encoding="utf-8")
    return scene


def _stop(proc: subprocess.Popen) -> None:
    """Ctrl-C, as the GM stops it; killed if it has not stopped in 30 s."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def _until_links(proc: subprocess.Popen) -> list[str]:
    """What a running serve printed, up to its last link (the spectators')."""
    lines: list[str] = []
    deadline = time.time() + 60
    while time.time() < deadline and not any(line.startswith("spectators:") for line in lines):
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
    return lines


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_a_port_out_of_range_is_one_line(tmp_path, port):
    r = _cli(["serve", "duel", "--port", port], tmp_path)
    assert r.returncode != 0 and "Traceback" not in r.stderr and "--port" in r.stderr
    assert "0 to 65535" in r.stderr


def test_a_port_in_use_is_one_line_and_no_session_file_is_written(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        save = tmp_path / "s.json"
        r = _cli(["serve", "duel", "--port", str(port), "--save", str(save)], tmp_path)
    assert r.returncode != 0 and "Traceback" not in r.stderr and "cannot listen" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not save.exists() and not (tmp_path / f"{save}.autosave").exists()
    assert not (tmp_path / "state").exists() or not any((tmp_path / "state").rglob("*.json"))


def test_ctrl_c_with_pages_listening_stops_quietly_and_says_the_save_in_the_terminal(tmp_path):
    save = tmp_path / "s.json"
    proc = subprocess.Popen([sys.executable, "-m", "fate_env.cli", "serve", str(_hostile_scene(tmp_path)), "--seed", "1",
                             "--port", "0", "--save", str(save)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    streams = []
    try:
        lines = _until_links(proc)
        head = "\n".join(lines)
        assert "\x1b" not in head and "\x07" not in head and "\u202e" not in head, head
        assert "\\x1b[2J" in head and "\\u202e" in head
        gm_url = next(line.split()[-1] for line in lines if line.startswith("GM:"))
        host, rest = gm_url.split("//")[1].split(":", 1)
        port, token = rest.split("/t/")
        for _ in range(3):  # pages listening when the GM stops the server
            conn = socket.create_connection((host, int(port)), timeout=10)
            conn.sendall(f"GET /api/{token}/events HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
            assert conn.recv(64).startswith(b"HTTP/1.1 200")
            streams.append(conn)
        start = time.time()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        for conn in streams:
            conn.close()
        if proc.poll() is None:
            proc.kill()
    assert time.time() - start < 5
    assert proc.returncode == 0, err
    assert err.strip() == "", err  # no uvicorn shutdown notice, no CancelledError traceback
    assert f"saved to {save}" in out and save.exists()


def test_validate_shows_a_scene_s_control_characters_instead_of_obeying_them(tmp_path):
    r = _cli(["validate", str(_hostile_scene(tmp_path))], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout and "\u202e" not in r.stdout
    assert "\\x1b[2J" in r.stdout and "\\u202e" in r.stdout


def test_a_table_shared_on_the_network_prints_links_a_phone_can_open(tmp_path):
    """`--host 0.0.0.0` shares the table: the links it prints name this machine's network address (a
    phone cannot open 127.0.0.1 or 0.0.0.0), and the table answers at that address."""
    from fate_env.web.server import reachable
    at = reachable("0.0.0.0")
    proc = subprocess.Popen([sys.executable, "-m", "fate_env.cli", "serve", "duel", "--seed", "1", "--host", "0.0.0.0",
                             "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env(tmp_path))
    try:
        lines = _until_links(proc)
        gm_url = next(line.split()[-1] for line in lines if line.startswith("GM:"))
        host, rest = gm_url.split("//")[1].rsplit(":", 1)
        assert host == at and host not in ("0.0.0.0", "::")
        port, token = rest.split("/t/")
        with socket.create_connection((host, int(port)), timeout=10) as conn:
            conn.sendall(f"GET /api/{token}/state HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
            assert conn.recv(64).startswith(b"HTTP/1.1 200")
    finally:
        _stop(proc)


def test_serve_says_in_the_terminal_why_it_waits_before_its_links(tmp_path):
    """The ghoul acts first: its learned side rehearses the scene while serve plays up to the first
    question, before it prints the links. The GM's terminal is told so first, and said no more than once."""
    proc = subprocess.Popen([sys.executable, "-m", "fate_env.cli", "serve", "ghoul", "--control", "monsters=learned",
                             "--seed", "1", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env(tmp_path))
    try:
        lines = _until_links(proc)
        told = [i for i, line in enumerate(lines) if "tries this scene out for The Ghoul before it plays" in line]
        gm = next(i for i, line in enumerate(lines) if line.startswith("GM:"))
        assert len(told) == 1 and told[0] < gm, lines
        assert lines[told[0]].startswith("(the learned NPC")
    finally:
        _stop(proc)
