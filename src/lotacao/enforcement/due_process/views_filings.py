"""Screens of defenses, appeals and decisions: filing a defense or appeal (clerk at the counter,
holder in the portal), the filing with its receipt (and, for a body that decides alone, the
decision form), the attachments, and the decision page where its service is recorded. The
sessions of collegiate bodies: `views_judging`."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone

from lotacao.core.dateinputs import DateField
from lotacao.enforcement import permissions
from lotacao.enforcement.due_process import decisions, filings, judging, minutes
from lotacao.enforcement.due_process.choices import alternatives
from lotacao.enforcement.due_process.stage import in_force_penalty, stage_context
from lotacao.enforcement.models import (
    Decision,
    Filing,
    FilingAttachment,
    InfractionNotice,
)
from lotacao.enforcement.reading import describe_penalty, infraction_day, measure_words
from lotacao.enforcement.sanctions import crc
from lotacao.enforcement.views_base import ObjectView, access_of, show_refusal


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


class FilingCreate(ObjectView):
    """Protocol a defense or appeal: a clerk at the counter, or the holder in the portal."""

    model = InfractionNotice

    def _allowed(self, request: HttpRequest, notice: InfractionNotice) -> str:
        if permissions.is_own_holder(access_of(request), notice):
            return Filing.Channel.PORTAL
        if permissions.allowed(access_of(request), notice.jurisdiction_id, permissions.FILING_ROLES):
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
        if stage_context(notice)["filing_requirement"]:
            # The page said so before any typing; a post that comes anyway changes nothing.
            return self._render(request, notice, form, status=422)
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
                show_refusal(form, error)
            else:
                text = f"Protocolado: nº {filing.receipt}."
                if filing.late:
                    text += " Atenção: fora do prazo — o órgão julgador declarará a intempestividade."
                messages.success(request, text)
                return HttpResponseRedirect(filing.get_absolute_url())
        return self._render(request, notice, form, status=422)


PENALTY_CHOICES = [
    ("", "—"),
    ("warning", "Advertência"),
    ("fine", "Multa (valor em R$)"),
    ("suspension", "Suspensão (dias)"),
]


class DecideForm(forms.Form):
    outcome = forms.ChoiceField(
        label="Resultado",
        choices=[(o.value, o.label) for o in Decision.Outcome if o != Decision.Outcome.LAPSED],
    )
    reasons = forms.CharField(label="Fundamentação", widget=forms.Textarea(attrs={"rows": 5}))
    decided_on = DateField(label="Data da decisão")
    new_penalty = forms.ChoiceField(
        label="Nova penalidade (se alterada)", required=False, choices=PENALTY_CHOICES
    )
    new_value = forms.DecimalField(label="Valor ou dias", required=False, min_value=0)
    measure_choice = forms.ChoiceField(label="Medida escolhida (a lei oferece uma ou outra)", required=False)

    def __init__(
        self,
        *args: Any,
        alternatives: list[str] | None = None,
        crc_choices: list[tuple[str, str]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if crc_choices:  # Pernambuco: the CRC's sanctions (art. 23, III–IV; art. 35), added to the fine
            penalty = self.fields["new_penalty"]
            assert isinstance(penalty, forms.ChoiceField)
            penalty.choices = [*PENALTY_CHOICES, *crc_choices]
            penalty.label = "Nova penalidade (se alterada; a sanção do CRC soma-se à multa)"
        field = self.fields["measure_choice"]
        assert isinstance(field, forms.ChoiceField)
        if alternatives:
            field.choices = [("", "—"), *((k, measure_words(k)) for k in alternatives)]
        else:
            del self.fields["measure_choice"]


def changed_penalty(data: dict[str, Any], notice: InfractionNotice | None = None) -> dict[str, Any] | None:
    """The form's "new penalty" and "value or days" as a decision's penalty (None: unchanged)."""
    return decisions.penalty_from(data.get("new_penalty") or "", data.get("new_value"), notice)


class FilingDetail(ObjectView):
    """The filing with its receipt; for a body that decides alone, the decision form."""

    model = Filing

    def _render(self, request: HttpRequest, filing: Filing, form: Any, status: int = 200) -> HttpResponse:
        limit, held, cites = judging.diligence_limit(filing)
        can_decide = (
            filing.body is not None
            and not filing.body.collegiate
            and filing.status in (Filing.Status.PENDING, Filing.Status.DILIGENCE)
            and permissions.allowed(access_of(request), filing.jurisdiction_id, permissions.JUDGING_ROLES)
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

    def _form(self, filing: Filing, data: Any = None) -> DecideForm:
        notice = filing.notice
        return DecideForm(
            data,
            initial={"decided_on": timezone.localdate()},
            alternatives=alternatives(in_force_penalty(notice)),
            crc_choices=crc.choices(notice.jurisdiction_id, infraction_day(notice)),
        )

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        filing = self.get_object(pk)
        return self._render(request, filing, self._form(filing))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        filing = self.get_object(pk)
        permissions.require(request, filing.jurisdiction_id, permissions.JUDGING_ROLES)
        form = self._form(filing, request.POST)
        if form.is_valid():
            try:
                decision = decisions.decide(
                    actor=request.user,
                    filing=filing,
                    outcome=form.cleaned_data["outcome"],
                    reasons=form.cleaned_data["reasons"],
                    decided_on=form.cleaned_data["decided_on"],
                    penalty=changed_penalty(form.cleaned_data, filing.notice),
                    measure_choice=form.cleaned_data.get("measure_choice") or None,
                    reason="Decisão da autoridade julgadora",
                )
            except ValidationError as error:
                show_refusal(form, error)
            else:
                messages.success(request, f"Decisão registrada: {decision.get_outcome_display()}.")
                return HttpResponseRedirect(decision.get_absolute_url())
        return self._render(request, filing, form, status=422)


class FilingReceiptPdf(ObjectView):
    """The receipt (comprovante de protocolo) the law requires (Esteio Anexo I art. 20 § 2º)."""

    model = Filing

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        from lotacao.core.pdf import render

        filing = self.get_object(pk)
        html = render_to_string(
            "enforcement/due_process/filing_receipt_pdf.html",
            {"filing": filing, "notice": filing.notice, "jurisdiction": filing.jurisdiction},
        )
        pdf = render(html)
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


class ServiceForm(forms.Form):
    served_on = DateField(label="Comunicada em")


class DecisionDetail(ObjectView):
    model = Decision

    def _render(self, request: HttpRequest, decision: Decision, form: Any, status: int = 200) -> HttpResponse:
        notice = decision.notice
        context = {
            "title": f"Decisão — auto {notice.number}",
            "decision": decision,
            "notice": notice,
            "penalty_text": describe_penalty(decision.penalty) if decision.penalty else "",
            "member_votes": minutes.vote_lines(decision),
            "form": form,
            "can_record": permissions.allowed(
                access_of(request),
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
                show_refusal(form, error)
            else:
                messages.success(request, "Comunicação da decisão registrada.")
                return HttpResponseRedirect(decision.get_absolute_url())
        return self._render(request, decision, form, status=422)
