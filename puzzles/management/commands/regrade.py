"""Grade the stored puzzles again with this release's grader: new scores and techniques
where the tier holds; a puzzle the grader now puts in another tier is named, not moved."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from puzzles.models import Difficulty
from puzzles.pools.regrade import regrade

# The tiers whose ratings the grader's changes move; the others are graded in microseconds
# and may be named too.
DEFAULT = ("master", "extreme")


class Command(BaseCommand):
    help = "Grade stored puzzles again: new scores and techniques where the tier holds."

    def add_arguments(self, parser):
        parser.add_argument(
            "--difficulty",
            action="append",
            help=f"A tier to grade again (repeat for more; default: {', '.join(DEFAULT)}).",
        )
        parser.add_argument("--dry-run", action="store_true", help="Say what would change.")

    def handle(self, *args, **options):
        tiers = options["difficulty"] or list(DEFAULT)
        unknown = sorted(set(tiers) - set(Difficulty.values))
        if unknown:
            raise CommandError(
                f"No such difficulty: {', '.join(unknown)} (one of {', '.join(Difficulty.values)})."
            )
        dry = options["dry_run"]
        looked = changed = left = 0
        for each in regrade(tiers, dry_run=dry):
            looked += 1
            if each.left:
                left += 1
                self.stdout.write(
                    f"#{each.pk}: graded {each.tier} now, left {each.difficulty} "
                    f"(games were played at that tier)"
                )
            elif each.changed:
                changed += 1
                self.stdout.write(f"#{each.pk}: {each.before} -> {each.after}")
        verb = "would be re-rated" if dry else "re-rated"
        self.stdout.write(f"{looked} looked at, {changed} {verb}, {left} left")
