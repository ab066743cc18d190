from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "lotacao.enforcement"
    label = "enforcement"
    verbose_name = "Fiscalização"

    def ready(self) -> None:
        # Answer the seams lower layers ask through (lotacao.core.providers).
        from lotacao.core import providers
        from lotacao.enforcement import queue
        from lotacao.enforcement.sanctions import (
            debts,
            effects,
            fine_payment,
            followups,
            interruptions,
            measures,
        )

        providers.provide("public_vehicle_info", "enforcement.measures", measures.public_vehicle_info)
        providers.provide(
            "public_vehicle_info_many", "enforcement.measures", measures.public_vehicle_info_many
        )
        providers.provide("public_vehicle_info", "enforcement.effects", effects.public_vehicle_info)
        providers.provide("public_vehicle_info_many", "enforcement.effects", effects.public_vehicle_info_many)
        providers.provide("work_items", "enforcement", queue.items)
        providers.provide("charge_paid", "enforcement", fine_payment.charge_paid)
        providers.provide("holder_debts", "enforcement", debts.holder_debts)
        providers.provide("interruption_periods", "enforcement", interruptions.authorized_periods)
        from lotacao.enforcement.notices.penalty import final_infractions

        providers.provide("holder_infractions", "enforcement", final_infractions)
        providers.provide("pending_course_requirements", "enforcement", followups.pending_courses)
        providers.provide("course_requirement_completed", "enforcement", followups.course_done)
