"""The database cache's table, whatever cache the migrating environment configures.

0002 created it only when the environment running `migrate` had the database as its cache: an
installation migrated with Redis set (or by a job with other settings) and later run without it had
no table, and every public check failed to count (seen in bench/bench_public.py --cache database).
The table is named here as in config/settings/production.py (tests/public/test_deployment.py)."""

from typing import Any

from django.core.management import call_command
from django.db import migrations

TABLE = "lotacao_cache"


def create_cache_table(apps: Any, schema_editor: Any) -> None:
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("public", "0002_cache_table")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
