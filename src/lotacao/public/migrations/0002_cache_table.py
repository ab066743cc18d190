"""The database cache's table, when the cache is the database (production without Redis): the
public check's rate-limit counters live there, shared by every app server. `createcachetable`
does nothing for other cache backends and when the table exists."""

from typing import Any

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps: Any, schema_editor: Any) -> None:
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("public", "0001_initial")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
