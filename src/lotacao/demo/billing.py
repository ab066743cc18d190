"""Demo data of billing (called by lotacao.demo.base after the other domains).

For each jurisdiction:
- the billing register: every holder of a live permit is enrolled from the grant, and every company
  with a CRC from its issue, with its modalities (the grant and the CRC do it);
- the fare of each line, citing a demonstration act (with the council's opinion where the law
  requires one);
- the values the law leaves to the agency that the monthly run needs, as demonstration acts: the
  money base and due day of Recife's management fee and Cabo's RST, and every agency's PIX key;
- the demand of last month declared by the demo holder (`permissionario.<code>`);
- last month billed (approved and executed), so ledgers, slips and the funds report have monthly
  charges; this month simulated and waiting for the manager's approval.

Idempotent: every row is looked up before it is made; writes go through the services.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.utils import timezone

from lotacao.accounts.models import HolderAccount
from lotacao.billing.fares.models import FareAct
from lotacao.billing.fares.services import set_fare
from lotacao.billing.ledger.models import Account
from lotacao.billing.ledger.services import open_account
from lotacao.billing.runs import services as runs
from lotacao.billing.runs.declarations import declare_demand
from lotacao.billing.runs.models import BillingRun, DemandDeclaration
from lotacao.core import law
from lotacao.core.models import AgencyValue, Jurisdiction
from lotacao.permits.models import Permit
from lotacao.registry.models import Line, Vehicle
from lotacao.web.agency_values import set_agency_value

REASON = "Dados de demonstração"
ACT = "Portaria de demonstração nº 1/2025"
FARES = {"recife": "4.10", "cabo": "4.50", "esteio": "5.20", "marica": "3.80"}
# What the demo agencies decided where their law leaves it open (never the law's own values).
AGENCY_VALUES: dict[str, list[tuple[str, Any]]] = {
    "recife": [("fee.base.management", {"method": "passengers_x_fare"}), ("fee.due_day.management", 15)],
    "cabo": [("fee.base.rst", {"method": "declared_revenue"}), ("fee.due_day.rst", 20)],
}


def load(today: dt.date, summary: Any) -> None:
    today = min(today, timezone.localdate())
    for jurisdiction in Jurisdiction.objects.order_by("code"):
        code = jurisdiction.code
        _agency_values(jurisdiction, today, summary)
        _accounts(jurisdiction, today, summary)
        _fares(jurisdiction, today, summary)
        _declaration(jurisdiction, today, summary)
        _runs(jurisdiction, today, summary, code)


def _agency_values(jurisdiction: Jurisdiction, today: dt.date, summary: Any) -> None:
    start = law.pack_for(jurisdiction.code).start
    values = [*AGENCY_VALUES.get(jurisdiction.code, [])]
    values.append(
        (
            "billing.pix",
            {
                "key": f"pix@{jurisdiction.code}.demonstracao.gov.br",
                # Whole names: the BR Code cuts them to its 25/15 characters at a word's end.
                "beneficiary": jurisdiction.official_name.split(" — ")[0],
                "city": jurisdiction.name,
            },
        )
    )
    for parameter, value in values:
        if AgencyValue.unscoped.filter(jurisdiction=jurisdiction, parameter=parameter).exists():
            summary.existing += 1
            continue
        set_agency_value(
            actor=None,
            jurisdiction=jurisdiction,
            parameter=parameter,
            valid_from=start,
            value=value,
            cite=ACT,
            reason=REASON,
        )
        summary.created += 1


def _accounts(jurisdiction: Jurisdiction, today: dt.date, summary: Any) -> None:
    """The permits' grants and the CRCs' issue enrol their holders (permits.services.lifecycle,
    chartering.fees); only a live permit of a register older than that is enrolled here."""
    live = Permit.unscoped.filter(jurisdiction=jurisdiction, status__in=Permit.LIVE).select_related("holder")
    for permit in live:
        if Account.unscoped.filter(holder=permit.holder).exists():
            summary.existing += 1
            continue
        since = permit.granted_on or permit.applied_on
        open_account(actor=None, holder=permit.holder, on=since, reason=REASON)
        summary.created += 1


def _fare_resolution(code: str, on: dt.date, line: str) -> int | None:
    """The council's resolution on the fare where the law submits it to one (Recife art. 3º, § 1º;
    Esteio art. 34)."""
    from lotacao.demo import councils as demo_councils

    found = demo_councils.resolution(code, "fare.change", on, f"Tarifa da linha {line}")
    return found.pk if found is not None else None


def _fares(jurisdiction: Jurisdiction, today: dt.date, summary: Any) -> None:
    amount = FARES.get(jurisdiction.code)
    if amount is None:
        return
    since = max(law.pack_for(jurisdiction.code).start, today - relativedelta(years=1)).replace(day=1)
    for line in Line.unscoped.filter(jurisdiction=jurisdiction):
        if FareAct.unscoped.filter(line=line).exists():
            summary.existing += 1
            continue
        set_fare(
            actor=None,
            line=line,
            valid_from=since,
            amount=amount,
            reduced_amount=Decimal(amount) / 2,
            act=f"Decreto de demonstração nº 10/{since.year}",
            resolution=_fare_resolution(jurisdiction.code, since, line.code),
            reason=REASON,
        )
        summary.created += 1


def _declaration(jurisdiction: Jurisdiction, today: dt.date, summary: Any) -> None:
    account = HolderAccount.objects.filter(user__username=f"permissionario.{jurisdiction.code}").first()
    line = Line.unscoped.filter(jurisdiction=jurisdiction).order_by("code").first()
    if account is None or line is None:
        return
    for months in (2, 1):
        month = today.replace(day=1) - relativedelta(months=months)
        if DemandDeclaration.unscoped.filter(holder=account.holder, month=month).exists():
            summary.existing += 1
            continue
        declare_demand(
            actor=None,
            holder=account.holder,
            line=line,
            month=month,
            full_passengers=9_800 + months,
            reduced_passengers=600,
            free_passengers=240,
            km=Decimal("6200"),
            revenue=Decimal("41400.00"),
            source=DemandDeclaration.Source.HOLDER,
            reason=REASON,
            today=today,
        )
        summary.created += 1


def _runs(jurisdiction: Jurisdiction, today: dt.date, summary: Any, code: str) -> None:
    this_month = today.replace(day=1)
    last_month = this_month - relativedelta(months=1)
    if not Vehicle.unscoped.filter(jurisdiction=jurisdiction).exists():
        return
    if not BillingRun.unscoped.filter(jurisdiction=jurisdiction, period=last_month).exists():
        try:
            run = runs.simulate(actor=None, jurisdiction=jurisdiction, period=last_month, reason=REASON)
            if run.status == BillingRun.Status.PLANNED and run.plan:
                run = runs.approve(actor=None, run=run, reason=REASON)
                runs.execute(actor=None, run=run, reason=REASON)
        except ValidationError:
            return
        summary.created += 1
    if not BillingRun.unscoped.filter(jurisdiction=jurisdiction, period=this_month).exists():
        runs.simulate(actor=None, jurisdiction=jurisdiction, period=this_month, reason=REASON)
        summary.created += 1
