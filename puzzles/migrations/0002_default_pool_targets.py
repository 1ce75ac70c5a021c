from django.db import migrations

DEFAULTS = {"easy": (20, 50, 10), "medium": (20, 50, 10), "hard": (10, 30, 5), "expert": (5, 15, 2)}


def create_targets(apps, schema_editor):
    PoolTarget = apps.get_model("puzzles", "PoolTarget")
    for difficulty, (low, high, batch) in DEFAULTS.items():
        PoolTarget.objects.get_or_create(
            difficulty=difficulty, defaults={"low": low, "high": high, "batch_size": batch}
        )


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]
    operations = [migrations.RunPython(create_targets, migrations.RunPython.noop)]
