"""Every puzzle's solution print (engine.grid_print), indexed: a typed-in puzzle near a
stored one finds it."""

from django.db import migrations, models

import engine


def fill_prints(apps, schema_editor):
    Puzzle = apps.get_model("puzzles", "Puzzle")
    batch = []
    for puzzle in Puzzle.objects.only("pk", "solution").iterator(chunk_size=2000):
        puzzle.solution_print = engine.grid_print(puzzle.solution)
        batch.append(puzzle)
        if len(batch) >= 2000:
            Puzzle.objects.bulk_update(batch, ["solution_print"])
            batch = []
    Puzzle.objects.bulk_update(batch, ["solution_print"])


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0015_batch_change_receipts_and_cell_touches"),
    ]

    operations = [
        migrations.AddField(
            model_name="puzzle",
            name="solution_print",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.RunPython(fill_prints, migrations.RunPython.noop, elidable=True),
        migrations.AddIndex(
            model_name="puzzle",
            index=models.Index(fields=["solution_print"], name="puzzle_solution_print_idx"),
        ),
    ]
