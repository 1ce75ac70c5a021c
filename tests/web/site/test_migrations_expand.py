"""Migrations the running release survives (docs/upgrades.md): during an upgrade the new
release migrates while the previous one still serves, so every migration after the
contract point only expands the schema. A column added is nullable or has a default in
the database (the old code's INSERT names only the columns it knows); nothing the old code
reads is removed or renamed. A contracting step comes in a release of its own, once no
running release reads what it removes, and moves the contract point up to it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection, migrations, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState
from django.db.models.fields import NOT_PROVIDED

APP = "puzzles"
# The last migration of the release that the next upgrade may still be serving beside
# the new one: every later migration must leave its code working.
CONTRACT_POINT = "0022_game_fair_play_round_four"

# Operations that take away what an older release reads or writes.
CONTRACTING = (
    migrations.RemoveField,
    migrations.RenameField,
    migrations.DeleteModel,
    migrations.RenameModel,
    migrations.AlterModelTable,
)


def later_migrations(loader: MigrationLoader, after: str) -> list[migrations.Migration]:
    """The app's migrations after `after`, in the order they apply."""
    (leaf,) = [key for key in loader.graph.leaf_nodes() if key[0] == APP]
    earlier = set(loader.graph.forwards_plan((APP, after)))
    plan = [key for key in loader.graph.forwards_plan(leaf) if key not in earlier]
    return [loader.graph.nodes[key] for key in plan if key[0] == APP]


def column_is_optional(field: models.Field) -> bool:
    """An INSERT that leaves the column out still stores the row."""
    return (
        field.many_to_many or field.null or field.db_default is not NOT_PROVIDED or field.generated
    )


def field_in(state: ProjectState, app: str, model: str, name: str) -> models.Field | None:
    """The field as that state has it, or None."""
    found = state.models.get((app, model))
    return found.fields.get(name) if found else None


def contracting_steps(steps: list[migrations.Migration], start: ProjectState) -> list[str]:
    """What in these migrations, applied to `start`, an older release would not survive, in
    words. A column added must be optional once the last of them has run (a later migration
    may give it its database default)."""
    final = start.clone()
    for migration in steps:
        final = migration.mutate_state(final, preserve=False)
    problems = []
    state = start.clone()
    for migration in steps:
        app, where = migration.app_label, f"{migration.app_label}.{migration.name}"
        for operation in migration.operations:
            name = getattr(operation, "name", "")
            model = getattr(operation, "model_name_lower", "")
            if isinstance(operation, CONTRACTING):
                problems.append(f"{where}: {operation.describe()} (contracts the schema)")
            elif isinstance(operation, migrations.AddField):
                field = field_in(final, app, model, name)
                if field is not None and not column_is_optional(field):
                    problems.append(
                        f"{where}: {operation.model_name}.{name} is NOT NULL "
                        "without db_default (an older release's INSERT fails)"
                    )
            elif isinstance(operation, migrations.AlterField):
                before = field_in(state, app, model, name)
                after = field_in(final, app, model, name)
                if before is not None and before.null and after and not column_is_optional(after):
                    problems.append(
                        f"{where}: {operation.model_name}.{name} made NOT NULL without db_default"
                    )
            operation.state_forwards(app, state)
    return problems


def test_migrations_after_the_contract_point_only_expand():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    steps = later_migrations(loader, CONTRACT_POINT)
    start = loader.project_state((APP, CONTRACT_POINT))
    assert contracting_steps(steps, start) == []


def test_the_check_names_a_not_null_column_a_removed_one_and_one_made_not_null():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    start = loader.project_state()
    made = migrations.Migration("9998_nullable", APP)
    made.operations = [
        migrations.AddField("preferences", "maybe", models.IntegerField(null=True)),
        migrations.AlterField("preferences", "theme", models.CharField(max_length=9)),
    ]
    migration = migrations.Migration("9999_contracting", APP)
    migration.operations = [
        migrations.AddField("preferences", "level", models.IntegerField(default=1)),
        migrations.RemoveField("preferences", "theme"),
        migrations.AddField("preferences", "kept", models.IntegerField(db_default=1)),
        migrations.AlterField("preferences", "maybe", models.IntegerField(default=0)),
    ]
    assert contracting_steps([made, migration], start) == [
        "puzzles.9998_nullable: preferences.maybe is NOT NULL without db_default "
        "(an older release's INSERT fails)",
        "puzzles.9999_contracting: preferences.level is NOT NULL without db_default "
        "(an older release's INSERT fails)",
        "puzzles.9999_contracting: Remove field theme from preferences (contracts the schema)",
        "puzzles.9999_contracting: preferences.maybe made NOT NULL without db_default",
    ]


@pytest.mark.django_db
def test_the_previous_releases_insert_of_preferences_is_stored():
    # The previous release knows Preferences without the columns added since: its INSERT
    # names only the others, and the database fills in the rest.
    loader = MigrationLoader(None, ignore_no_migrations=True)
    old = loader.project_state((APP, CONTRACT_POINT)).models[(APP, "preferences")]
    user = User.objects.create_user("old-release")
    values = {"user_id": user.pk}
    for name, field in old.fields.items():
        if name not in ("id", "user"):
            values[name] = field.get_default()
    table = connection.ops.quote_name("puzzles_preferences")
    columns = ", ".join(connection.ops.quote_name(name) for name in values)
    marks = ", ".join(["%s"] * len(values))
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(values.values()))
    stored = user.preferences
    assert (stored.time_zone, stored.intro_seen) == ("", False)
