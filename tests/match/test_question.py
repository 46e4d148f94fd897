"""The abandon question on its own (sensehat_c4/match/question.py): who it hears, its blink, when it gives up."""
from gamelib.backends.base import STICK
from sensehat_c4.match.question import Question


def test_the_question_blinks_from_dark_until_its_timeout_and_hears_the_stick_and_its_asker():
    question = Question(timeout=5.0)
    question.ask("phone-2", 10.0, thinking=True)
    assert (question.hears(STICK), question.hears("phone-2"), question.hears("phone-1")) == (True, True, False)
    assert question.thinking is True
    assert [question.blink(t) for t in (10.0, 10.25, 10.5, 14.99, 15.0)] == [True, False, True, False, None]
    question.ask(STICK, 20.0, thinking=False)     # asked again: dark first, a new timeout, the new asker
    assert (question.blink(20.0), question.blink(24.9), question.blink(25.0)) == (True, False, None)
    assert (question.hears("phone-2"), question.thinking) == (False, False)
