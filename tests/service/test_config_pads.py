"""What a pad's reader can do, checked before the table starts: markers, UID sizes."""

from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.config import ConfigError, example_config, load_config

SEATS = "".join(
    f'[[seats]]\nname = "{name}"\ndraw_pin = {d}\npass_pin = {p}\n\n'
    for name, d, p in [("Ana", 4, 5), ("Bo", 6, 12)]
)


def reader(pad: str, protocol: str, extra: str = "") -> str:
    return (f'[[readers]]\npad = "{pad}"\nurl = "/dev/roundhouse/pad-{pad}"\n'
            f'protocol = "{protocol}"\n{extra}\n')


def problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "table.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return list(info.value.problems)


def test_marker_sensing_is_refused_on_a_reader_that_reads_one_tag_at_a_time(tmp_path, capsys):
    path = tmp_path / "table.toml"
    path.write_text(SEATS + reader("0", "rdm6300", "markers = true") + reader("1", "pn532"))
    assert main(["check-config", str(path)]) == 2
    err = capsys.readouterr().err
    assert "readers[0].markers" in err
    assert "one tag at a time" in err and "pn532" in err


def test_marker_sensing_is_a_property_of_each_pad(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(SEATS + reader("0", "pn532", "markers = true") + reader("1", "rdm6300")
                    + reader("mexican", "pn532"))
    config = load_config(path)
    assert [(r.pad, r.markers) for r in config.readers] == [
        ("0", True), ("1", False), ("mexican", False)]


def test_a_marker_setting_that_is_not_true_or_false_is_named(tmp_path):
    assert problems(tmp_path, SEATS + reader("0", "pn532", 'markers = "yes"')) == [
        f'{tmp_path / "table.toml"}: readers[0].markers: expected true or false, got "yes"']


def test_uid_sizes_are_for_line_readers_and_must_be_sizes_of_tags(tmp_path):
    found = problems(tmp_path, SEATS + reader("0", "lines", "uid_bytes = [4, 6]")
                     + reader("1", "rdm6300", "uid_bytes = [5]"))
    assert [p.split(": ")[1] for p in found] == ["readers[0].uid_bytes", "readers[1].uid_bytes"]
    assert "among 4, 5, 7, 8, 10" in found[0]
    assert 'only for a "lines" reader' in found[1]
    path = tmp_path / "ok.toml"
    path.write_text(SEATS + reader("0", "lines", "uid_bytes = [8, 4]"))
    assert load_config(path).readers[0].uid_bytes == (4, 8)


def test_the_shipped_pn532_table_senses_markers_on_every_train_pad(capsys):
    path = example_config("table-pn532")
    config = load_config(path)
    assert {r.protocol for r in config.readers} == {"pn532"}
    assert all(r.markers for r in config.readers)
    assert len(config.readers) == len(config.seats) + 1
    assert main(["check-config", str(path)]) == 0
    assert "(markers)" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["table-4", "table-8", "sim"])
def test_the_shipped_rdm6300_tables_do_not_sense_markers(name):
    config = load_config(example_config(name))
    assert not any(r.markers for r in config.readers)


def test_a_keyboard_reader_cannot_sense_markers(tmp_path):
    found = problems(tmp_path, SEATS + reader("0", "keyboard", "markers = true"))
    assert len(found) == 1 and "readers[0].markers" in found[0]
    assert "one tag at a time" in found[0]


def test_an_rdm6300_removal_time_shorter_than_its_repeats_is_refused(tmp_path):
    found = problems(tmp_path, SEATS + reader("0", "rdm6300", "removal_ms = 100"))
    assert found == [f"{tmp_path / 'table.toml'}: readers[0].removal_ms: expected "
                     "milliseconds 200..5000, got 100"]
