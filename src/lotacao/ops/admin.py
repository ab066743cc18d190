from django.contrib import admin

from lotacao.audit.admin_base import ReadOnlyAdmin
from lotacao.core.models import JobRun


@admin.register(JobRun)
class JobRunAdmin(ReadOnlyAdmin):
    list_display = ["job", "day", "status", "started_at", "finished_at", "counts", "host"]
    list_filter = ["job", "status"]
    date_hierarchy = "started_at"
