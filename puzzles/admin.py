"""The admin: puzzles, dailies, games, pool targets, seed jobs and the technique guide's
examples, plus the pool page."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import DailyPuzzle, Game, Move, PoolTarget, Puzzle, SeedJob, TechniqueExample


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ["id", "difficulty", "score", "clue_count", "source", "created_at", "served_at"]
    list_filter = ["difficulty", "source", ("served_at", admin.EmptyFieldListFilter)]
    search_fields = ["givens", "canonical_key"]
    readonly_fields = ["canonical_key", "created_at"]
    date_hierarchy = "created_at"
    show_full_result_count = False


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(admin.ModelAdmin):
    list_display = ["date", "difficulty", "puzzle"]
    list_filter = ["difficulty"]
    date_hierarchy = "date"
    raw_id_fields = ["puzzle"]


class MoveInline(admin.TabularInline):
    model = Move
    fields = ["number", "kind", "cell", "digit", "technique", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "user",
        "guest_id",
        "puzzle",
        "status",
        "active_seconds",
        "hints",
        "updated_at",
    ]
    list_filter = ["status", "puzzle__difficulty", "practice"]
    search_fields = ["user__username", "guest_id"]
    raw_id_fields = ["user", "puzzle", "daily"]
    readonly_fields = ["version", "moves_applied", "moves_logged"]
    inlines = [MoveInline]
    show_full_result_count = False


@admin.register(PoolTarget)
class PoolTargetAdmin(admin.ModelAdmin):
    list_display = ["difficulty", "low", "high", "batch_size"]
    list_editable = ["low", "high", "batch_size"]
    readonly_fields = ["difficulty"]

    # Exactly one target per difficulty, made with the pools' defaults: edited, never
    # added or deleted (a missing one would only come back with the defaults).
    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(SeedJob)
class SeedJobAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "kind",
        "difficulty",
        "filename",
        "state",
        "requested",
        "done",
        "rejected",
        "created_at",
    ]
    list_filter = ["kind", "state"]
    exclude = ["payload", "reasons"]
    readonly_fields = [
        "kind",
        "difficulty",
        "filename",
        "requested",
        "done",
        "rejected",
        "position",
        "offset",
        "lines_read",
        "state",
        "rejection_reasons",
        "error",
        "created_by",
        "created_at",
        "started_at",
        "touched_at",
        "finished_at",
    ]

    @admin.display(description=gettext_lazy("reasons"))
    def rejection_reasons(self, job: SeedJob) -> str:
        """The rejected lines, one a line: "line 12: the puzzle has no solution"."""
        lines = [
            # Translators: %(reason)s is why a line of an imported file was not kept.
            _("line %(number)d: %(reason)s") % {"number": n, "reason": r}
            for n, r in job.reasons
        ]
        if job.rejected > len(job.reasons):
            kept = _("(the first %(kept)d of %(count)d are kept)")
            lines.append(kept % {"kept": len(job.reasons), "count": job.rejected})
        return format_html_join(mark_safe("<br>"), "{}", ((line,) for line in lines)) or "—"

    def has_add_permission(self, request):
        return False  # jobs start from the pool page


@admin.register(TechniqueExample)
class TechniqueExampleAdmin(admin.ModelAdmin):
    """Found by the task refresh_technique_examples; deleting one lets the next run find
    another."""

    list_display = ["slug", "puzzle", "step_index", "found_at"]
    list_filter = ["slug"]
    raw_id_fields = ["puzzle"]
    readonly_fields = ["slug", "puzzle", "step_index", "values", "candidates", "hint", "found_at"]

    def has_add_permission(self, request):
        return False
