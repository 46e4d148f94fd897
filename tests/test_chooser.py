"""The opponent chooser: browsing at a steady pace, choosing, backing out."""
from gamelib.backends.mock import MockBackend
from gamelib.colours import BLACK
from sensehat_c4.chooser import choice_frame, choose_opponent


def test_the_chooser_steps_at_a_steady_pace_while_right_is_held():
    mock = MockBackend()
    mock.hold("right", 0.6)                        # press, then held at 0.25, 0.30 ... 0.55 s
    mock.tap("middle")
    assert choose_opponent(mock) == "perfect"      # 2P -> 1 (press), 2, 3, 4 (held at 0.25, 0.40, 0.55)
    assert [f for _, f in mock.frames][:5] == [tuple(choice_frame(i)) for i in range(5)]


def test_down_or_middle_chooses_up_backs_out_and_each_clears_the_leds():
    for direction, expected in (("down", "easy"), ("middle", "easy"), ("up", None)):
        mock = MockBackend()
        mock.tap("right", direction)
        assert choose_opponent(mock) == expected
        assert [f for _, f in mock.frames] == [tuple(choice_frame(0)), tuple(choice_frame(1)), (BLACK,) * 64]


def test_it_starts_from_the_default():
    mock = MockBackend()
    mock.tap("left", "middle")
    assert choose_opponent(mock, "hard") == "medium"
    assert [f for _, f in mock.frames][:2] == [tuple(choice_frame(3)), tuple(choice_frame(2))]
