"""The JSON API of a game. Every answer is the game's state; errors are 4xx with a message.

POST bodies are JSON objects; CSRF applies as to any POST (send the X-CSRFToken header).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from ..accounts.players import YIELDED_KEY, current_player, preferences_for
from ..models import Game
from . import games

MOVED = "This game gave way to your account's game on the same puzzle when you logged in."


class BadRequest(games.GameError):
    """Input the API cannot read."""


def _game_for(request: HttpRequest, pk: int) -> Game:
    """The request's player's game, or 404 for anyone else's or none."""
    try:
        return current_player(request).all_games().select_related("puzzle", "daily").get(pk=pk)
    except Game.DoesNotExist:
        if str(pk) in request.session.get(YIELDED_KEY, {}):
            raise games.NotFound(MOVED) from None
        raise games.NotFound("No such game.") from None


def _body(request: HttpRequest) -> dict:
    if not request.body:
        return {}
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadRequest("The body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object.")
    return body


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


def game_endpoint(view: Callable) -> Callable:
    """Load the player's game, answer with its state, turn GameError into a 4xx."""

    @functools.wraps(view)
    @never_cache
    def wrapper(request: HttpRequest, pk: int) -> JsonResponse:
        prefs = preferences_for(request)
        try:
            game = _game_for(request, pk)
        except games.NotFound as error:
            return JsonResponse({"error": str(error)}, status=404)
        try:
            extra = view(request, game, prefs) or {}
        except games.GameError as error:
            try:
                game.refresh_from_db()
            except Game.DoesNotExist:  # deleted meanwhile: it gave way at a log-in
                return JsonResponse({"error": "No such game."}, status=404)
            body = {"error": str(error), "state": games.state(game, prefs)}
            return JsonResponse(body, status=error.status)
        return JsonResponse({**games.state(game, prefs), **extra})

    return wrapper


@require_safe
@game_endpoint
def game_state(request, game, prefs):
    """GET /api/games/<id>"""


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
    games.move(game, cell, digit, mode, _version(body, game), prefs)


@require_POST
@game_endpoint
def undo(request, game, prefs):
    games.undo(game, _version(_body(request), game))


@require_POST
@game_endpoint
def redo(request, game, prefs):
    games.redo(game, _version(_body(request), game))


@require_POST
@game_endpoint
def fill_notes(request, game, prefs):
    """POST /api/games/<id>/fill-notes {"version"}: every empty cell's candidates."""
    games.fill_notes(game, _version(_body(request), game))


@require_POST
@game_endpoint
def hint(request, game, prefs):
    """POST /api/games/<id>/hint {"level": 1-3, "version"}: the hint, nothing applied."""
    body = _body(request)
    level = _integer(body, "level", 1, 3, default=1)
    _, told = games.hint(game, level, _version(body, game), prefs)
    return {"hint": told}


@require_POST
@game_endpoint
def apply_hint(request, game, prefs):
    """POST /api/games/<id>/apply-hint {"version"}: the level-3 hint's step, carried out."""
    _, cell = games.apply_hint(game, _version(_body(request), game), prefs)
    return {"select": cell}


@require_POST
@game_endpoint
def reveal(request, game, prefs):
    body = _body(request)
    games.reveal(game, _integer(body, "cell", 0, 80), _version(body, game), prefs)


@require_POST
@game_endpoint
def check(request, game, prefs):
    return {"check": {"wrong": games.check(game)}}


@require_POST
@game_endpoint
def pause(request, game, prefs):
    games.pause(game)


@require_POST
@game_endpoint
def resume(request, game, prefs):
    games.resume(game)


@require_POST
@game_endpoint
def give_up(request, game, prefs):
    games.give_up(game)


@require_safe
@game_endpoint
def solution_path(request, game, prefs):
    """GET /api/games/<id>/path: the logical solve, once the game is over."""
    return {"path": games.solution_path(game)}


@require_safe
@game_endpoint
def replay(request, game, prefs):
    """GET /api/games/<id>/replay: the board after each of the player's moves, once the
    game is over."""
    return {"frames": games.replay(game)}
