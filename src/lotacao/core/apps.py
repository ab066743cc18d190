from django.apps import AppConfig
from django.db.models.signals import post_migrate, pre_migrate


class CoreConfig(AppConfig):
    name = "lotacao.core"
    label = "core"
    verbose_name = "Jurisdições"

    def ready(self) -> None:
        from lotacao.core import routing

        pre_migrate.connect(routing._pre_migrate, dispatch_uid="lotacao.core.migrating_alias")
        post_migrate.connect(routing._post_migrate, dispatch_uid="lotacao.core.migrating_alias_done")
