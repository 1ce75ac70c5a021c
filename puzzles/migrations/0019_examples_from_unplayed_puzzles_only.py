"""Technique examples come only from puzzles nobody plays: those found before in a puzzle
with a game (other than a practice game on the example), a daily or a player's own puzzle
are dropped; the task finds others."""

from django.db import migrations
from django.db.models import Q


def drop_examples_of_played_puzzles(apps, schema_editor):
    TechniqueExample = apps.get_model("puzzles", "TechniqueExample")
    Game = apps.get_model("puzzles", "Game")
    played = Game.objects.filter(practice="").values("puzzle_id")
    TechniqueExample.objects.filter(
        Q(puzzle__in=played) | Q(puzzle__dailies__isnull=False) | Q(puzzle__source="player")
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0018_game_move_allowance"),
    ]

    operations = [
        migrations.RunPython(drop_examples_of_played_puzzles, migrations.RunPython.noop),
    ]
