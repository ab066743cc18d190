"""Demo manifestations: in each jurisdiction four — a complaint about a demo vehicle (answered,
with the measures taken), a report filed by phone and forwarded to enforcement, a suggestion about
a line, and a praise filed anonymously — spread over the last weeks so the statistics and the work
queue have something to show (one is five days from its deadline). Idempotent: a jurisdiction
that already has manifestations is left as it is. The demo prints no access code: the passenger
journey files its own."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from lotacao.core.models import Jurisdiction
from lotacao.ombudsman import services
from lotacao.ombudsman.models import Channel, Complaint, Kind, Unit
from lotacao.registry.models import Line, Vehicle


def load(today: dt.date, summary: Any) -> None:
    now = timezone.now()
    for j in Jurisdiction.objects.filter(active=True).order_by("code"):
        if Complaint.unscoped.filter(jurisdiction=j).exists():
            summary.existing += 1
            continue
        vehicle = Vehicle.unscoped.filter(jurisdiction=j).order_by("plate").first()
        line = Line.unscoped.filter(jurisdiction=j).order_by("code").first()
        plate = vehicle.plate if vehicle else ""
        answered, _ = services.file_complaint(
            jurisdiction=j.code,
            kind=Kind.COMPLAINT,
            description="O motorista não parou no ponto e seguiu com a porta aberta.",
            plate=plate,
            occurred_at=now - dt.timedelta(days=12, hours=3),
            place="Ponto em frente ao mercado central",
            name="Passageira de demonstração",
            email="passageira@example.org",
            now=now - dt.timedelta(days=12),
        )
        services.triage(actor=None, complaint=answered)
        services.answer(
            actor=None,
            complaint=answered,
            text="A fiscalização conversou com o permissionário e acompanhou o veículo na linha.",
            measures="Vistoria aleatória e orientação ao condutor sobre as paradas obrigatórias.",
        )
        report, _ = services.file_complaint(
            jurisdiction=j.code,
            kind=Kind.REPORT,
            description="Van fazendo transporte de passageiros sem identificação no ponto final.",
            place="Ponto final",
            channel=Channel.PHONE,
            now=now - dt.timedelta(days=25),
        )
        services.forward(
            actor=None,
            complaint=report,
            unit=Unit.ENFORCEMENT,
            note="Pedimos uma ronda no ponto final nos horários de pico.",
        )
        services.file_complaint(
            jurisdiction=j.code,
            kind=Kind.SUGGESTION,
            description="Mais viagens no início da manhã, antes das seis horas.",
            line=line.code if line else "",
            now=now - dt.timedelta(days=3),
        )
        services.file_complaint(
            jurisdiction=j.code,
            kind=Kind.PRAISE,
            description="Condutor muito educado e veículo limpo.",
            plate=plate,
            now=now - dt.timedelta(days=40),
        )
        summary.created += 4
