from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0024_preferences_intro_seen"),
    ]

    operations = [
        migrations.AddField(
            model_name="heartbeat",
            name="broker_lost_at",
            field=models.DateTimeField(
                blank=True,
                null=True,
                help_text="Since when the process has not reached the broker; empty while it does.",
            ),
        ),
    ]
