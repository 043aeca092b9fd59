"""`roundhouse sim`: the command's answers to bad arguments, and a whole headless run."""

from __future__ import annotations

from firmware_py.cli import main


def test_bad_arguments_are_one_line_and_exit_2(capsys):
    assert main(["sim", "--seats", "1"]) == 2
    assert capsys.readouterr().err.strip() == "roundhouse sim: --seats takes 2 to 14, got 1"
    assert main(["sim", "--seats", "3", "--rules", "simple"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("roundhouse sim: --rules/--rounds/--seats: simple rules")
    assert "\n" not in err
    assert main(["sim", "--rules", "nosuch"]) == 2
    assert 'unknown preset "nosuch"' in capsys.readouterr().err
