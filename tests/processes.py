"""Child processes that a test interrupts as a terminal would."""

import signal


def ctrl_c_as_a_terminal() -> None:
    """In the child, before it runs: SIGINT delivered as in a terminal's foreground job (its default action).

    A suite started as a background job of a shell without job control hands its children SIGINT *ignored*, and
    an ignored signal stays ignored across exec: the command under test would never see the Ctrl-C the test sends.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
