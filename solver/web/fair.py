"""Fair shares of the server's CPU among its clients (``Fair``, ASGI
middleware).

* **Heavy routes queue per client.**  A request to a route that costs
  real work (``HEAVY``: a final-score distribution, advice, a Practice
  build, any post of a one-page game's state) waits until the same
  client's previous heavy request has been answered; at most
  ``WAITING`` of one client's wait (429 ``busy`` past that).  Each client
  so has one heavy request running at a time, and another client's waits
  behind at most one of it.  A client's next heavy request starts only
  once its last one's time is at most ``SHARE`` of the time since (it
  waits up to ``MAX_PAUSE``): one client asking without a pause takes a
  third of the server, not all of it; a person, who reads between two
  moves, never waits for it.
* **A rate on every writing route.**  ``POST``, ``PUT``, ``PATCH`` and
  ``DELETE`` take a token from the client's bucket (``WRITES``: a rate a
  second and a burst; 429 ``rate`` with ``Retry-After`` past it).

* **Heavy work at a lower priority.**  A computation moved to a worker
  thread (a distribution) runs there at a lower CPU priority
  (``background``), so the moves of the event loop go first.

The client is the request's address (``yatzy.web.guard.CLIENT``, set by
the guard before this runs).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor

from yatzy.web.guard import CHANGING, retry_after

HEAVY = re.compile(r"/api/(distribution|advise|puzzles|puzzle/answer|practice/.*|game/.*|"
                   r"history)")
WAITING = 4                  # heavy requests of one client waiting at once
SHARE = 1 / 3                # of the time, at most, one client's heavy requests take
MAX_PAUSE = 2.0              # seconds, at most, a heavy request waits for its client's share
WRITES = (20.0, 60.0)        # writing requests of one client: a second, at once
CLIENTS_KEPT = 10_000        # buckets kept (the least recently used forgotten first)


class Bucket:
    """A token bucket per key: ``rate`` a second, ``burst`` at once.

    >>> b = Bucket(1.0, 2.0)
    >>> [b.take("a") for _ in range(3)][:2], b.take("b")
    ([0.0, 0.0], 0.0)
    """

    def __init__(self, rate: float, burst: float, most: int = CLIENTS_KEPT):
        self.rate, self.burst, self.most = rate, burst, most
        self.tokens: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        """Take a token for ``key``: 0.0, or the seconds until one is there
        (nothing taken)."""
        now = time.monotonic()
        tokens, at = self.tokens.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self.tokens[key] = (tokens, now)
            return (1 - tokens) / self.rate
        self.tokens[key] = (tokens - 1, now)
        while len(self.tokens) > self.most:
            del self.tokens[next(iter(self.tokens))]
        return 0.0


class Fair:
    """ASGI middleware: heavy routes queued per client, writes rated."""

    def __init__(self, app, *, writes: tuple[float, float] = WRITES, waiting: int = WAITING,
                 client=None):
        self.app, self.waiting = app, waiting
        self.writes = Bucket(*writes)
        self.queues: dict[str, tuple[asyncio.Lock, int]] = {}
        self.rested: dict[str, float] = {}      # client -> when its next heavy request may start
        self.client = client

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        client = self.client() if self.client else (scope.get("client") or ("?",))[0]
        if scope["method"] in CHANGING:
            wait = self.writes.take(client)
            if wait:
                return await refuse(send, 429, "too many changes from this address; wait "
                                               "a moment", "rate", wait)
        if not HEAVY.fullmatch(scope.get("path", "")):
            return await self.app(scope, receive, send)
        lock, queued = self.queues.get(client, (None, 0))
        if queued > self.waiting:
            return await refuse(send, 429, "this address has requests waiting already; "
                                           "wait for their answers", "busy", 1.0)
        lock = lock or asyncio.Lock()
        self.queues[client] = (lock, queued + 1)
        try:
            async with lock:
                pause = self.rested.get(client, 0.0) - time.monotonic()
                if pause > 0:
                    await asyncio.sleep(min(pause, MAX_PAUSE))
                start = time.monotonic()
                try:
                    await self.app(scope, receive, send)
                finally:
                    now = time.monotonic()
                    self.rested[client] = now + (now - start) * (1 / SHARE - 1)
                    while len(self.rested) > CLIENTS_KEPT:
                        del self.rested[next(iter(self.rested))]
        finally:
            lock, queued = self.queues[client]
            if queued <= 1:
                del self.queues[client]
            else:
                self.queues[client] = (lock, queued - 1)


class Turns:
    """One worker thread that clients take in turns: each client's calls
    wait in a queue of its own, and the thread takes the next call of each
    client with calls waiting, round robin.  One client's many calls (an
    attacker's event streams opened at once) so delay another client's call
    by one call each, not all of them.

    >>> async def main():
    ...     turns, order = Turns("t"), []
    ...     calls = [turns.run(c, order.append, c + str(i))
    ...              for c, i in [("x", 0), ("a", 1), ("a", 2), ("a", 3), ("b", 1)]]
    ...     await asyncio.gather(*calls)
    ...     return order
    >>> asyncio.run(main())            # b waits for x0 and a1, not for a2 and a3
    ['x0', 'a1', 'b1', 'a2', 'a3']
    """

    def __init__(self, name: str):
        self.pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        self.queues: OrderedDict[str, deque] = OrderedDict()
        self.busy = False

    async def run(self, client: str, fn, *args):
        """``fn(*args)`` in the thread, in ``client``'s turn."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self.queues.setdefault(client, deque()).append((fn, args, done))
        self._next(loop)
        return await done

    def _next(self, loop: asyncio.AbstractEventLoop) -> None:
        while not self.busy and self.queues:
            client, queue = next(iter(self.queues.items()))
            fn, args, done = queue.popleft()
            if queue:
                self.queues.move_to_end(client)
            else:
                del self.queues[client]
            if done.cancelled():
                continue
            self.busy = True
            work = self.pool.submit(fn, *args)
            work.add_done_callback(
                lambda w, done=done: loop.call_soon_threadsafe(self._finish, loop, w, done))

    def _finish(self, loop: asyncio.AbstractEventLoop, work, done: asyncio.Future) -> None:
        self.busy = False
        if not done.cancelled():
            problem = work.exception()
            if problem is not None:
                done.set_exception(problem)
            else:
                done.set_result(work.result())
        self._next(loop)


BACKGROUND_NICE = 10        # the CPU priority of heavy work's threads (Linux: per thread)


def background(fn):
    """``fn`` run at a lower CPU priority (its thread's nice value raised to
    ``BACKGROUND_NICE``, where the system allows it), so that a heavy
    computation in a worker thread yields the CPU to the moves of the
    event loop.  The worker thread stays lowered: all of it is
    background work.

    >>> background(sum)([1, 2, 3])
    6
    """
    def lowered(*args, **kwargs):
        try:
            tid = threading.get_native_id()
            if os.getpriority(os.PRIO_PROCESS, tid) < BACKGROUND_NICE:
                os.setpriority(os.PRIO_PROCESS, tid, BACKGROUND_NICE)
        except (AttributeError, OSError):
            pass
        return fn(*args, **kwargs)
    return lowered


async def refuse(send, status: int, text: str, code: str, wait: float) -> None:
    body = json.dumps({"error": text, "code": code}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", retry_after(wait).encode())]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["BACKGROUND_NICE", "Bucket", "Fair", "HEAVY", "SHARE", "Turns", "WAITING", "WRITES",
           "background"]
