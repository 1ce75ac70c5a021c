"""Import puzzles from a file: one a line, or the quizzes,solutions CSV."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from puzzles.pools import imports, seeding
from puzzles.pools.broker import enqueue
from puzzles.pools.tasks import run_seed_job


class Command(BaseCommand):
    help = "Check every line of FILE and store the puzzles that pass, graded."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--now", action="store_true", help="import here instead of in a worker")
        parser.add_argument("--dry-run", action="store_true", help="check the lines, store nothing")

    def handle(self, *args, file: Path, now: bool, dry_run: bool, **options):
        text = self.read(file)
        try:
            lines = imports.count_lines(text)
        except imports.TooManyLines as error:
            raise CommandError(f"{file}: {error}") from error
        if dry_run:
            self.dry_run(text, lines)
            return
        with transaction.atomic():
            job = seeding.create_import_job(text, file.name, lines=lines)
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

    def read(self, file: Path) -> str:
        """The file's text; never more than the size limit is read."""
        limit = settings.IMPORT_MAX_BYTES
        try:
            with file.open("rb") as stream:
                data = stream.read(limit + 1)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from error
        if len(data) > limit:
            raise CommandError(f"{file} is larger than {limit:,} bytes")
        if imports.looks_binary(data):
            raise CommandError(f"{file} is not a text file")
        return data.decode("utf-8", errors="replace")

    def dry_run(self, text: str, lines: int) -> None:
        """Check every line and say which would be refused; store nothing."""
        bad = 0
        for line in imports.iter_lines(text):
            reason = imports.check(line.text)
            if isinstance(reason, str):
                bad += 1
                self.stdout.write(f"line {line.number}: {reason}")
        self.stdout.write(self.style.SUCCESS(f"{lines - bad} of {lines} lines would import"))
