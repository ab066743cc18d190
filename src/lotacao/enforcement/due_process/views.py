"""Screens of the due process: filing a defense or appeal (clerk at the counter, holder in the
portal), the receipt, the judging bodies with their members and sessions, the session page where a
commission opens with its quorum, orders its agenda, votes and decides, and the decision page."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views import View

from lotacao.enforcement import permissions
from lotacao.enforcement.due_process import decisions, filings, judging, procedure
from lotacao.enforcement.due_process.stage import current_stage, in_force_penalty
from lotacao.enforcement.models import (
    BodyMember,
    Decision,
    Filing,
    FilingAttachment,
    InfractionNotice,
    JudgingBody,
    Session,
    Vote,
)
from lotacao.enforcement.reading import describe_penalty


def _access(request: HttpRequest) -> Any:
    return getattr(request, "access", None)


def _errors(form: forms.Form, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


def _is_own_holder(request: HttpRequest, notice: InfractionNotice) -> bool:
    access = _access(request)
    return bool(access is not None and access.holder_id and access.holder_id == notice.holder_id)


class ObjectView(LoginRequiredMixin, View):
    model: ClassVar[type[models.Model]]

    def get_object(self, pk: int) -> Any:
        return get_object_or_404(self.model._default_manager.all(), pk=pk)


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)] if data else []


class FilingForm(forms.Form):
    text = forms.CharField(label="Razões", widget=forms.Textarea(attrs={"rows": 8}))
    attachments = MultipleFileField(
        label="Anexos (PDF, PNG ou JPEG; até 10 MB cada)",
        required=False,
        help_text="Cópia da notificação e documentos que comprovem o alegado.",
    )


def stage_context(notice: InfractionNotice) -> dict[str, Any]:
    stage = current_stage(notice, timezone.localdate())
    return {
        "stage": stage,
        "stage_late": stage.due is not None and timezone.localdate() > stage.due,
    }


class FilingCreate(ObjectView):
    """Protocol a defense or appeal: a clerk at the counter, or the holder in the portal."""

    model = InfractionNotice

    def _allowed(self, request: HttpRequest, notice: InfractionNotice) -> str:
        if _is_own_holder(request, notice):
            return Filing.Channel.PORTAL
        if permissions.allowed(_access(request), notice.jurisdiction_id, permissions.FILING_ROLES):
            return Filing.Channel.COUNTER
        raise PermissionDenied("Seu perfil não permite protocolar defesa neste auto.")

    def _render(
        self, request: HttpRequest, notice: InfractionNotice, form: FilingForm, status: int = 200
    ) -> HttpResponse:
        context = {"title": f"Defesa ou recurso — auto {notice.number}", "notice": notice, "form": form}
        context.update(stage_context(notice))
        return render(request, "enforcement/due_process/filing_form.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        self._allowed(request, notice)
        return self._render(request, notice, FilingForm())

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        channel = self._allowed(request, notice)
        form = FilingForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                filing = filings.file_defense(
                    actor=request.user,
                    notice=notice,
                    text=form.cleaned_data["text"],
                    channel=channel,
                    attachments=form.cleaned_data["attachments"],
                    reason="Protocolo pelo portal do permissionário"
                    if channel == Filing.Channel.PORTAL
                    else "Protocolo no órgão",
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                text = f"Protocolado: nº {filing.receipt}."
                if filing.late:
                    text += " Atenção: fora do prazo — o órgão julgador declarará a intempestividade."
                messages.success(request, text)
                return HttpResponseRedirect(filing.get_absolute_url())
        return self._render(request, notice, form, status=422)


class DecideForm(forms.Form):
    outcome = forms.ChoiceField(
        label="Resultado",
        choices=[(o.value, o.label) for o in Decision.Outcome if o != Decision.Outcome.LAPSED],
    )
    reasons = forms.CharField(label="Fundamentação", widget=forms.Textarea(attrs={"rows": 5}))
    decided_on = forms.DateField(label="Data da decisão", widget=forms.DateInput(attrs={"type": "date"}))
    new_penalty = forms.ChoiceField(
        label="Nova penalidade (se alterada)",
        required=False,
        choices=[
            ("", "—"),
            ("warning", "Advertência"),
            ("fine", "Multa (valor em R$)"),
            ("suspension", "Suspensão (dias)"),
        ],
    )
    new_value = forms.DecimalField(label="Valor ou dias", required=False, min_value=0)


def changed_penalty(data: dict[str, Any]) -> dict[str, Any] | None:
    kind = data.get("new_penalty")
    if not kind:
        return None
    amount = data.get("new_value")
    if kind == "warning":
        return {"penalties": [{"type": "warning"}]}
    if amount is None or amount <= 0:
        raise ValidationError("Informe o valor da multa ou os dias de suspensão.")
    if kind == "fine":
        return {"penalties": [{"type": "fine", "amount": f"{amount:.2f}"}]}
    return {"penalties": [{"type": "suspension", "days": int(amount)}]}


class FilingDetail(ObjectView):
    """The filing with its receipt; for a body that decides alone, the decision form."""

    model = Filing

    def _render(self, request: HttpRequest, filing: Filing, form: Any, status: int = 200) -> HttpResponse:
        limit, held, cites = judging.diligence_limit(filing)
        can_decide = (
            filing.body is not None
            and not filing.body.collegiate
            and filing.status in (Filing.Status.PENDING, Filing.Status.DILIGENCE)
            and permissions.allowed(_access(request), filing.jurisdiction_id, permissions.JUDGING_ROLES)
        )
        context = {
            "title": f"Protocolo {filing.receipt}",
            "filing": filing,
            "notice": filing.notice,
            "attachments": filing.attachments.all(),
            "decision": Decision.objects.filter(filing=filing).first(),
            "form": form if can_decide else None,
            "diligence": {"limit": limit, "held": held, "cites": cites},
        }
        return render(request, "enforcement/due_process/filing_detail.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        filing = self.get_object(pk)
        return self._render(request, filing, DecideForm(initial={"decided_on": timezone.localdate()}))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        filing = self.get_object(pk)
        permissions.require(request, filing.jurisdiction_id, permissions.JUDGING_ROLES)
        form = DecideForm(request.POST)
        if form.is_valid():
            try:
                decision = decisions.decide(
                    actor=request.user,
                    filing=filing,
                    outcome=form.cleaned_data["outcome"],
                    reasons=form.cleaned_data["reasons"],
                    decided_on=form.cleaned_data["decided_on"],
                    penalty=changed_penalty(form.cleaned_data),
                    reason="Decisão da autoridade julgadora",
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, f"Decisão registrada: {decision.get_outcome_display()}.")
                return HttpResponseRedirect(decision.get_absolute_url())
        return self._render(request, filing, form, status=422)


class FilingReceiptPdf(ObjectView):
    """The receipt (comprovante de protocolo) the law requires (Esteio Anexo I art. 20 § 2º)."""

    model = Filing

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        from weasyprint import HTML

        filing = self.get_object(pk)
        html = render_to_string(
            "enforcement/due_process/filing_receipt_pdf.html",
            {"filing": filing, "notice": filing.notice, "jurisdiction": filing.jurisdiction},
        )
        pdf = HTML(string=html).write_pdf()
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="protocolo-{filing.pk}.pdf"'
        return response


class AttachmentDownload(ObjectView):
    model = FilingAttachment

    def get(self, request: HttpRequest, pk: int) -> FileResponse:
        attachment = self.get_object(pk)
        response = FileResponse(attachment.file.open("rb"), content_type=attachment.content_type)
        response["Content-Disposition"] = f'attachment; filename="{attachment.name}"'
        return response


# ------------------------------------------------------------------------------ bodies and sessions


class Bodies(LoginRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        codes = permissions.jurisdictions_for(_access(request), permissions.PROCESS_VIEW_ROLES)
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
    starts_on = forms.DateField(label="Início do mandato", widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(
        label="Fim do mandato",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Em branco: o mandato da lei, quando ela o fixa.",
    )
    reason = forms.CharField(label="Motivo", max_length=300, initial="Nomeação de membro")


class SessionForm(forms.Form):
    held_on = forms.DateField(label="Data", widget=forms.DateInput(attrs={"type": "date"}))
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
                _access(request), body.jurisdiction_id, permissions.JUDGING_ROLES
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
                    judging.add_member(actor=request.user, body=body, **form.cleaned_data)
                except ValidationError as error:
                    _errors(form, error)
                else:
                    messages.success(request, "Membro incluído.")
                    return HttpResponseRedirect(body.get_absolute_url())
            return self._render(request, body, member_form=form, status=422)
        form = SessionForm(request.POST)
        if form.is_valid():
            try:
                session = judging.schedule_session(actor=request.user, body=body, **form.cleaned_data)
            except ValidationError as error:
                _errors(form, error)
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
        for item in session.agenda.select_related("filing__notice"):
            filing = item.filing
            items.append(
                {
                    "item": item,
                    "filing": filing,
                    "penalty": describe_penalty(in_force_penalty(filing.notice)),
                    "decision": Decision.objects.filter(filing=filing).first(),
                    "votes": list(Vote.objects.filter(item=item).select_related("member")),
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
            "choices": Vote.Choice.choices,
            "can_manage": permissions.allowed(
                _access(request), session.jurisdiction_id, permissions.JUDGING_ROLES
            ),
            "errors": error or [],
            "today": timezone.localdate(),
        }
        return render(request, "enforcement/due_process/session.html", context, status=422 if error else 200)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(request, self.get_object(pk))

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
        if action == "close":
            judging.close_session(actor=request.user, session=session, minutes=post.get("minutes", ""))
            return "Sessão encerrada."
        item = get_object_or_404(session.agenda.all(), pk=int(post.get("item", "0") or 0))
        if action == "diligence":
            judging.request_diligence(
                actor=request.user,
                item=item,
                description=post.get("description", ""),
                reason="Diligência pedida",
            )
            return "Diligência registrada: o processo terá prioridade nas próximas sessões."
        if action == "judge":
            votes: dict[BodyMember, str] = {}
            for member in session.present.all():
                choice = post.get(f"vote_{member.pk}", "")
                if choice:
                    votes[member] = choice
            outcome = post.get("outcome") or None
            decided = decisions.decide(
                actor=request.user,
                filing=item.filing,
                session=session,
                votes=votes or None,
                outcome=outcome,
                reasons=post.get("reasons", ""),
                decided_on=session.held_on,
                penalty=changed_penalty(
                    {"new_penalty": post.get("new_penalty", ""), "new_value": _decimal(post.get("new_value"))}
                ),
            )
            return f"Julgado: {decided.get_outcome_display()}."
        raise ValidationError("Ação desconhecida.")


def _decimal(raw: Any) -> Any:
    from decimal import Decimal, InvalidOperation

    try:
        return Decimal(str(raw).replace(",", ".")) if raw not in (None, "") else None
    except InvalidOperation as error:
        raise ValidationError("Valor inválido.") from error


class ServiceForm(forms.Form):
    served_on = forms.DateField(label="Comunicada em", widget=forms.DateInput(attrs={"type": "date"}))


class DecisionDetail(ObjectView):
    model = Decision

    def _render(self, request: HttpRequest, decision: Decision, form: Any, status: int = 200) -> HttpResponse:
        notice = decision.notice
        context = {
            "title": f"Decisão — auto {notice.number}",
            "decision": decision,
            "notice": notice,
            "penalty_text": describe_penalty(decision.penalty) if decision.penalty else "",
            "form": form,
            "can_record": permissions.allowed(
                _access(request),
                decision.jurisdiction_id,
                permissions.FILING_ROLES + permissions.JUDGING_ROLES,
            ),
        }
        context.update(stage_context(notice))
        return render(request, "enforcement/due_process/decision.html", context, status=status)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        return self._render(
            request, self.get_object(pk), ServiceForm(initial={"served_on": timezone.localdate()})
        )

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        decision = self.get_object(pk)
        permissions.require(
            request, decision.jurisdiction_id, permissions.FILING_ROLES + permissions.JUDGING_ROLES
        )
        form = ServiceForm(request.POST)
        if form.is_valid():
            try:
                decisions.record_decision_service(
                    actor=request.user, decision=decision, served_on=form.cleaned_data["served_on"]
                )
            except ValidationError as error:
                _errors(form, error)
            else:
                messages.success(request, "Comunicação da decisão registrada.")
                return HttpResponseRedirect(decision.get_absolute_url())
        return self._render(request, decision, form, status=422)
