from django.apps import AppConfig
from django.db.models.signals import post_migrate, pre_migrate


class CoreConfig(AppConfig):
    name = "lotacao.core"
    label = "core"
    verbose_name = "Jurisdições"

    def ready(self) -> None:
        from lotacao.core import routing

        pre_migrate.connect(routing._pre_migrate, dispatch_uid="lotacao.core.migrating_alias")
        _bound_form_dates()
        post_migrate.connect(routing._post_migrate, dispatch_uid="lotacao.core.migrating_alias_done")


def _bound_form_dates() -> None:
    """Every form's date and date-time field refuses a date beyond the horizon (lotacao.core.horizon),
    the same bound the API applies: one place, so no form can forget it."""
    from django import forms

    from lotacao.core.horizon import check_day

    for field in (forms.DateField, forms.DateTimeField):
        if check_day not in field.default_validators:
            field.default_validators = [*field.default_validators, check_day]
