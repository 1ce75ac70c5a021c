"""The JSON API of a game. Every answer is the game's state; errors are 4xx with a message.

POST bodies are JSON objects; CSRF applies as to any POST (send the X-CSRFToken header).
A POST reads the player's game locked and makes its writes in the same transaction
(changes.Write): the views parse the request and call one service.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Callable

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

import engine

from .. import sql
from ..accounts import limits
from ..accounts.players import YIELDED_KEY, current_player, preferences_for
from ..models import Game
from . import answers, changes, clock, finish, help
from .errors import GameError, NotFound, TooFast

MOVED = _("This game gave way to your account's game on the same puzzle when you logged in.")

NO_GAME = _("No such game.")


class BadRequest(GameError):
    """Input the API cannot read."""


def _game_for(request: HttpRequest, pk: int, *, lock: bool = False) -> Game:
    """The request's player's game, or 404 for anyone else's or none; with lock, its row
    locked until the transaction ends."""
    player = current_player(request)
    user_id = player.user.pk if player.user is not None else None
    game = sql.read_game(pk, user_id=user_id, guest_id=player.guest_id, lock=lock)
    if game is not None:
        return game
    if str(pk) in request.session.get(YIELDED_KEY, {}):
        raise NotFound(MOVED)
    raise NotFound(NO_GAME)


def _body(request: HttpRequest) -> dict:
    if not request.body:
        return {}
    try:
        body = json.loads(request.body, parse_constant=_not_json)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadRequest("The body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object.")
    return body


def _not_json(constant: str) -> None:
    """NaN, Infinity and -Infinity: Python's reader takes them, JSON has no such numbers."""
    raise ValueError(f"{constant} is not JSON")


def _integer(body: dict, name: str, low: int, high: int, *, default: int | None = None) -> int:
    value = body.get(name, default)
    if value is None:
        raise BadRequest(f"{name} is missing.")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"{name} must be a whole number from {low} to {high}.")
    return value


def _version(body: dict, game: Game) -> int:
    """The version the player saw; the current one when the request does not say."""
    return _integer(body, "version", 0, 2**31, default=game.version)


def game_endpoint(view: Callable, *, nested: bool = False) -> Callable:
    """Load the player's game, answer with its state (beside what the view adds, or under
    "state" when nested), turn GameError into a 4xx. A POST reads the game locked and runs
    the view in the same transaction, which its writes join; a GET reads it as it is."""

    @functools.wraps(view)
    @never_cache
    def wrapper(request: HttpRequest, pk: int) -> JsonResponse:
        prefs = preferences_for(request)
        locked = request.method == "POST"
        try:
            with transaction.atomic() if locked else contextlib.nullcontext():
                try:
                    game = _game_for(request, pk, lock=locked)
                except NotFound as error:
                    return JsonResponse({"error": str(error)}, status=404)
                extra = view(request, game, prefs) or {}
        except GameError as error:
            try:
                game.refresh_from_db()
            except Game.DoesNotExist:  # deleted meanwhile: it gave way at a log-in
                return JsonResponse({"error": NO_GAME}, status=404)
            body = {"error": str(error), "state": _state(request, game, prefs)}
            response = JsonResponse(body, status=error.status)
            if isinstance(error, TooFast):
                response["Retry-After"] = str(error.retry_after)
            return response
        if nested:
            game = extra.pop("game", game)
            return JsonResponse({"state": _state(request, game, prefs), **extra})
        return JsonResponse({**_state(request, game, prefs), **extra})

    return wrapper


def _state(request: HttpRequest, game: Game, prefs) -> dict:
    """The game's state, and for a game over where the end points the player next."""
    return answers.state(game, prefs) | finish.after(request, game)


@require_safe
@game_endpoint
def game_state(request, game, prefs):
    """GET /api/games/<id>"""


# The highest version a page can have seen (the database's integer).
MAX_VERSION = 2**31 - 1
NO_SINCE = "since must be given: the version of the game the page shows."


@require_safe
@never_cache
def game_news(request: HttpRequest, pk: int) -> HttpResponse:
    """GET /api/games/<id>/state?since=<version>: 204 while the game is in play at that
    version (one read of the game, no state worked out), else its state, as GET
    /api/games/<id> answers. A page in front asks every few seconds."""
    try:
        since = _query_integer(request, "since", 0, MAX_VERSION, -1)
        if since < 0:
            raise BadRequest(NO_SINCE)
        game = _game_for(request, pk)
    except GameError as error:
        return JsonResponse({"error": str(error)}, status=error.status)
    if game.version == since and game.status == Game.Status.PLAYING and not game.set_aside:
        return HttpResponse(status=204)
    return JsonResponse(answers.state(game, preferences_for(request)))


