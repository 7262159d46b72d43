"""Issue 48: View > Players' screens. Off by default; localhost unless the umpire picks the
club's network; a link and a QR code per side; a new link in one click (the old one refused);
TLS with a certificate and key, a wrong one refused with a clear message."""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path
from typing import Any

import httpx2
import pytest

from app.startup.demo import create_demo_game
from tests.players_desk import open_desk


@pytest.fixture
def desk(tmp_path: Path, qtbot: Any):
    window = open_desk(tmp_path, qtbot, create_demo_game(tmp_path / "demo.airboss"))
    yield window
    if window.players_bridge is not None:
        window.players_bridge.stop()
    window.model.set_session(None)


def test_off_by_default_and_on_localhost_unless_told(desk, qtbot):
    window = desk
    assert window.players_bridge is None  # nothing made, nothing served, before the menu
    action = window.players_action
    assert action.text() == "Pla&yers' screens…"
    action.trigger()
    dialog = window.players_dialog
    bridge = window.players_bridge
    assert not bridge.running and dialog.status.text() == "Off: no page is served."
    assert dialog.where.currentData() == "127.0.0.1"  # the first choice: this computer only
    dialog.port.setText("0")
    dialog.start_button.click()
    assert bridge.running
    assert bridge.server.bound[0] == "127.0.0.1"
    assert "this computer only" in dialog.status.text()
    links = {
        side: dialog.findChild(type(dialog.port), f"link-{side}").text()
        for side in ("USAF", "VPAF")
    }
    assert links == bridge.links()
    assert all(
        link.startswith(f"http://127.0.0.1:{bridge.server.port}/s/") for link in links.values()
    )
    assert not dialog.findChild(type(dialog.status), "qr-USAF").pixmap().isNull()
    assert httpx2.get(links["USAF"] + "/state").status_code == 200
    dialog.start_button.click()  # Stop
    assert not bridge.running and dialog.status.text() == "Off: no page is served."
    with pytest.raises(httpx2.ConnectError):
        httpx2.get(links["USAF"] + "/state")


def test_a_new_link_in_one_click_refuses_the_old_one(desk, qtbot):
    window = desk
    dialog = window.open_players_screens()
    dialog.port.setText("0")
    dialog.start_button.click()
    old = window.players_bridge.link("USAF")
    buttons = [
        b
        for b in dialog.sides_box.findChildren(type(dialog.start_button))
        if "New link" in b.text()
    ]
    assert len(buttons) == 2
    usaf = next(b for b in buttons if b.parentWidget().title() == "USAF")
    usaf.click()
    new = window.players_bridge.link("USAF")
    assert new != old
    assert httpx2.get(old + "/state").status_code == 404
    assert httpx2.get(new + "/state").status_code == 200
    qtbot.waitUntil(
        lambda: (
            dialog.findChild(type(dialog.port), "link-USAF") is not None
            and dialog.findChild(type(dialog.port), "link-USAF").text() == new
        )
    )


def test_a_new_game_has_new_links(desk, tmp_path, qtbot):
    window = desk
    dialog = window.open_players_screens()
    dialog.port.setText("0")
    dialog.start_button.click()
    old = window.players_bridge.links()
    window.show_session(create_demo_game(tmp_path / "other.airboss"))
    new = window.players_bridge.links()
    assert set(new) == set(old) and all(new[s] != old[s] for s in old)
    assert httpx2.get(old["USAF"] + "/state").status_code == 404


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    crt, key = tmp_path / "server.crt", tmp_path / "server.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-new",
            "-x509",
            "-days",
            "1",
            "-nodes",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(key),
            "-out",
            str(crt),
        ],
        check=True,
        capture_output=True,
    )
    return crt, key


def test_tls_with_a_certificate_and_a_wrong_one_said(desk, certificate, tmp_path, qtbot):
    window = desk
    crt, key = certificate
    dialog = window.open_players_screens()
    dialog.port.setText("0")
    dialog.tls.setChecked(True)
    dialog.certfile.setText(str(crt))
    dialog.keyfile.setText(str(tmp_path / "missing.key"))
    dialog.start_button.click()
    assert not window.players_bridge.running
    assert "TLS: cannot use the certificate" in dialog.message.text()
    assert "missing.key" in dialog.message.text()
    dialog.keyfile.setText(str(key))
    dialog.start_button.click()
    assert window.players_bridge.running
    link = window.players_bridge.link("USAF")
    assert link.startswith("https://127.0.0.1:")
    context = ssl.create_default_context(cafile=str(crt))
    context.check_hostname = False  # the certificate names localhost, the link its address
    assert httpx2.get(link + "/state", verify=context).status_code == 200
    with pytest.raises(httpx2.RemoteProtocolError):
        httpx2.get(link.replace("https://", "http://") + "/state")


def test_without_its_web_server_the_menu_says_why(desk, qtbot, monkeypatch):
    """An installation without starlette/uvicorn (a half-made environment): View > Players'
    screens says in the window why it cannot open, as Print cards does, instead of an uncaught
    error."""
    import sys

    monkeypatch.setitem(sys.modules, "app.ui.players.bridge", None)  # the import fails
    window = desk
    window.players_action.trigger()
    assert window.players_dialog is None
    said = window.refusal.text()
    assert window.refusal.isVisible()
    assert said.startswith("The players' screens are not available: ")
    assert "./scripts/setup" in said
