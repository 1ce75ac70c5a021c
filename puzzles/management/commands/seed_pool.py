"""Generate puzzles for a pool: as a seed job for the workers, or right here with --now."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from puzzles.models import Difficulty, Puzzle
from puzzles.pools import seeding
from puzzles.pools.broker import enqueue
from puzzles.pools.tasks import run_seed_job


class Command(BaseCommand):
    help = "Seed N puzzles of a difficulty (or of every difficulty with --difficulty all)."

    def add_arguments(self, parser):
        parser.add_argument("--difficulty", required=True, choices=[*Difficulty.values, "all"])
        parser.add_argument("--count", type=int, required=True)
        parser.add_argument(
            "--now", action="store_true", help="generate here instead of in a worker"
        )
        parser.add_argument(
            "--top-up", action="store_true", help="only make what brings fresh stock up to COUNT"
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="say what would be made, store nothing"
        )

    def handle(self, *args, difficulty, count, now, top_up, dry_run, **options):
        if count < 1:
            raise CommandError("--count must be at least 1")
        difficulties = Difficulty.values if difficulty == "all" else [difficulty]
        for d in difficulties:
            wanted = count - Puzzle.objects.fresh(d).count() if top_up else count
            if wanted <= 0:
                self.stdout.write(f"{d}: stock already at {count} or more")
                continue
            if dry_run:
                self.stdout.write(f"{d}: would make {wanted}")
                continue
            with transaction.atomic():
                job = seeding.create_generate_job(d, wanted)
            if now:
                while seeding.run_chunk(job.pk):
                    job.refresh_from_db()
                    self.stdout.write(f"{d}: {job.done}/{job.requested}", ending="\r")
                job.refresh_from_db()
                self.stdout.write(self.style.SUCCESS(f"{d}: made {job.done} puzzles"))
            elif enqueue(run_seed_job, job.pk):
                self.stdout.write(self.style.SUCCESS(f"{d}: seed job {job.pk} queued for {wanted}"))
            else:
                self.stdout.write(
                    self.style.WARNING(
                        f"{d}: seed job {job.pk} saved; the broker is down, beat resumes it"
                    )
                )
