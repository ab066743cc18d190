"""On PostgreSQL, the audit log is append-only in the database itself.

A row-level trigger refuses UPDATE and DELETE on audit_auditevent, whatever the client. (TRUNCATE
is left to the database owner: test databases are emptied that way.) SQLite relies on the model
and queryset guards only.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION lotacao_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'O registro de auditoria não pode ser alterado nem apagado (%).', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS audit_auditevent_append_only ON audit_auditevent;
CREATE TRIGGER audit_auditevent_append_only
    BEFORE UPDATE OR DELETE ON audit_auditevent
    FOR EACH ROW EXECUTE FUNCTION lotacao_audit_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS audit_auditevent_append_only ON audit_auditevent;
DROP FUNCTION IF EXISTS lotacao_audit_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