@require_POST
@game_endpoint
def moves(request, game, prefs):
    """POST /api/games/<id>/moves {"cell", "digit", "mode", "version"}"""
    body = _body(request)
    cell = _integer(body, "cell", 0, 80)
    digit = _integer(body, "digit", 0, 9)
    mode = body.get("mode", "value")
    if mode not in ("value", "note"):
        raise BadRequest('mode must be "value" or "note".')
    if "version" not in body:
        raise BadRequest("version is missing: send the version of the state you saw.")
    changes.move(game, cell, digit, mode, _version(body, game), prefs)


@require_POST
@game_endpoint
def undo(request, game, prefs):
    changes.undo(game, _version(_body(request), game))


@require_POST
@game_endpoint
def redo(request, game, prefs):
    changes.redo(game, _version(_body(request), game))


@require_POST
@game_endpoint
def fill_notes(request, game, prefs):
    """POST /api/games/<id>/fill-notes {"version"}: every empty cell's candidates."""
    changes.fill_notes(game, _version(_body(request), game))


@require_POST
@game_endpoint
def hint(request, game, prefs):
    """POST /api/games/<id>/hint {"level": 1-3, "version"}: the hint, nothing applied."""
    body = _body(request)
    level = _integer(body, "level", 1, 3, default=1)
    _, told = help.hint(game, level, _version(body, game), prefs)
    return {"hint": told}


@require_POST
@game_endpoint
def apply_hint(request, game, prefs):
    """POST /api/games/<id>/apply-hint {"version"}: the level-3 hint's step, carried out."""
    _, cell = help.apply_hint(game, _version(_body(request), game), prefs)
    return {"select": cell}


@require_POST
@game_endpoint
def reveal(request, game, prefs):
    body = _body(request)
    help.reveal(game, _integer(body, "cell", 0, 80), _version(body, game), prefs)


@require_POST
@game_endpoint
def check(request, game, prefs):
    return {"check": {"wrong": help.check(game)}}


@require_POST
@game_endpoint
def pause(request, game, prefs):
    clock.pause(game, _page(_body(request)))


@require_POST
@game_endpoint
def resume(request, game, prefs):
    clock.resume(game, _page(_body(request)))


PAGE = re.compile(r"([A-Za-z0-9_-]{8,40}):([0-9]{1,16})")


def _page(body: dict) -> str:
    """The page a clock call names: its device and the moment it opened (ms), or none."""
    page = body.get("page")
    if page is None:
        return ""
    if not isinstance(page, str) or not PAGE.fullmatch(page):
        raise BadRequest('page must be "<device>:<ms the page opened>".')
    return page


@require_POST
@game_endpoint
def give_up(request, game, prefs):
    help.give_up(game)


TOO_MANY_READS = _(
    "Too many replays and solving paths asked for from here in a short time; wait a few "
    "minutes and ask again."
)


def _costly(request: HttpRequest) -> None:
    """A read worked out from the database each time: limited per client and player."""
    limit = limits.used_up(request, limits.COSTLY_READ_PER_CLIENT, limits.COSTLY_READ_PER_ACCOUNT)
    if limit is not None:
        raise TooFast(TOO_MANY_READS, retry_after=limit.seconds)


@require_safe
@game_endpoint
def solution_path(request, game, prefs):
    """GET /api/games/<id>/path: the logical solve, once the game is over."""
    _costly(request)
    return {"path": help.solution_path(game)}


@require_safe
@game_endpoint
def replay(request, game, prefs):
    """GET /api/games/<id>/replay[?start=n&count=m]: the board after each of the player's
    moves, once the game is over, a page at a time: `count` frames (REPLAY_PAGE unless
    asked) from the `start`-th on."""
    _costly(request)
    total = game.moves_applied + 1
    start = _query_integer(request, "start", 0, total, 0)
    count = _query_integer(request, "count", 1, MAX_REPLAY_PAGE, REPLAY_PAGE)
    frames, total = answers.replay(game, start, count)
    after = start + count
    return {
        "frames": frames,
        "start": start,
        "total": total,
        "next": after if after < total else None,
    }


# The frames of a replay a request gets unless it asks for fewer or more, and the most.
REPLAY_PAGE = 100
MAX_REPLAY_PAGE = 1000


def _query_integer(request: HttpRequest, name: str, low: int, high: int, default: int) -> int:
    raw = request.GET.get(name)
    if raw is None:
        return default
    # Checked for length first: Python refuses to read a number of over 4,300 digits.
    fits = raw.isascii() and raw.isdigit() and len(raw) <= len(str(high))
    if not fits or not low <= int(raw) <= high:
        raise BadRequest(f"{name} must be a whole number from {low} to {high}.")
    return int(raw)


MAX_CHANGES = 200
DEVICE = re.compile(r"[A-Za-z0-9_-]{8,40}")
CHANGE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
KINDS = ("move", "undo", "redo", "fill-notes", "mark")
LAYERS = ("corner", "centre", "colour", "candidate")


