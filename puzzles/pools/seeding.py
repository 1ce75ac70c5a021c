"""Seed jobs: an admin's request to generate puzzles or import a file, done in chunks.

Each chunk commits its puzzles together with the job's progress, and only if the progress
is still what the chunk started from. So a chunk that runs twice (a redelivered task, two
workers) stores its puzzles once, and a job can always be picked up where it stopped. The
run that loses such a race stops there: the one that won goes on with the job.

An import reads its file from the offset where the last chunk stopped, a window at a time,
so each chunk costs what its own lines cost, however long the file.
"""

from __future__ import annotations

import datetime
import random

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Substr
from django.utils import timezone

from ..models import Difficulty, Puzzle, SeedJob
from . import imports
from .stock import insert_new, make, puzzle_row

GENERATE_CHUNK = 10
# An extreme puzzle takes a worker some seconds: smaller chunks keep a task well inside its
# time limit.
GENERATE_CHUNKS = {Difficulty.EXTREME: 2}
IMPORT_CHUNK = 100
# Characters of an import file a chunk reads first: room for its lines at about the longest
# a line may be (imports.MAX_LINE). A line longer than the window doubles it until it ends.
IMPORT_WINDOW = IMPORT_CHUNK * imports.MAX_LINE
MAX_REASONS = 500


class StaleChunk(Exception):
    """Another run of the job got there first; this chunk's work is dropped."""


def create_generate_job(difficulty: str, count: int, user=None) -> SeedJob:
    """A job to make count puzzles of a difficulty."""
    return SeedJob.objects.create(
        kind=SeedJob.Kind.GENERATE, difficulty=difficulty, requested=count, created_by=user
    )


def create_import_job(text: str, filename: str, user=None, lines: int | None = None) -> SeedJob:
    """A job to import the lines of a file's text (lines: how many hold content, if
    already counted). Raises imports.TooManyLines for a file past the limit."""
    return SeedJob.objects.create(
        kind=SeedJob.Kind.IMPORT,
        payload=text,
        filename=filename[:255],
        requested=imports.count_lines(text) if lines is None else lines,
        created_by=user,
    )


def run_chunk(job_id: int, seed: str | None = None) -> bool:
    """Do the job's next chunk; True while this run should go on with the job.

    False when the job is finished, and also when another run of it (a redelivered task)
    saved this chunk first: that run carries on, and two runs never go on side by side.
    """
    job = SeedJob.objects.defer("payload").filter(pk=job_id).first()
    if job is None or job.state in (SeedJob.State.DONE, SeedJob.State.FAILED):
        return False
    if job.state == SeedJob.State.QUEUED:
        SeedJob.objects.filter(pk=job.pk, state=SeedJob.State.QUEUED).update(
            state=SeedJob.State.RUNNING, started_at=timezone.now(), touched_at=timezone.now()
        )
    try:
        if job.kind == SeedJob.Kind.GENERATE:
            more = _generate_chunk(job, random.Random(seed))
        else:
            more = _import_chunk(job)
    except StaleChunk:
        return False
    if not more:
        SeedJob.objects.filter(pk=job.pk).update(
            state=SeedJob.State.DONE, finished_at=timezone.now(), touched_at=timezone.now()
        )
    return more


def fail(job_id: int, error: str) -> None:
    """Mark a job failed, with what went wrong."""
    SeedJob.objects.filter(pk=job_id).update(
        state=SeedJob.State.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def _generate_chunk(job: SeedJob, rng: random.Random) -> bool:
    count = min(GENERATE_CHUNKS.get(job.difficulty, GENERATE_CHUNK), job.requested - job.done)
    if count <= 0:
        return False
    rows = [puzzle_row(make(job.difficulty, rng)) for _ in range(count)]
    with transaction.atomic():
        stored = len(rows) - len(insert_new(rows))
        _advance(job, "done", job.done, done=F("done") + stored)
    return job.done + stored < job.requested


def _next_lines(job: SeedJob) -> tuple[list[imports.Line], int, int, bool]:
    """The lines of the job's next chunk, read from its offset: the lines, the offset and
    line number they take the job to, and whether the file goes on after them."""
    size = IMPORT_WINDOW
    while True:
        window = _payload_slice(job.pk, job.offset, size)
        final = len(window) < size
        lines, used, number = imports.take(window, job.lines_read, final, IMPORT_CHUNK)
        if used or final:
            return lines, job.offset + used, number, not final or used < len(window)
        size *= 2  # a line longer than the window: read on until it ends


def _payload_slice(job_id: int, offset: int, size: int) -> str:
    """size characters of a job's file from offset, cut out by the database."""
    return (
        SeedJob.objects.filter(pk=job_id)
        .annotate(part=Substr("payload", offset + 1, size))
        .values_list("part", flat=True)
        .get()
    ) or ""


def _import_chunk(job: SeedJob) -> bool:
    chunk, offset, number, more = _next_lines(job)
    if offset == job.offset:
        return False
    checked = [(line, imports.check(line.text)) for line in chunk]
    rows, reasons = [], []
    for line, result in checked:
        if isinstance(result, str):
            reasons.append([line.number, result])
        else:
            rows.append((line, puzzle_row(result, Puzzle.Source.IMPORTED)))
    with transaction.atomic():
        line_of = {id(row): line for line, row in rows}
        duplicates = insert_new([row for _, row in rows])
        for row in duplicates:
            reasons.append(
                [line_of[id(row)].number, "already stored, or a transformation of a stored puzzle"]
            )
        new = len(rows) - len(duplicates)
        reasons.sort()
        _advance(
            job,
            "offset",
            job.offset,
            offset=offset,
            lines_read=number,
            position=job.position + len(chunk),
            done=F("done") + new,
            rejected=F("rejected") + len(reasons),
            reasons=(job.reasons + reasons)[:MAX_REASONS],
        )
    return more


def _advance(job: SeedJob, field: str, expected: int, **changes: object) -> None:
    """Save progress if nobody else has since the chunk began; else undo the chunk."""
    updated = SeedJob.objects.filter(pk=job.pk, **{field: expected}).update(
        touched_at=timezone.now(), **changes
    )
    if not updated:
        raise StaleChunk


def claim_stalled_jobs() -> list[int]:
    """The jobs to send again: queued a minute ago and never started (the broker was down),
    or running with no progress for longer than a dead worker's task takes to come back.
    Each is marked touched now, so that the next look leaves it alone for that long."""
    now = timezone.now()
    queued_before = now - datetime.timedelta(seconds=60)
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    running_before = now - datetime.timedelta(seconds=visibility + 60)
    stalled = SeedJob.objects.filter(
        state=SeedJob.State.QUEUED, touched_at__lt=queued_before
    ) | SeedJob.objects.filter(state=SeedJob.State.RUNNING, touched_at__lt=running_before)
    claimed = []
    for job_id in stalled.values_list("id", flat=True):
        # Only the look that moves touched_at on claims the job: two beats at once, one send.
        if SeedJob.objects.filter(pk=job_id, touched_at__lt=queued_before).update(touched_at=now):
            claimed.append(job_id)
    return claimed
