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
