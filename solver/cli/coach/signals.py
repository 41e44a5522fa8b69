"""Stopping the coach on hang-up, SIGTERM or Ctrl-C, even at the prompt.

Python runs a signal's handler in the main thread, between its bytecodes.
While ``input`` waits for a key, readline sits in ``select``, which a
signal interrupts, and the handler runs at once.  But a signal that comes
while readline is still drawing the prompt, before that wait, is only
noted: the wait that follows is not interrupted, and the handler ran after
the next Enter (or, run from inside a readline hook, its exception was
dropped).  A player's Ctrl-C, a closed terminal or a shutdown was then
ignored.

``stopping`` installs the handler for the three signals and a small
thread woken by each of them (``signal.set_wakeup_fd``): while the main
thread still waits at the prompt (``waiting``, which ``read_line`` holds),
the thread sends the signal again to the main thread every 50 ms, so the
wait ends, and the handler runs, within that time.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from typing import Callable, Iterator

SIGNALS = (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)
AGAIN_SECONDS = 0.05        # how often a signal is sent again while the prompt waits
AGAIN_TIMES = 100           # and for how long at most (5 s)

WAITING = threading.Event()     # set while the main thread waits for a line


@contextlib.contextmanager
def waiting() -> Iterator[None]:
    """Mark the main thread as waiting for the player's line."""
    WAITING.set()
    try:
        yield
    finally:
        WAITING.clear()


@contextlib.contextmanager
def stopping(handler: Callable[[int, object], None]) -> Iterator[None]:
    """Run the block with ``handler`` on the three signals, which reach it
    even when they come as the prompt is drawn; the old handlers after."""
    main = threading.main_thread().ident
    fired = threading.Event()       # the handler was called once
    closing = threading.Event()     # the block has ended: signals are no longer ours

    def on_signal(signum: int, frame: object) -> None:
        # a signal sent again after the stop left the prompt is not a second stop
        if closing.is_set() or (fired.is_set() and not WAITING.is_set()):
            return
        fired.set()
        handler(signum, frame)

    def again(woken: int) -> None:
        while True:
            data = os.read(woken, 64)
            if not data:                    # the block ended: the pipe is closed
                return
            ours = [n for n in data if n in SIGNALS]       # not a resize (SIGWINCH)
            if not ours:
                continue
            for _ in range(AGAIN_TIMES):
                if closing.wait(AGAIN_SECONDS) or not WAITING.is_set():
                    break
                signal.pthread_kill(main, ours[-1])

    woken, wake = os.pipe()
    os.set_blocking(wake, False)
    old = {sig: signal.signal(sig, on_signal) for sig in SIGNALS}
    old_wake = signal.set_wakeup_fd(wake, warn_on_full_buffer=False)
    thread = threading.Thread(target=again, args=(woken,), name="signals", daemon=True)
    thread.start()
    try:
        yield
    finally:
        closing.set()
        signal.set_wakeup_fd(old_wake)
        os.close(wake)
        thread.join()
        os.close(woken)
        for sig, before in old.items():
            signal.signal(sig, before)
