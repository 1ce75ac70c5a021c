"""The site's URLs and the benchmark's floor, the URL configuration only the benchmark's
site uses (BENCH_FLOOR_VIEW): production's URLs have no such view.

The floor is the least a stored move could cost on this stack, for the human-pace
benchmark to measure a move against (bench/human.py): it goes through every middleware a
move goes through, reads the session for the player and commits one UPDATE of the
player's game; no board, no move row, no state in the answer.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, JsonResponse
from django.urls import path
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from puzzles.accounts.players import current_player

from .urls import handler500
from .urls import urlpatterns as site


@require_POST
@never_cache
def floor(request: HttpRequest, pk: int) -> JsonResponse:
    """POST /api/games/<id>/floor: the game's seen_at set to now, if the game is the
    player's; {"ok": true}."""
    if not current_player(request).all_games().filter(pk=pk).update(seen_at=timezone.now()):
        raise Http404("No such game.")
    return JsonResponse({"ok": True})


urlpatterns = [*site, path("api/games/<int:pk>/floor", floor, name="api_floor")]

__all__ = ["handler500", "urlpatterns"]
