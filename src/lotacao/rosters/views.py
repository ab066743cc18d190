"""The screens of rosters and duty logs (`/escalas/`): staff draw up a line's roster, add its rows,
submit it on the representative's behalf, and the gestor approves or refuses it with reasons;
duty logs are recorded and checked against the law, an excess offering the infraction notice
prefilled. Rows come through the scoped managers: a row outside the user's scope is a 404."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views import View

from lotacao.audit.services import history
from lotacao.core.formats import br_date
from lotacao.core.validators import normalize_cpf
from lotacao.core.vehicle_verdict import clean_plate
from lotacao.registry.models import Holder, Line, LineRepresentative, Person, Vehicle
from lotacao.rosters import permissions, rules, selectors, services, states
from lotacao.rosters.models import WEEKDAYS, DutyLog, Roster, RosterEntry

PERIOD_FIELDS = 4  # rows of start/end on the duty log form


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _codes(request: HttpRequest, roles: tuple[str, ...]) -> list[str]:
    return permissions.jurisdictions_for(_access(request), roles)


def _own_holder(request: HttpRequest) -> Holder | None:
    access = _access(request)
    if access is not None and access.holder_id is not None:
        return Holder.objects.filter(pk=access.holder_id).first()
    return None


def _require_staff(request: HttpRequest, roles: tuple[str, ...] = permissions.VIEW_ROLES) -> None:
    if not _codes(request, roles):
        raise PermissionDenied("Seu perfil não tem acesso às escalas e jornadas.")


def _date(raw: str, label: str, *, required: bool = True) -> dt.date | None:
    raw = (raw or "").strip()
    if not raw and not required:
        return None
    if re.fullmatch(r"\d{2}/\d{2}/\d{4}", raw):
        raw = "-".join(reversed(raw.split("/")))
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        pass
    raise ValidationError(f"Informe {label} (dd/mm/aaaa).")


def _time(raw: str, label: str) -> dt.time:
    try:
        return dt.time.fromisoformat((raw or "").strip())
    except ValueError as error:
        raise ValidationError(f"Informe {label} (hh:mm).") from error


# --------------------------------------------------------------------------- rosters


class RosterList(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        _require_staff(request)
        rows = Roster.objects.select_related("line", "submitted_by__person")
        status = request.GET.get("situacao", "")
        if status in Roster.Status.values:
            rows = rows.filter(status=status)
        today = timezone.localdate()
        laws = []
        for code in _codes(request, permissions.VIEW_ROLES):
            positions, citation = rules.submitters(code, today)
            laws.append(
                {
                    "law": rules.law_name(code),
                    "text": (
                        f"Escalas submetidas pelo {rules.submitters_words(positions)} da linha e "
                        f"aprovadas pelo órgão ({citation})."
                        if positions
                        else "A lei não prevê escalas submetidas pelos representantes da linha."
                    ),
                    "hours": "" if rules.has_workday_limits(code) else rules.no_limits_text(code),
                }
            )
        return render(
            request,
            "rosters/list.html",
            {
                "title": "Escalas das linhas",
                "rows": rows[:300],
                "statuses": Roster.Status.choices,
                "laws": laws,
                "can_record": bool(_codes(request, permissions.RECORD_ROLES)),
                "pending": Roster.objects.filter(status=Roster.Status.SUBMITTED).count(),
            },
        )


class RosterCreate(LoginRequiredMixin, View):
    def _context(self, request: HttpRequest, errors: list[str], data: Any) -> dict[str, Any]:
        codes = _codes(request, permissions.RECORD_ROLES)
        return {
            "title": "Nova escala da linha",
            "lines": Line.objects.filter(jurisdiction_id__in=codes, active=True),
            "errors": errors,
            "data": data,
            "today": timezone.localdate(),
        }

    def get(self, request: HttpRequest) -> HttpResponse:
        _require_staff(request, permissions.RECORD_ROLES)
        return render(request, "rosters/roster_form.html", self._context(request, [], {}))

    def post(self, request: HttpRequest) -> HttpResponse:
        _require_staff(request, permissions.RECORD_ROLES)
        data = request.POST
        codes = _codes(request, permissions.RECORD_ROLES)
        try:
            line = Line.objects.filter(pk=int(data.get("linha") or 0), jurisdiction_id__in=codes).first()
            if line is None:
                raise ValidationError("Escolha a linha.")
            starts = _date(data.get("inicio", ""), "o início da vigência")
            assert starts is not None
            roster = services.create_roster(
                actor=request.user,
                line=line,
                starts_on=starts,
                ends_on=_date(data.get("fim", ""), "o fim da vigência", required=False),
                notes=data.get("observacoes", "").strip(),
            )
        except ValidationError as error:
            return render(
                request, "rosters/roster_form.html", self._context(request, error.messages, data), status=422
            )
        messages.success(request, "Escala criada: inclua os veículos e condutores.")
        return HttpResponseRedirect(reverse("rosters:detail", args=[roster.pk]))


class RosterDetail(LoginRequiredMixin, View):
    model = Roster

    def _render(
        self, request: HttpRequest, roster: Roster, errors: list[str], status: int = 200
    ) -> HttpResponse:
        access = _access(request)
        code = roster.jurisdiction_id
        roles = {r for r in permissions.RECORD_ROLES if permissions.allowed(access, code, (r,))}
        editable = roster.status in states.EDITABLE and bool(roles)
        today = timezone.localdate()
        vehicles, drivers = (
            selectors.line_vehicles_and_drivers(roster.line, max(today, roster.starts_on))
            if editable
            else ([], [])
        )
        positions, citation = rules.submitters(code, roster.starts_on)
        representatives = LineRepresentative.objects.filter(
            line=roster.line, position__in=positions
        ).select_related("person")
        return render(
            request,
            "rosters/detail.html",
            {
                "title": str(roster),
                "roster": roster,
                "entries": roster.entries.select_related("vehicle", "driver"),
                "editable": editable,
                "vehicles": vehicles,
                "drivers": drivers,
                "weekdays": WEEKDAYS,
                "representatives": representatives,
                "submitters": rules.submitters_words(positions),
                "submitters_citation": citation,
                "actions": states.actions(
                    roster,
                    roles
                    | ({"gestor"} if permissions.allowed(access, code, permissions.DECIDE_ROLES) else set()),
                ),
                "events": history(roster)[:30],
                "errors": errors,
            },
            status=status,
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        roster = get_object_or_404(
            Roster.objects.select_related("line", "submitted_by__person", "superseded_by"), pk=pk
        )
        return self._render(request, roster, [])

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        roster = get_object_or_404(Roster.objects.select_related("line"), pk=pk)
        access = _access(request)
        action = request.POST.get("acao", "")
        needed = permissions.DECIDE_ROLES if action in ("approve", "refuse") else permissions.RECORD_ROLES
        if not permissions.allowed(access, roster.jurisdiction_id, needed):
            raise PermissionDenied("Seu perfil não permite esta ação na escala.")
        data = request.POST
        try:
            if action == "entry":
                services.add_entry(actor=request.user, roster=roster, data=self._entry(roster, data))
                done = "Veículo e condutor incluídos na escala."
            elif action == "submit":
                rep = (
                    LineRepresentative.objects.filter(pk=int(data.get("representante") or 0))
                    .select_related("person")
                    .first()
                )
                if rep is None:
                    raise ValidationError("Escolha quem submete a escala.")
                services.submit_roster(actor=request.user, roster=roster, representative=rep)
                done = "Escala submetida ao órgão."
            elif action in ("approve", "refuse"):
                services.decide_roster(
                    actor=request.user,
                    roster=roster,
                    approve=action == "approve",
                    reasons=data.get("razoes", ""),
                )
                done = "Escala aprovada." if action == "approve" else "Escala recusada."
            else:
                raise ValidationError("Ação desconhecida.")
        except ValidationError as error:
            roster.refresh_from_db()
            return self._render(request, roster, error.messages, status=422)
        messages.success(request, done)
        return HttpResponseRedirect(reverse("rosters:detail", args=[roster.pk]))

    def _entry(self, roster: Roster, data: Any) -> services.EntryData:
        vehicle = Vehicle.objects.filter(
            pk=int(data.get("veiculo") or 0), jurisdiction_id=roster.jurisdiction_id
        ).first()
        driver = Person.objects.filter(
            pk=int(data.get("condutor") or 0), jurisdiction_id=roster.jurisdiction_id
        ).first()
        if vehicle is None:
            raise ValidationError("Escolha o veículo.")
        if driver is None:
            raise ValidationError("Escolha o condutor.")
        return services.EntryData(
            vehicle=vehicle,
            driver=driver,
            weekdays="".join(data.getlist("dias")),
            starts_at=_time(data.get("inicio", ""), "o início do turno"),
            ends_at=_time(data.get("fim", ""), "o fim do turno"),
            departures=data.get("partidas", "")[:300],
        )


class EntryRemove(LoginRequiredMixin, View):
    model = RosterEntry

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = get_object_or_404(
            RosterEntry.objects.select_related("roster__line", "vehicle", "driver"), pk=pk
        )
        return render(request, "rosters/entry_remove.html", {"title": "Retirar da escala", "entry": entry})

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = get_object_or_404(RosterEntry.objects.select_related("roster"), pk=pk)
        if not permissions.allowed(_access(request), entry.jurisdiction_id, permissions.RECORD_ROLES):
            raise PermissionDenied("Seu perfil não permite alterar a escala.")
        roster = entry.roster
        try:
            services.remove_entry(actor=request.user, entry=entry)
        except ValidationError as error:
            messages.error(request, error.messages[0])
        else:
            messages.success(request, "Retirado da escala.")
        return HttpResponseRedirect(reverse("rosters:detail", args=[roster.pk]))


# --------------------------------------------------------------------------- duty logs


def notice_link(log: DutyLog, infraction: dict[str, str]) -> str:
    """The infraction notice form prefilled with the plate, the code and the facts."""
    query = {
        "jurisdicao": log.jurisdiction_id,
        "placa": log.vehicle.plate,
        "infracao": infraction["code"],
        "descricao": (
            f"Jornada de {log.driver.full_name} em {br_date(log.day)} ({log.periods_display}): "
            + " ".join(v["message"] for v in log.violations if v.get("rule") == infraction.get("rule"))
        )[:2000],
    }
    return f"{reverse('enforcement:notice_create')}?{urlencode(query)}"


class DutyLogList(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        holder = _own_holder(request)
        if holder is None:
            _require_staff(request)
        rows = DutyLog.objects.select_related("vehicle", "driver", "holder__person", "holder__company")
        if request.GET.get("excessos") == "1":
            rows = rows.filter(within_limits=False)
        return render(
            request,
            "rosters/duty_logs.html",
            {
                "title": "Jornadas dos condutores",
                "rows": rows[:300],
                "can_record": holder is not None or bool(_codes(request, permissions.RECORD_ROLES)),
            },
        )


class DutyLogCreate(LoginRequiredMixin, View):
    def _context(self, request: HttpRequest, errors: list[str], data: Any) -> dict[str, Any]:
        rows = [
            (data.get(f"inicio{i}", ""), data.get(f"fim{i}", "")) if data else ("", "")
            for i in range(PERIOD_FIELDS)
        ]
        return {
            "title": "Registrar jornada do condutor",
            "errors": errors,
            "data": data,
            "period_rows": list(enumerate(rows)),
            "today": timezone.localdate(),
        }

    def _check(self, request: HttpRequest) -> None:
        if _own_holder(request) is None:
            _require_staff(request, permissions.RECORD_ROLES)

    def get(self, request: HttpRequest) -> HttpResponse:
        self._check(request)
        return render(request, "rosters/duty_log_form.html", self._context(request, [], {}))

    def post(self, request: HttpRequest) -> HttpResponse:
        self._check(request)
        data = request.POST
        holder = _own_holder(request)
        try:
            plate = clean_plate(data.get("placa", ""))
            if holder is not None:  # the holder's portal: their own vehicles only
                vehicle = Vehicle.objects.filter(plate=plate, holder=holder).first()
            else:
                codes = _codes(request, permissions.RECORD_ROLES)
                vehicle = Vehicle.objects.filter(plate=plate, jurisdiction_id__in=codes).first()
            if vehicle is None:
                raise ValidationError(
                    f"A placa {plate or '(em branco)'} não é de um veículo cadastrado"
                    + (" em seu nome." if holder is not None else ".")
                )
            cpf = normalize_cpf(data.get("cpf", ""))
            if holder is not None:  # the holder themself or one of their own permits' agents
                driver = (
                    Person.unscoped.filter(cpf=cpf, jurisdiction_id=vehicle.jurisdiction_id)
                    .filter(Q(holder_records=holder) | Q(agent_roles__permit__holder=holder))
                    .distinct()
                    .first()
                )
                if driver is None:
                    raise ValidationError("O CPF informado não é seu nem de um preposto das suas permissões.")
            else:
                driver = Person.objects.filter(cpf=cpf, jurisdiction_id=vehicle.jurisdiction_id).first()
                if driver is None:
                    raise ValidationError("O CPF informado não é de uma pessoa cadastrada.")
            day = _date(data.get("dia", ""), "o dia da jornada")
            assert day is not None
            periods = []
            for i in range(PERIOD_FIELDS):
                start, end = data.get(f"inicio{i}", "").strip(), data.get(f"fim{i}", "").strip()
                if start or end:
                    periods.append({"start": start, "end": end})
            log = services.record_duty_log(
                actor=request.user, vehicle=vehicle, driver=driver, day=day, periods=periods
            )
        except ValidationError as error:
            return render(
                request,
                "rosters/duty_log_form.html",
                self._context(request, error.messages, data),
                status=422,
            )
        messages.success(request, "Jornada registrada.")
        return HttpResponseRedirect(reverse("rosters:duty_log", args=[log.pk]))


class DutyLogDetail(LoginRequiredMixin, View):
    model = DutyLog

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        log = get_object_or_404(DutyLog.objects.select_related("vehicle", "driver", "holder"), pk=pk)
        can_notice = permissions.allowed(_access(request), log.jurisdiction_id, permissions.NOTICE_ROLES)
        infractions = [
            {**i, "link": notice_link(log, i) if can_notice else ""} for i in log.suggested_infractions
        ]
        return render(
            request,
            "rosters/duty_log.html",
            {
                "title": str(log),
                "log": log,
                "infractions": infractions,
                "can_notice": can_notice,
                "events": history(log)[:20],
            },
        )
