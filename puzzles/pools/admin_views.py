"""The admin's pool page: stock against targets, generation and draw rates, the last
refills, the workers' heartbeats and the queue, seeding and imports."""

from __future__ import annotations

import datetime

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from ..models import Difficulty, SeedJob
from . import activity, heartbeats, imports, seeding
from .broker import broker_is_up, enqueue, queue_depth
from .stock import drawn_last_hour, fresh_counts, made_last_hour, targets
from .tasks import run_seed_job

RECENT_JOBS = 15
REASONS_SHOWN = 3  # per job on the pool page; the job's own admin page lists the rest


class SeedForm(forms.Form):
    difficulty = forms.ChoiceField(choices=Difficulty.choices)
    count = forms.IntegerField(min_value=1, max_value=5000, initial=50)


class ImportForm(forms.Form):
    file = forms.FileField(
        help_text=format_lazy(
            gettext_lazy(
                "One puzzle a line (0 or . for blanks), or the quizzes,solutions CSV; "
                "up to {megabytes} MB and {lines} lines."
            ),
            megabytes=settings.IMPORT_MAX_BYTES // 2**20,
            lines=f"{imports.MAX_LINES:,}",
        )
    )

    def clean_file(self) -> tuple[str, str, int]:
        """The file's text, name and number of puzzle lines, or why it is refused."""
        upload = self.cleaned_data["file"]
        limit = settings.IMPORT_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                _("The file is %(size)s bytes; the limit is %(limit)s. Split it up.")
                % {"size": f"{upload.size:,}", "limit": f"{limit:,}"}
            )
        data = upload.read(limit + 1)
        if imports.looks_binary(data):
            raise forms.ValidationError(
                _(
                    "This is not a text file (it holds binary data). Upload plain text, "
                    "one puzzle a line, or an uncompressed CSV."
                )
            )
        text = data.decode("utf-8", errors="replace")
        try:
            lines = imports.count_lines(text)
        except imports.TooManyLines as error:
            raise forms.ValidationError(str(error)) from error
        if not lines:
            raise forms.ValidationError(_("The file has no puzzle lines."))
        return text, upload.name, lines


def _start(job: SeedJob) -> None:
    transaction.on_commit(lambda: enqueue(run_seed_job, job.pk))


def _reasons_link(job: SeedJob) -> str:
    if job.rejected > len(job.reasons):
        return _("the first %(kept)d of %(count)d reasons") % {
            "kept": len(job.reasons),
            "count": job.rejected,
        }
    return _("all %(count)d reasons") % {"count": job.rejected}


def _job_row(job: SeedJob) -> dict:
    return {
        "id": job.pk,
        "kind": job.kind,
        "what": f"{job.requested} {job.difficulty}" if job.kind == "generate" else job.filename,
        "state": job.state,
        "requested": job.requested,
        "done": job.done,
        "rejected": job.rejected,
        "progress": round(job.progress * 100),
        "created_at": job.created_at.isoformat(),
        "error": job.error,
        "reasons": [{"line": n, "reason": r} for n, r in job.reasons[:REASONS_SHOWN]],
        "reasons_link": _reasons_link(job),
        "url": reverse("admin:puzzles_seedjob_change", args=[job.pk]),
    }


def _ago(moment: datetime.datetime | None, now: datetime.datetime) -> str:
    """ "12 s ago", "5 min ago", "3 h ago", or "never"."""
    if moment is None:
        return _("never")
    seconds = max(0, round((now - moment).total_seconds()))
    if seconds < 120:
        return _("%(seconds)d s ago") % {"seconds": seconds}
    if seconds < 7200:
        return _("%(minutes)d min ago") % {"minutes": seconds // 60}
    return _("%(hours)d h ago") % {"hours": seconds // 3600}


def _pool_rows() -> list[dict]:
    stock, rate, drawn = fresh_counts(), made_last_hour(), drawn_last_hour()
    tallies, now = activity.tallies(), timezone.now()
    rows = []
    for d, t in targets().items():
        tally = tallies[d]
        mean = tally.seconds / tally.batches if tally.batches else None
        rows.append(
            {
                "difficulty": d,
                "fresh": stock[d],
                "low": t.low,
                "high": t.high,
                "made_last_hour": rate[d],
                "drawn_last_hour": drawn[d],
                "below_low": stock[d] < t.low,
                "last_refill": _ago(tally.last_at, now),
                "batches": tally.batches,
                "batch_seconds": f"{mean:.1f} s" if mean is not None else "—",
            }
        )
    return rows


def _workers(now: datetime.datetime) -> dict:
    """The workers' and beat's heartbeats, the last beat and the broker's queue."""
    found = heartbeats.processes()
    rows = [
        {
            "kind": hb.kind,
            "name": hb.name,
            "pid": hb.pid,
            "state": hb.state(now),
            "started": _ago(hb.started_at, now),
            "seen": _ago(hb.seen_at, now),
        }
        for hb in found
    ]
    beats = [hb.seen_at for hb in found if hb.kind == "beat"]
    queue = queue_depth()
    return {
        "processes": rows,
        "last_beat": _ago(max(beats, default=None), now),
        "queued": "—" if queue is None else queue["queued"],
        "unacked": "—" if queue is None else queue["unacked"],
        "gone_after": settings.WORKER_GONE_SECONDS,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def pool_page(request: HttpRequest) -> HttpResponse:
    """Stock per difficulty, the seed and import forms, and recent jobs."""
    seed_form, import_form = SeedForm(prefix="seed"), ImportForm(prefix="import")
    if request.method == "POST":
        if not request.user.has_perm("puzzles.add_seedjob"):
            raise PermissionDenied
        if "seed" in request.POST:
            seed_form = SeedForm(request.POST, prefix="seed")
            if seed_form.is_valid():
                with transaction.atomic():
                    job = seeding.create_generate_job(
                        seed_form.cleaned_data["difficulty"],
                        seed_form.cleaned_data["count"],
                        request.user,
                    )
                    _start(job)
                messages.success(
                    request, _("Seed job %(id)d queued: %(job)s.") % {"id": job.pk, "job": job}
                )
                return redirect("admin:pool")
        else:
            import_form = ImportForm(request.POST, request.FILES, prefix="import")
            if import_form.is_valid():
                text, name, lines = import_form.cleaned_data["file"]
                with transaction.atomic():
                    job = seeding.create_import_job(text, name, request.user, lines)
                    _start(job)
                messages.success(
                    request,
                    _("Import job %(id)d queued: %(count)d lines.")
                    % {"id": job.pk, "count": job.requested},
                )
                return redirect("admin:pool")
    context = {
        **admin.site.each_context(request),
        "title": _("Puzzle pools"),
        "pools": _pool_rows(),
        "jobs": [_job_row(j) for j in SeedJob.objects.defer("payload")[:RECENT_JOBS]],
        "seed_form": seed_form,
        "import_form": import_form,
        "broker_up": broker_is_up(),
        "workers": _workers(timezone.now()),
        "can_seed": request.user.has_perm("puzzles.add_seedjob"),
    }
    return render(request, "admin/pool.html", context)


def pool_status(request: HttpRequest) -> JsonResponse:
    """What the pool page shows, for its live refresh."""
    jobs = SeedJob.objects.defer("payload")[:RECENT_JOBS]
    return JsonResponse(
        {
            "pools": _pool_rows(),
            "workers": _workers(timezone.now()),
            "jobs": [_job_row(j) for j in jobs],
        }
    )
