"""Print each pool's stock against its targets, the generation rate, and open seed jobs."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from puzzles.models import SeedJob
from puzzles.pools.broker import broker_is_up
from puzzles.pools.stock import fresh_counts, made_last_hour, targets


class Command(BaseCommand):
    help = "Show fresh stock, low/high water marks and puzzles made in the last hour."

    def handle(self, *args, **options):
        stock, rate = fresh_counts(), made_last_hour()
        self.stdout.write(
            f"{'difficulty':<10} {'fresh':>6} {'low':>5} {'high':>5} {'last hour':>9}"
        )
        for d, t in targets().items():
            line = f"{d:<10} {stock[d]:>6} {t.low:>5} {t.high:>5} {rate[d]:>9}"
            self.stdout.write(self.style.WARNING(line) if stock[d] < t.low else line)
        open_jobs = SeedJob.objects.filter(state__in=[SeedJob.State.QUEUED, SeedJob.State.RUNNING])
        for job in open_jobs.defer("payload"):
            self.stdout.write(f"job {job.pk}: {job} {round(job.progress * 100)}%")
        self.stdout.write(f"broker: {'ok' if broker_is_up() else 'down'}")
