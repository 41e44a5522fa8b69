"""``yatzy serve``: the advisor as a web page for the phone on the table.

``app.create_app`` builds a Starlette application: the page (``static/``:
``index.html``, its ES modules (``main.js`` and the modules it imports),
``style.css``, nothing fetched from outside; the words from ``/words.json``)
and a JSON API under ``/api/`` described by ``/openapi.json``
(``openapi.DOCUMENT``).  The server keeps no games: the page holds the
``Game`` JSON (``Game.to_dict``) in the browser's storage and posts it with
each move; the server replays it (``Game.from_dict``, every move checked),
plays the move and answers with the new game, its protokoll and the advice.

Everything here imports Starlette, so the command line imports this package
only inside ``yatzy serve``.
"""
