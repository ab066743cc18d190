"""The screen where the body that applies the penalty records its decision on a notice, where
the law gives the body that first decision without a filing (`process.instances[].ex_officio`:
Cabo's Council, art. 29): apply as computed, apply changed, or not apply (the notice annulled)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone

from lotacao.core.dateinputs import DateField
from lotacao.enforcement import permissions
from lotacao.enforcement.due_process import application
from lotacao.enforcement.due_process.stage import current_stage
from lotacao.enforcement.due_process.views_filings import changed_penalty
from lotacao.enforcement.models import BodyMember, InfractionNotice, Session, Vote
from lotacao.enforcement.reading import describe_penalty
from lotacao.enforcement.views_base import ObjectView, access_of, show_refusal


class ApplicationForm(forms.Form):
    outcome = forms.ChoiceField(label="Decisão", choices=list(application.OUTCOME_WORDS.items()))
    session = forms.ModelChoiceField(label="Sessão", queryset=Session.objects.none(), required=False)
    reasons = forms.CharField(label="Fundamentação", widget=forms.Textarea(attrs={"rows": 5}))
    decided_on = DateField(label="Data da decisão")
    new_penalty = forms.ChoiceField(
        label="Penalidade aplicada (se alterada)",
        required=False,
        choices=[
            ("", "—"),
            ("warning", "Advertência"),
            ("fine", "Multa (valor em R$)"),
            ("suspension", "Suspensão (dias)"),
        ],
    )
    new_value = forms.DecimalField(label="Valor ou dias", required=False, min_value=0)

    def __init__(self, *args: Any, sessions: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["session"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = sessions


class PenaltyApplication(ObjectView):
    """The body's decision form where one is pending; else the page says why there is none."""

    model = InfractionNotice

    def _render(
        self, request: HttpRequest, notice: InfractionNotice, form: ApplicationForm, status: int = 200
    ) -> HttpResponse:
        today = timezone.localdate()
        stage = application.awaiting(notice, today)
        can_apply = stage is not None and permissions.allowed(
            access_of(request), notice.jurisdiction_id, permissions.JUDGING_ROLES
        )
        name = (
            str(stage.instance["name"]) if stage is not None and stage.instance else "Aplicação da penalidade"
        )
        context = {
            "title": f"{name} — auto {notice.number}",
            "notice": notice,
            "stage": stage or current_stage(notice, today),
            "pending": stage is not None,
            "penalty_text": describe_penalty(notice.penalty),
            "form": form if can_apply else None,
            "ballots": _ballots(notice) if can_apply else [],
            "ballot_choices": Vote.Choice.choices,
        }
        return render(request, "enforcement/due_process/application_form.html", context, status=status)

    def _form(self, notice: InfractionNotice, data: Any = None) -> ApplicationForm:
        sessions = Session.objects.filter(jurisdiction_id=notice.jurisdiction_id, status=Session.Status.OPEN)
        initial = {"decided_on": timezone.localdate()}
        return ApplicationForm(data, sessions=sessions.select_related("body"), initial=initial)

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        return self._render(request, notice, self._form(notice))

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        notice = self.get_object(pk)
        permissions.require(request, notice.jurisdiction_id, permissions.JUDGING_ROLES)
        form = self._form(notice, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                decision = application.apply_penalty(
                    actor=request.user,
                    notice=notice,
                    outcome=data["outcome"],
                    reasons=data["reasons"],
                    decided_on=data["decided_on"],
                    session=data["session"],
                    penalty=changed_penalty(data, notice),
                    **_votes_posted(request.POST, data["session"]),
                )
            except ValidationError as error:
                show_refusal(form, error)
            else:
                words = application.OUTCOME_WORDS[decision.outcome]
                messages.success(request, f"{words}: comunique a decisão ao infrator.")
                return HttpResponseRedirect(decision.get_absolute_url())
        return self._render(request, notice, form, status=422)


def _ballots(notice: InfractionNotice) -> list[dict[str, Any]]:
    """The open sessions of collegiate bodies with their members present: each may vote on the
    application (the outcome is then the votes'), or the outcome is recorded as proclaimed."""
    sessions = Session.objects.filter(
        jurisdiction_id=notice.jurisdiction_id, status=Session.Status.OPEN, body__collegiate=True
    ).select_related("body")
    return [
        {"session": s, "members": sorted(s.present.all(), key=lambda m: (m.role != "president", m.name))}
        for s in sessions
    ]


def _votes_posted(post: Any, session: Session | None) -> dict[str, Any]:
    """The votes of the chosen session's members present, as posted (`vote_<id>`, `reasons_<id>`)."""
    if session is None:
        return {}
    given: dict[BodyMember, str] = {}
    reasons: dict[BodyMember, str] = {}
    for member in session.present.all():
        choice = post.get(f"vote_{session.pk}_{member.pk}", "")
        if choice:
            given[member] = choice
            reasons[member] = post.get(f"reasons_{session.pk}_{member.pk}", "")
    return {"votes": given, "vote_reasons": reasons} if given else {}
