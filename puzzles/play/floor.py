"""The floor: the least a stored move could cost on this stack, for the human-pace benchmark
to measure a move against (bench/human.py). It goes through every middleware a move goes
through, reads the session for the player and commits one UPDATE of the player's game; no
board, no move row, no state in the answer.

Off unless BENCH_FLOOR_VIEW is set (the benchmark's site turns it on): a 404 otherwise, as
for any URL the site does not have.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from ..accounts.players import current_player


@require_POST
@never_cache
def floor(request: HttpRequest, pk: int) -> JsonResponse:
    """POST /api/games/<id>/floor: the game's seen_at set to now, if the game is the
    player's; {"ok": true}."""
    if not settings.BENCH_FLOOR_VIEW:
        raise Http404("No such URL.")
    if not current_player(request).all_games().filter(pk=pk).update(seen_at=timezone.now()):
        raise Http404("No such game.")
    return JsonResponse({"ok": True})
