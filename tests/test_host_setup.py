"""Setting up a hosted table: its address and port from the command line, its host key made
once and kept, its password new each time, the line friends join with, the names a login may
take, and key files that are damaged or links said in one line."""
import sys
from pathlib import Path
from typing import Optional, Union

import pytest

if sys.platform == "win32":  # its module-level code already needs what Windows lacks
    pytest.skip("posix: hosting a table needs a POSIX system (and under Wine, asyncssh's cryptography wants "
                "bcryptprimitives.dll)", allow_module_level=True)

import socket

from terminal import Terminal

from yahtzee.speech.languages import text


def test_the_ssh_modules_load_without_a_word_on_stderr() -> None:
    """A host's or a server's terminal shows nothing of the SSH library's own warnings (asyncssh
    names DSA key types, which newer cryptography warns of as they load)."""
    import subprocess
    done = subprocess.run([sys.executable, "-c", "import yahtzee.net.server, yahtzee.net.hall"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""


def test_the_host_key_is_made_once_and_kept_and_a_password_is_new_each_table(tmp_path: Path) -> None:
    from yahtzee.net.credentials import HOST_KEY_FILE, table_credentials
    first, second = table_credentials(tmp_path), table_credentials(tmp_path)
    assert first.fingerprint == second.fingerprint and first.fingerprint.startswith("SHA256:")
    assert (tmp_path / HOST_KEY_FILE).stat().st_mode & 0o077 == 0  # its owner's only
    assert first.password != second.password and len(first.password) == 10
    assert first.password_fits(first.password) and not first.password_fits(second.password)
    assert first.authorized is None and not first.key_fits(second.host_key)


@pytest.mark.parametrize(("text", "address"), [
    ("8022", ("127.0.0.1", 8022)), ("0", ("127.0.0.1", 0)), ("0.0.0.0:2222", ("0.0.0.0", 2222)),
    ("[::1]:8022", ("::1", 8022)), (":9000", ("127.0.0.1", 9000))])
def test_host_takes_a_port_and_listens_on_loopback_unless_given_an_address(text: str, address: tuple[str, int]) -> None:
    from yahtzee.cli import host_address, parse_args
    assert host_address(text) == address
    assert parse_args(["--host"]).host == ("127.0.0.1", 8022) and parse_args([]).host is None


@pytest.mark.parametrize("text", ["port", "70000", "-1", "host:"])
def test_a_bad_host_port_is_a_one_line_error(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    from yahtzee.cli import parse_args
    with pytest.raises(SystemExit):
        parse_args(["--host", text])
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@pytest.mark.parametrize(("address", "shown"), [("127.0.0.1", "127.0.0.1"), ("0.0.0.0", socket.gethostname())])
def test_the_join_line_names_an_address_a_friend_can_reach(tmp_path: Path, address: str, shown: str) -> None:
    from yahtzee.net import server
    from yahtzee.net.credentials import table_credentials
    table = server.TableServer(table_credentials(tmp_path, password="abc"), address, 8022, print)
    assert text(table.how_to_join()) == f"Friends join with: ssh -p 8022 NAME@{shown} (password abc)"


@pytest.mark.parametrize(("name", "fits"), [("한국어X", False), ("ANNABEL", False), ("😀😀😀😀", False),
                                            ("", False), ("한국어", True), ("Zoë", True), ("ANNABE", True)])
def test_a_login_name_is_measured_in_terminal_cells_as_a_typed_one(name: str, fits: bool) -> None:
    from yahtzee.net.server import is_seat_name
    assert is_seat_name(name) == fits


@pytest.mark.parametrize(("name", "content", "said"), [
    ("authorized_keys", "", None),  # an empty list lets nobody in by key, and says nothing
    ("authorized_keys", "# nobody yet\n\n", None),
    ("authorized_keys", "ssh-ed25519 not-a-key friend\n", "lists something that is not a public key"),
    ("ssh_host_key", "-----BEGIN OPENSSH PRIVATE KEY-----\ngarbage\n", "is damaged: move it away"),
    ("ssh_host_key", b"\x00\xff" * 10, "is damaged: move it away"),
])
def test_a_damaged_key_file_is_one_line_never_a_traceback(
        tmp_path: Path, name: str, content: Union[bytes, str], said: Optional[str]) -> None:
    from yahtzee.net.credentials import KeyFileProblem, table_credentials
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    if said is None:
        assert table_credentials(tmp_path).authorized is None
        return
    with pytest.raises(KeyFileProblem) as refused:
        table_credentials(tmp_path)
    assert said in text(refused.value.said) and str(path) in text(refused.value.said)


def test_a_linked_host_key_is_never_followed(tmp_path: Path) -> None:
    from yahtzee.net.credentials import KeyFileProblem, table_credentials
    table_credentials(tmp_path / "elsewhere")  # a real key, elsewhere
    (tmp_path / "ssh_host_key").symlink_to(tmp_path / "elsewhere" / "ssh_host_key")
    with pytest.raises(KeyFileProblem) as refused:
        table_credentials(tmp_path)
    assert "is not a file (a link or a folder is never followed)" in text(refused.value.said)


def test_hosting_with_a_damaged_host_key_says_so_in_one_line(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "ssh_host_key").write_text("damaged\n")
    term = Terminal("--saves", str(saves), "--host", "127.0.0.1:0")
    try:
        assert term.exit_code() == 2
        said = [line for line in term.raw.decode("utf-8", "replace").splitlines() if line.strip()]
        assert "Traceback" not in term.text and len(said) == 1 and "is damaged: move it away" in said[0], said
    finally:
        term.close()
