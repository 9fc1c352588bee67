"""Every autosave a game writes resumes to the same end: a reference game is played in-process,
each saved moment is kept, and the game is resumed from every one of them."""
import io
import json
from pathlib import Path
from typing import Any, Optional

import pytest
from driver import answer
from helpers import PTY, run_game

from yahtzee.saves.store import Saves

pytestmark = pytest.mark.slow(11)

SEED = ["--seed", "11"]


class Answering(io.StringIO):
    """Standard input that answers each prompt from what the game has printed since the last."""

    def __init__(self, output: io.StringIO) -> None:
        super().__init__()
        self.output = output
        self.read_up_to = 0

    def readline(self, size: Optional[int] = -1, /) -> str:  # type: ignore[override]  # (typeshed: _IOBase's gives bytes)
        shown = self.output.getvalue()[self.read_up_to:]
        self.read_up_to = len(self.output.getvalue())
        prompt = shown.rsplit("\n", 1)[-1]
        if not prompt.endswith("> "):
            return ""  # no question: the input ends
        return answer(prompt[:-2], shown) + "\n"


def play(
        saves: Path, monkeypatch: pytest.MonkeyPatch,
        *options: Any) -> tuple[list[dict[str, Any]], str]:
    """Play the driver's two-player game against a computer, in-process; its history."""
    output = io.StringIO()
    done = run_game(["--plain", "--saves", str(saves), *options], in_process=True,
                    stdin=Answering(output), stdout=output)
    assert done.returncode == 0, done.stderr
    lines = (saves / "history.jsonl").read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k != "finished"} for line in lines], output.getvalue()


@pytest.fixture(scope="module")
def reference(
        tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], list[bytes]]:
    """The uninterrupted game's record and every autosave it wrote, in order."""
    monkeypatch = pytest.MonkeyPatch()
    saves = tmp_path_factory.mktemp("reference")
    moments = []
    write = Saves.save_session

    def kept(self: Any, session: Any, resume: Any) -> Any:
        written = write(self, session, resume)
        moments.append((saves / "autosave.json").read_bytes())
        return written

    monkeypatch.setattr(Saves, "save_session", kept)
    try:
        records, _ = play(saves, monkeypatch, *SEED)
    finally:
        monkeypatch.undo()
    return records, moments


@pytest.mark.posix(reason=PTY)
def test_the_reference_game_writes_a_save_at_every_step(
        reference: tuple[list[dict[str, Any]], list[bytes]]) -> None:
    records, moments = reference
    assert len(records) == 1 and len(moments) > 100
    assert len(set(moments)) == len(moments)  # never the same save twice in a row


class Stepped(BaseException):
    """The resumed game has taken its one step (not an Exception: the game would take it for a
    fault of its own while resuming, and start anew)."""


def saved(data: bytes) -> dict:
    """A saved game as data, the times it was written and its games finished left out."""
    document = {k: v for k, v in json.loads(data).items() if k != "saved"}
    for record in document["results"]:
        record.pop("finished")
    return document


def test_every_saved_moment_resumes_to_exactly_the_next_one(
        reference: tuple[list[dict[str, Any]], list[bytes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, moments = reference
    write = Saves.save_session
    monkeypatch.setattr("os.fsync", lambda fd: None)  # durability is the SIGKILL runs' to check
    for number, (moment, following) in enumerate(zip(moments, moments[1:])):
        saves = tmp_path / f"moment{number}"
        saves.mkdir()
        (saves / "autosave.json").write_bytes(moment)
        written: list[bytes] = []

        def one_step(self: Any, session: Any, resume: Any, written: Any = written, saves: Any = saves) -> Any:
            write(self, session, resume)
            written.append(saved((saves / "autosave.json").read_bytes()))
            if len(written) == 2:  # the resumed moment itself, then the step after it
                raise Stepped()
            return True

        monkeypatch.setattr(Saves, "save_session", one_step)
        with pytest.raises(Stepped):
            play(saves, monkeypatch, "--seed", "99")
        assert written == [saved(moment), saved(following)], number


@pytest.mark.parametrize("number", [0, 1, 2, 57, 150, -2, -1])
def test_a_game_resumed_from_a_saved_moment_finishes_as_the_game_never_stopped(
        reference: tuple[list[dict[str, Any]], list[bytes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        number: int) -> None:
    (record,), moments = reference
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "autosave.json").write_bytes(moments[number])
    records, out = play(saves, monkeypatch, "--seed", "99")
    assert "Resume the saved game? (Y/N)" in out
    assert records == [record]
    assert not (saves / "autosave.json").exists()
