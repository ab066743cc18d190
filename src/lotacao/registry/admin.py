from django.contrib import admin

from lotacao.audit.admin_base import ReadOnlyAdmin
from lotacao.registry.models import Company, Holder, Line, Person, Vehicle

for model in (Person, Company, Holder, Vehicle, Line):
    admin.site.register(model, ReadOnlyAdmin)
