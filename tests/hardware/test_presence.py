from hardware.rfid.presence import Presence
from hardware.rfid.protocol import Arrived, Left, Seen


def test_a_repeated_tag_is_placed_once_and_removed_after_its_silence():
    presence = Presence(0.3)
    assert presence.update(Seen("AA01"), 0.0) == ("placed", "AA01")
    assert presence.update(Seen("AA01"), 0.1) is None
    assert presence.update(Seen("AA01"), 0.2) is None
    assert presence.expire(0.45) == []
    assert presence.expire(0.5) == ["AA01"]
    assert presence.update(Seen("AA01"), 0.6) == ("placed", "AA01")


def test_two_tags_on_one_pad_are_tracked_apart():
    presence = Presence(0.3)
    assert presence.update(Seen("AA01"), 0.0) == ("placed", "AA01")
    assert presence.update(Seen("BB02"), 0.1) == ("placed", "BB02")
    assert presence.update(Seen("BB02"), 0.3) is None
    assert presence.expire(0.35) == ["AA01"]
    assert presence.expire(0.65) == ["BB02"]


def test_announced_tags_stay_until_announced_gone():
    presence = Presence(0.3)
    assert presence.update(Arrived("AA01"), 0.0) == ("placed", "AA01")
    assert presence.update(Seen("AA01"), 0.1) is None
    assert presence.expire(10.0) == []
    assert not presence.expiring
    assert presence.update(Left("AA01"), 11.0) == ("removed", "AA01")
    assert presence.update(Left("AA01"), 11.1) is None


def test_a_seen_tag_said_gone_is_removed_at_once():
    presence = Presence(0.3)
    presence.update(Seen("AA01"), 0.0)
    assert presence.update(Left("AA01"), 0.1) == ("removed", "AA01")
    assert presence.expire(1.0) == []


def test_restart_gives_every_tag_a_full_removal_time_again():
    presence = Presence(0.3)
    presence.update(Seen("AA01"), 0.0)
    presence.restart(5.0)
    assert presence.expire(5.2) == []
    assert presence.expire(5.31) == ["AA01"]


def test_an_announced_tag_announced_again_after_a_reconnection_stays_placed():
    presence = Presence(0.3, reannounce_s=2.0)
    presence.update(Arrived("AA01"), 0.0)
    presence.restart(5.0)
    assert presence.expiring
    assert presence.update(Arrived("AA01"), 6.0) is None  # a hub that restarted says it again
    assert presence.expire(100.0) == []
    assert presence.update(Left("AA01"), 101.0) == ("removed", "AA01")


def test_an_announced_tag_not_announced_again_after_a_reconnection_is_removed():
    # A hub that restarted with its cable never says -UID for what it announced before.
    presence = Presence(0.3, reannounce_s=2.0)
    presence.update(Arrived("AA01"), 0.0)
    presence.restart(5.0)
    assert presence.expire(6.9) == []
    assert presence.expire(7.0) == ["AA01"]
    # Laid back, it is placed again.
    assert presence.update(Arrived("AA01"), 8.0) == ("placed", "AA01")
