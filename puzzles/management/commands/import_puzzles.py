"""Import puzzles from a file: one a line, or the quizzes,solutions CSV."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from puzzles import imports, seeding
from puzzles.broker import enqueue
from puzzles.tasks import run_seed_job


class Command(BaseCommand):
    help = "Check every line of FILE and store the puzzles that pass, graded."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--now", action="store_true", help="import here instead of in a worker")
        parser.add_argument("--dry-run", action="store_true", help="check the lines, store nothing")

    def handle(self, *args, file: Path, now: bool, dry_run: bool, **options):
        try:
            data = file.read_bytes()[: settings.IMPORT_MAX_BYTES + 1]
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from error
        if len(data) > settings.IMPORT_MAX_BYTES:
            raise CommandError(f"{file} is larger than {settings.IMPORT_MAX_BYTES:,} bytes")
        if imports.looks_binary(data):
            raise CommandError(f"{file} is not a text file")
        text = data.decode("utf-8", errors="replace")
        if dry_run:
            lines = imports.lines_of(text)
            bad = [
                (line.number, r) for line in lines if isinstance(r := imports.check(line.text), str)
            ]
            for number, reason in bad:
                self.stdout.write(f"line {number}: {reason}")
            self.stdout.write(
                self.style.SUCCESS(f"{len(lines) - len(bad)} of {len(lines)} lines would import")
            )
            return
        with transaction.atomic():
            job = seeding.create_import_job(text, file.name)
        if not now:
            queued = enqueue(run_seed_job, job.pk)
            note = "queued" if queued else "saved; the broker is down, beat resumes it"
            self.stdout.write(
                self.style.SUCCESS(f"import job {job.pk} {note}: {job.requested} lines")
            )
            return
        while seeding.run_chunk(job.pk):
            job.refresh_from_db()
            self.stdout.write(f"{job.position}/{job.requested} lines", ending="\r")
        job.refresh_from_db()
        for number, reason in job.reasons:
            self.stdout.write(f"line {number}: {reason}")
        self.stdout.write(self.style.SUCCESS(f"stored {job.done}, rejected {job.rejected}"))
