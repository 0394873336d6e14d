"""An error names a parameter as its caller gave it: ``memory_limit=``, ``force=True`` to Python (``Database.solve(...)``,
``make_game(...)``), ``--memory-limit``, ``--force`` on the command line (the error keeps both, :func:`gamedb.errors.param`)."""

import pickle

import pytest

from gamedb import Database, make_game
from gamedb.errors import GamedbError, InputError, command_line_text, marked_text, param, said_as


def test_a_parameter_reads_as_python_and_as_a_flag():
    cases = [
        (param("memory_limit"), "memory_limit=", "--memory-limit"),
        (param("strategy", "auto"), "strategy='auto'", "--strategy auto"),
        (param("code", "0.9", quote=True), "code='0.9'", "--code '0.9'"),
        (param("force", True), "force=True", "--force"),
        (param("symmetry", False), "symmetry=False", "--no-symmetry"),
        (param("max", 5), "max=5", "--max 5"),
        (said_as("with cluster=None", "without --workers"), "with cluster=None", "without --workers"),
    ]
    for said, python, command_line in cases:
        error = InputError(f"use {said}, or not")
        assert str(error) == f"use {python}, or not" and error.args == (f"use {python}, or not",)
        assert command_line_text(error) == f"use {command_line}, or not"
    plain = GamedbError("no parameter")
    assert str(plain) == command_line_text(plain) == marked_text(plain) == "no parameter"


def test_both_texts_survive_pickling_and_a_wrapped_message():
    error = InputError(f"{param('workers')} must be 1 or more")
    back = pickle.loads(pickle.dumps(error))  # (a cluster worker's error comes back pickled)
    assert str(back) == "workers= must be 1 or more" and command_line_text(back) == "--workers must be 1 or more"
    wrapped = GamedbError(f"game 'x': {marked_text(error)}")
    assert str(wrapped) == "game 'x': workers= must be 1 or more" and command_line_text(wrapped) == "game 'x': --workers must be 1 or more"


@pytest.fixture
def db(tmp_path):
    with Database(tmp_path / "p.sqlite", create=True) as database:
        database.solve(make_game("nim", max=5))
        yield database


@pytest.mark.parametrize(("call", "said"), [
    (lambda db: db.solve(make_game("nim", max=6), name="nim"), "choose another name=, or force=True to replace it"),
    (lambda db: db.solve(make_game("tictactoe"), name=" "), "a game's name (name=) must not be empty or blank"),
    (lambda db: db.solve(make_game("tictactoe"), strategy="bogus"), "strategy= must be one of auto,"),
    (lambda db: db.solve(make_game("tictactoe"), memory_limit="lots"), "memory_limit= must be a size such as 2G"),
    (lambda db: db.solve(make_game("connect4"), memory_limit=1 << 20, strategy="memory"),
     "but memory_limit= is 1.0 MB; use strategy='sql' (or auto), or a larger memory_limit="),
    (lambda db: db.solve(make_game("nim", max=5), symmetry=True), "symmetry=True: the nim family declares no symmetries"),
    (lambda db: db.probe("nim", "9"), "heap 9 is larger than max=5 of game 'nim'"),
    (lambda db: db.probe("nim", "9"), "solve again with a larger max="),
    (lambda db: make_game("connect4", connect=5), "connect=5 cannot fit on a 4x4 board"),
    (lambda db: make_game("connect4", width=0), "width= must be at least 1"),
    (lambda db: make_game("octal", code="0.9"), "code='0.9': '9' is not an octal digit"),
    (lambda db: make_game("dobutsu", pieces="GX"), "pieces= must be letters among G, E, C"),
    (lambda db: make_game("cat-mouse-grid", grid="M.C,..F"), """e.g. grid='["M.C","..F"]'"""),
])
def test_a_python_caller_reads_the_names_it_passed(db, call, said):
    with pytest.raises(GamedbError) as caught:
        call(db)
    assert said in str(caught.value), str(caught.value)
    assert " --" not in str(caught.value) and not str(caught.value).startswith("--")


def test_a_copy_refused_names_force_as_python_does(db, tmp_path):
    with Database(tmp_path / "q.sqlite", create=True) as other:
        other.solve(make_game("nim", max=4), "nim")  # another game under the name (the same one may count as copied)
        with pytest.raises(GamedbError, match="; force=True replaces them"):
            db.copy_to(other)


def test_the_command_line_still_names_its_flags(cli):
    assert cli("solve", "nim", "--max", "5", "-q").exit_code == 0
    cases = [
        (["solve", "nim", "--max", "6", "--name", "nim"], "choose another --name, or --force to replace it"),
        (["solve", "connect4", "--strategy", "memory", "--memory-limit", "1M"],
         "but --memory-limit is 1.0 MB; use --strategy sql (or auto), or a larger --memory-limit\n"),
        (["solve", "tictactoe", "--memory-limit", "lots"], "Error: --memory-limit must be a size such as 2G"),
        (["solve", "nim", "--max", "5", "--symmetry"], "Error: --symmetry: the nim family declares no symmetries"),
        (["solve", "connect4", "--connect", "5"], "Error: --connect 5 cannot fit on a 4x4 board"),
        (["solve", "octal", "--code", "0.9"], "Error: --code '0.9': '9' is not an octal digit"),
        (["query", "nim", "9"], "larger than --max 5 of game 'nim'"),
        (["query", "nim", "9"], "solve again with a larger --max\n"),
    ]
    for args, said in cases:
        run = cli(*args)
        assert run.exit_code in (1, 2) and said in run.stderr, (args, run.stderr)
        assert "=" not in run.stderr.replace("==", ""), (args, run.stderr)
    lines = cli("query", "nim", "-", "--format", "jsonl", input="9\n")  # an error in its place in a stream: as the command line says it
    assert "larger than --max 5" in lines.stdout, lines.stdout
