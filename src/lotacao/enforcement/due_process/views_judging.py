"""Screens of the judging bodies: the bodies with their members and sessions (the commission or
the manager names members and calls sessions), and the session page where a commission opens with
its quorum, orders its agenda, asks diligences, votes and decides."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views import View

from lotacao.core.dateinputs import DateField
from lotacao.enforcement import permissions
from lotacao.enforcement.due_process import decisions, judging, minutes, procedure, votes
from lotacao.enforcement.due_process.choices import alternatives
from lotacao.enforcement.due_process.stage import in_force_penalty
from lotacao.enforcement.due_process.views_filings import changed_penalty
from lotacao.enforcement.models import BodyMember, Decision, Filing, JudgingBody, Session, Vote
from lotacao.enforcement.reading import describe_penalty, measure_words
from lotacao.enforcement.views_base import ObjectView, access_of, show_refusal


class Bodies(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        codes = permissions.jurisdictions_for(access_of(request), permissions.PROCESS_VIEW_ROLES)
        if not codes:
            raise PermissionDenied("Seu perfil não tem acesso aos órgãos julgadores.")
        today = timezone.localdate()
        for code in codes:
            judging.ensure_bodies(code, today)
        bodies = JudgingBody.objects.filter(jurisdiction_id__in=codes).prefetch_related("members")
        rows = []
        for body in bodies:
            waiting = Filing.objects.filter(
                body=body, status__in=[Filing.Status.PENDING, Filing.Status.DILIGENCE]
            ).count()
            rows.append(
                {
                    "body": body,
                    "waiting": waiting,
                    "rules": procedure.body_rules(body.jurisdiction_id, body.key, today),
                }
            )
        return render(
            request, "enforcement/due_process/bodies.html", {"title": "Órgãos julgadores", "rows": rows}
        )


class MemberForm(forms.Form):
    name = forms.CharField(label="Nome", max_length=200)
    role = forms.ChoiceField(label="Função", choices=BodyMember.Role.choices)
    seat = forms.CharField(label="Representação", max_length=200, required=False)
    act = forms.CharField(label="Ato de nomeação", max_length=200, required=False)
    starts_on = DateField(label="Início do mandato")
    ends_on = DateField(
        label="Fim do mandato",
        required=False,
        help_text="Em branco: o mandato da lei, quando ela o fixa.",
    )
    login = forms.CharField(
        label="Usuário do membro no sistema",
        max_length=150,
        required=False,
        help_text="O presidente precisa de usuário para assinar as atas das sessões.",
    )
    reason = forms.CharField(label="Motivo", max_length=300, initial="Nomeação de membro")

    def clean_login(self) -> Any:
        login = (self.cleaned_data.get("login") or "").strip()
        if not login:
            return None
        user = get_user_model().objects.filter(username=login, is_active=True).first()
        if user is None:
            raise forms.ValidationError("Não há usuário ativo com esse nome de acesso.")
        return user


class SessionForm(forms.Form):
    held_on = DateField(label="Data")
    kind = forms.ChoiceField(label="Tipo", choices=Session.Kind.choices)
    reason = forms.CharField(label="Motivo", max_length=300, initial="Convocação de sessão")


class BodyDetail(ObjectView):
    model = JudgingBody

    def _render(self, request: HttpRequest, body: JudgingBody, **forms_: Any) -> HttpResponse:
        today = timezone.localdate()
        context = {
            "title": body.name,
            "body": body,
            "rules": procedure.body_rules(body.jurisdiction_id, body.key, today),
            "members": body.members.all(),
            "sessions": body.sessions.all()[:50],
            "waiting": judging.agenda_order(
                Filing.objects.filter(
                    body=body, status__in=[Filing.Status.PENDING, Filing.Status.DILIGENCE]
                ).select_related("notice")
            ),
            "can_manage": permissions.allowed(
                access_of(request), body.jurisdiction_id, permissions.JUDGING_ROLES
            ),
            "member_form": forms_.get("member_form") or MemberForm(initial={"starts_on": today}),
            "session_form": forms_.get("session_form") or SessionForm(initial={"held_on": today}),
        }
        return render(request, "enforcement/due_process/body.html", context, status=forms_.get("status", 200))

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, self.get_object(pk))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        body = self.get_object(pk)
        permissions.require(request, body.jurisdiction_id, permissions.JUDGING_ROLES)
        if request.POST.get("action") == "member":
            form: forms.Form = MemberForm(request.POST)
            if form.is_valid():
                try:
                    data = dict(form.cleaned_data)
                    judging.add_member(actor=request.user, body=body, user=data.pop("login"), **data)
                except ValidationError as error:
                    show_refusal(form, error)
                else:
                    messages.success(request, "Membro incluído.")
                    return HttpResponseRedirect(body.get_absolute_url())
            return self._render(request, body, member_form=form, status=422)
        form = SessionForm(request.POST)
        if form.is_valid():
            try:
                session = judging.schedule_session(actor=request.user, body=body, **form.cleaned_data)
            except ValidationError as error:
                show_refusal(form, error)
            else:
                messages.success(request, f"{session} agendada.")
                return HttpResponseRedirect(session.get_absolute_url())
        return self._render(request, body, session_form=form, status=422)


class SessionDetail(ObjectView):
    """The session: presence and quorum, the agenda in the law's order, votes and decisions."""

    model = Session

    def _render(self, request: HttpRequest, session: Session, error: list[str] | None = None) -> HttpResponse:
        rules = procedure.body_rules(session.jurisdiction_id, session.body.key, session.held_on)
        members = [m for m in session.body.members.all() if m.serves_on(session.held_on)]
        present = set(session.present.all())
        items = []
        agenda = session.agenda.select_related("filing__notice__holder", "filing__notice__agent")
        for item in agenda:
            filing = item.filing
            items.append(
                {
                    "item": item,
                    "filing": filing,
                    "holder": minutes.holder_words(filing.notice),
                    "infraction": minutes.infraction_words(filing.notice),
                    "penalty": describe_penalty(in_force_penalty(filing.notice)),
                    "alternatives": [
                        (kind, measure_words(kind)) for kind in alternatives(in_force_penalty(filing.notice))
                    ],
                    "decision": (decision := Decision.objects.filter(filing=filing).first()),
                    "tally": minutes.tally_words(decision) if decision is not None else "",
                    "votes": (cast := list(Vote.objects.filter(item=item).select_related("member"))),
                    "ballot": _ballot(session, present, cast),
                    "result": votes.result(item) if cast and decision is None else None,
                }
            )
        context = {
            "title": str(session),
            "session": session,
            "rules": rules,
            "members": members,
            "present": present,
            "present_members": [m for m in members if m in present],
            "items": items,
            "choices": [c for c in Vote.Choice.choices if c[0] in votes.MERITS],
            "ballot_choices": Vote.Choice.choices,
            "can_manage": permissions.allowed(
                access_of(request), session.jurisdiction_id, permissions.JUDGING_ROLES
            ),
            "errors": error or [],
            "today": timezone.localdate(),
            "president": minutes.president_of(session),
            "minutes_stale": bool(session.minutes_generated_at)
            and session.status != Session.Status.CLOSED
            and minutes.stale(session),
            "signed_words": minutes.signed_words(session),
        }
        return render(request, "enforcement/due_process/session.html", context, status=422 if error else 200)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        session = self.get_object(pk)
        if request.GET.get("formato") == "pdf":
            response = HttpResponse(minutes.minutes_pdf(session), content_type="application/pdf")
            response["Content-Disposition"] = f'inline; filename="ata-sessao-{session.pk}.pdf"'
            return response
        return self._render(request, session)

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        session = self.get_object(pk)
        permissions.require(request, session.jurisdiction_id, permissions.JUDGING_ROLES)
        action = request.POST.get("action", "")
        try:
            text = self._act(request, session, action)
        except ValidationError as error:
            return self._render(request, session, error=list(error.messages))
        messages.success(request, text)
        return HttpResponseRedirect(session.get_absolute_url())

    def _act(self, request: HttpRequest, session: Session, action: str) -> str:
        post = request.POST
        if action == "open":
            ids = [int(x) for x in post.getlist("present") if x.isdigit()]
            members = list(BodyMember.objects.filter(body=session.body, pk__in=ids))
            judging.open_session(
                actor=request.user, session=session, present=members, reason="Abertura da sessão"
            )
            return "Sessão aberta."
        if action == "agenda":
            items = judging.build_agenda(actor=request.user, session=session)
            return f"Pauta com {len(items)} processo(s)."
        if action == "minutes":
            minutes.generate(actor=request.user, session=session, notes=post.get("notes", ""))
            return "Ata gerada a partir da sessão: falta a assinatura do presidente."
        if action == "sign":
            minutes.sign(actor=request.user, session=session)
            return "Ata assinada pelo presidente."
        if action == "close":
            judging.close_session(actor=request.user, session=session)
            return "Sessão encerrada."
        raw_item = post.get("item", "")
        item = get_object_or_404(session.agenda.all(), pk=int(raw_item) if raw_item.isdigit() else 0)
        if action == "diligence":
            judging.request_diligence(
                actor=request.user,
                item=item,
                description=post.get("description", ""),
                reason="Diligência pedida",
            )
            return "Diligência registrada: o processo terá prioridade nas próximas sessões."
        if action == "vote":
            raw_member = post.get("member", "")
            member = BodyMember.objects.filter(pk=int(raw_member) if raw_member.isdigit() else 0).first()
            if member is None:
                raise ValidationError("Membro desconhecido.")
            vote = votes.cast_vote(
                actor=request.user,
                item=item,
                member=member,
                choice=post.get("choice", ""),
                reasons=post.get("vote_reasons", ""),
            )
            return f"Voto de {member.name} registrado: {vote.get_choice_display()}."
        if action == "judge":
            given: dict[BodyMember, str] = {}
            vote_reasons: dict[BodyMember, str] = {}
            for member in session.present.all():
                choice = post.get(f"vote_{member.pk}", "")
                if choice:
                    given[member] = choice
                    vote_reasons[member] = post.get(f"reasons_{member.pk}", "")
            outcome = post.get("outcome") or None
            decided = decisions.decide(
                actor=request.user,
                filing=item.filing,
                session=session,
                votes=given or None,
                outcome=outcome,
                reasons=post.get("reasons", ""),
                decided_on=session.held_on,
                measure_choice=post.get("measure_choice") or None,
                vote_reasons=vote_reasons,
                penalty=changed_penalty(
                    {
                        "new_penalty": post.get("new_penalty", ""),
                        "new_value": _decimal(post.get("new_value")),
                    },
                    item.filing.notice,
                ),
            )
            return f"Julgado: {decided.get_outcome_display()}."
        raise ValidationError("Ação desconhecida.")


def _ballot(session: Session, present: set[BodyMember], cast: list[Vote]) -> list[dict[str, Any]]:
    """Each member present with the vote recorded so far (None: not yet voted)."""
    by_member = {v.member_id: v for v in cast}
    ordered = sorted(present, key=lambda m: (m.role != BodyMember.Role.PRESIDENT, m.name))
    return [{"member": m, "vote": by_member.get(m.pk)} for m in ordered]


def _decimal(raw: Any) -> Any:
    try:
        return Decimal(str(raw).replace(",", ".")) if raw not in (None, "") else None
    except InvalidOperation as error:
        raise ValidationError("Valor inválido.") from error
