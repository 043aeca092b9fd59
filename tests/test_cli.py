from firmware_py.cli import COMMANDS, main


def test_usage_lists_every_command(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_refused_with_usage(capsys):
    assert main(["fly"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'fly'" in err
    assert "replay" in err


def test_output_cut_short_by_the_reader_is_not_a_traceback(tmp_path):
    import subprocess
    import sys

    record = tmp_path / "game.json"
    out = tmp_path / "simulated.json"
    subprocess.run(
        [sys.executable, "-m", "firmware_py.cli", "simulate", "--games", "1", "--players", "4",
         "--rules", "classic", "--rounds", "1", "--record", str(out)],
        check=True, capture_output=True,
    )
    record.write_text(out.read_text())
    # `head -c 1` closes the pipe after one byte, while replay is still writing.
    proc = subprocess.run(
        f"{sys.executable} -m firmware_py.cli replay {record} | head -c 1",
        shell=True, capture_output=True, text=True,
    )
    assert "Traceback" not in proc.stderr


def test_version_says_whether_the_engine_runs_compiled(capsys):
    import importlib.util

    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    # The engine module the interpreter loads is the .py file, or mypyc's extension.
    origin = importlib.util.find_spec("firmware_py.rules.engine").origin
    build = "pure" if origin.endswith(".py") else "compiled"
    from roundhouse import __version__

    assert out == f"roundhouse {__version__} (rules engine: {build})\n"


def test_display_help_names_the_league_wall_and_its_options(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["display", "--help"])
    said = capsys.readouterr().out
    assert "--view {speech,table,wall}" in said
    league = said.partition("--view league takes options of its own")[2]
    for option in ("--broker HOST:PORT", "--username", "--password-file", "--cafile",
                   "--qr URL", "--frames DIR"):
        assert option in league


def test_every_command_tells_its_options(capsys):
    # Each command's module is imported only when that command runs: each must still
    # be found and build its options.
    import pytest

    for name in COMMANDS:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0, name
        assert capsys.readouterr().out.startswith(f"usage: roundhouse {name} "), name
