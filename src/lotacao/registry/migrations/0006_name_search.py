"""Accent-insensitive name search (issue 15): the folded name stored beside the name on persons
and companies, filled here for the rows that exist, and on PostgreSQL a GIN trigram index
(pg_trgm) over it, so `name_search LIKE '%jose%'` is an index scan at 100,000 people
(bench/bench_search.py). The folding is done in Python (lotacao.core.text.fold) on every
database, so no unaccent() wrapper is needed in the queries.

CREATE EXTENSION needs a role allowed to create it (a superuser, the database owner on
PostgreSQL 13+ for trusted extensions such as pg_trgm). Where the role cannot, the migration
stops with a message saying what to run as a superuser instead of carrying on without the index.
"""

import sys
import unicodedata

from django.db import migrations, models

INDEXES = [
    ("registry_person", "person_name_search_trgm"),
    ("registry_company", "company_name_search_trgm"),
]


def _fold(value):
    decomposed = unicodedata.normalize("NFKD", value or "")
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def fill(apps, schema_editor):
    # Through the migrating connection only (`migrate --database owner`): the default one is the
    # serving role, which may not connect yet, or waits on this migration's own lock if it can.
    db = schema_editor.connection.alias
    persons = apps.get_model("registry", "Person")._base_manager.db_manager(db)
    companies = apps.get_model("registry", "Company")._base_manager.db_manager(db)
    batch = []
    for person in persons.only("pk", "full_name").iterator(chunk_size=2000):
        person.name_search = _fold(person.full_name)
        batch.append(person)
        if len(batch) >= 2000:
            persons.bulk_update(batch, ["name_search"])
            batch = []
    persons.bulk_update(batch, ["name_search"])
    batch = []
    for company in companies.only("pk", "legal_name", "trade_name"):
        both = company.legal_name
        if company.trade_name and company.trade_name != company.legal_name:
            both = f"{company.legal_name} {company.trade_name}"
        company.name_search = _fold(both)
        batch.append(company)
    companies.bulk_update(batch, ["name_search"], batch_size=2000)


def trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # SQLite and others: the LIKE scans the folded column
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        if cursor.fetchone() is None:
            try:
                cursor.execute("SAVEPOINT lotacao_trgm")
                cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
                cursor.execute("RELEASE SAVEPOINT lotacao_trgm")
            except Exception as error:  # noqa: BLE001 - any refusal gets the same explanation
                cursor.execute("ROLLBACK TO SAVEPOINT lotacao_trgm")
                message = (
                    "A extensão pg_trgm do PostgreSQL não pôde ser criada por este usuário do banco "
                    f"({error}). Como superusuário, rode `CREATE EXTENSION pg_trgm;` neste banco "
                    "e aplique as migrações de novo: sem ela a busca por nome não tem índice."
                )
                print(f"\n*** {message}\n", file=sys.stderr)
                raise RuntimeError(message) from error
        for table, name in INDEXES:
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS {name} ON {table} USING gin (name_search gin_trgm_ops)"
            )


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for _, name in INDEXES:
            cursor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):

    dependencies = [
        ("registry", "0005_search_prefix_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="person",
            name="name_search",
            field=models.CharField(blank=True, editable=False, max_length=200, verbose_name="nome para busca"),
        ),
        migrations.AddField(
            model_name="company",
            name="name_search",
            field=models.CharField(blank=True, editable=False, max_length=401, verbose_name="nome para busca"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(trigram_indexes, drop_trigram_indexes),
    ]