@require_POST
@functools.partial(game_endpoint, nested=True)
def batch(request, game, prefs):
    """POST /api/games/<id>/changes {"device", "changes": [...]}: a page's queued changes,
    stored once each and merged cell by cell (changes.apply_changes). A strained site adds
    send_every, the cadence the page is to send on until an answer says nothing of it."""
    body = _body(request)
    device = body.get("device")
    if not isinstance(device, str) or not DEVICE.fullmatch(device):
        raise BadRequest("device must be 8 to 40 letters, digits, - or _.")
    queued = body.get("changes")
    if not isinstance(queued, list) or not 1 <= len(queued) <= MAX_CHANGES:
        raise BadRequest(f"changes must be a list of 1 to {MAX_CHANGES} changes.")
    read = [_change(change, game, n) for n, change in enumerate(queued, 1)]
    if len({change["id"] for change in read}) != len(read):
        raise BadRequest("Two changes in the batch have the same id.")
    game, applied, refused = changes.apply_changes(game, device, read, prefs)
    answer = {"game": game, "applied": applied, "refused": refused}
    if settings.BUSY_SEND_EVERY_MS and getattr(request, "strained", False):
        # The site's threads are all at work (site/shedding.py): send less often for now.
        answer["send_every"] = settings.BUSY_SEND_EVERY_MS
    return answer


def _change(change: object, game: Game, n: int) -> dict:
    """One change of a batch, read and checked; the batch is refused whole if any is bad."""
    try:
        return _read_change(change, game)
    except BadRequest as error:
        raise BadRequest(f"Change {n}: {error}") from None


def _read_change(change: object, game: Game) -> dict:
    if not isinstance(change, dict):
        raise BadRequest("send each change as a JSON object.")
    change_id = change.get("id")
    if not isinstance(change_id, str) or not CHANGE_ID.fullmatch(change_id):
        raise BadRequest("id must be 1 to 64 letters, digits, - or _.")
    kind = change.get("kind")
    if kind not in KINDS:
        raise BadRequest('kind must be "move", "undo", "redo", "fill-notes" or "mark".')
    at = change.get("at")
    if at is not None and (isinstance(at, bool) or not isinstance(at, (int, float)) or at < 0):
        raise BadRequest("at must be a time in milliseconds since 1970.")
    read = {"id": change_id, "kind": kind, "base": _integer(change, "base", 0, 2**31), "at": at}
    if kind == "mark":
        return read | _read_mark(change, game)
    if kind != "move":
        return read
    # One cell (`cell`), or several selected cells as one move (`cells`).
    cells = _read_cells(change) if "cells" in change else [_integer(change, "cell", 0, 80)]
    given = next((c for c in cells if game.puzzle.givens[c] != "0"), None)
    if given is not None:
        raise BadRequest(f"{engine.cell_name(given)} is a given and cannot change.")
    mode = change.get("mode", "value")
    if mode not in ("value", "note"):
        raise BadRequest('mode must be "value" or "note".')
    digit = _integer(change, "digit", 0, 9)
    return read | {"cell": cells[0], "cells": cells, "digit": digit, "mode": mode}


def _read_cells(change: dict) -> list[int]:
    """A change's `cells`: a list of 1 to 81 cells, each once."""
    cells = change.get("cells")
    if not isinstance(cells, list) or not 1 <= len(cells) <= 81:
        raise BadRequest("cells must be a list of 1 to 81 cells, each 0 to 80.")
    if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 80 for c in cells):
        raise BadRequest("cells must be a list of 1 to 81 cells, each 0 to 80.")
    if len(set(cells)) != len(cells):
        raise BadRequest("cells names a cell twice.")
    return cells


def _read_mark(change: dict, game: Game) -> dict:
    """A mark change's cells (a list, each once), layer, digit and colour. Corner and
    centre marks need a digit (0 clears the layer), a colour a colour (0 clears), a
    candidate's colour both (a digit 1-9, colour 0 clears it); only a colour goes on a
    given."""
    cells = _read_cells(change)
    layer = change.get("layer")
    if layer not in LAYERS:
        raise BadRequest('layer must be "corner", "centre", "colour" or "candidate".')
    digit = colour = 0
    if layer != "colour":
        digit = _integer(change, "digit", 1 if layer == "candidate" else 0, 9)
        given = next((c for c in cells if game.puzzle.givens[c] != "0"), None)
        if given is not None:
            raise BadRequest(f"{engine.cell_name(given)} is a given and takes no marks.")
    if layer in ("colour", "candidate"):
        colour = _integer(change, "colour", 0, 9)
    return {"cell": cells[0], "cells": cells, "layer": layer, "digit": digit, "colour": colour}
