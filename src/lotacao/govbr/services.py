"""Which account a gov.br CPF signs into, and recording the account's trust level.

A CPF already linked signs into its account. Otherwise a holder's portal account whose registry
person has that CPF is linked at the first sign-in (one such account only). A staff member's
account is never found by CPF alone and never created: the staff member links it while signed in
with their password (`/conta/govbr/vincular/`), so gov.br vouches for the CPF of the account's owner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from lotacao.accounts.models import HolderAccount, User
from lotacao.audit.services import record
from lotacao.core.validators import normalize_cpf
from lotacao.govbr.models import GovbrLink

LEVELS = {"bronze": "Bronze", "prata": "Prata", "ouro": "Ouro"}
RANK = {label: n for n, label in enumerate(LEVELS.values(), start=1)}


class Refused(Exception):
    """A sign-in refused, with the Portuguese reason shown to the person."""


@dataclass(frozen=True)
class Identity:
    cpf: str
    acr: str
    amr: list[str]

    @property
    def level(self) -> str:
        """gov.br's trust level (confiabilidade: bronze, prata, ouro) read from the acr claim."""
        tail = self.acr.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower()
        for key, label in LEVELS.items():
            if key in tail:
                return label
        return self.acr[:80]


def minimum_level() -> str:
    """The lowest gov.br trust level allowed to sign in (LOTACAO_GOVBR_MIN_LEVEL), "" for any."""
    wanted = str(getattr(settings, "LOTACAO_GOVBR_MIN_LEVEL", "") or "").strip().lower()
    if wanted and wanted not in LEVELS:
        raise ValueError(f"LOTACAO_GOVBR_MIN_LEVEL must be one of {sorted(LEVELS)}, not {wanted!r}")
    return LEVELS.get(wanted, "")


def check_level(who: Identity) -> None:
    """Refuse, in Portuguese, an account below the minimum trust level the agency set."""
    wanted = minimum_level()
    if not wanted or RANK.get(who.level, 0) >= RANK[wanted]:
        return
    enough = " ou ".join(label for label, n in RANK.items() if n >= RANK[wanted])
    have = f"de nível {who.level}" if who.level in RANK else "sem nível informado"
    raise Refused(
        f"Sua conta gov.br é {have}; para entrar neste sistema ela precisa ser de nível {enough}. "
        "Aumente o nível da sua conta no aplicativo ou no site gov.br e entre de novo."
    )


def identity(claims: dict[str, Any]) -> Identity:
    try:
        cpf = normalize_cpf(str(claims.get("sub") or ""))
    except ValidationError as error:
        raise Refused("O gov.br não informou um CPF válido para esta conta.") from error
    amr = claims.get("amr") or []
    return Identity(
        cpf=cpf, acr=str(claims.get("acr") or ""), amr=[str(a) for a in amr] if isinstance(amr, list) else []
    )


def _record(link: GovbrLink, who: Identity, action: str, reason: str) -> None:
    before = {"level": link.level, "acr": link.acr} if link.acr else None
    link.level, link.acr, link.amr, link.last_login_at = who.level, who.acr[:200], who.amr, timezone.now()
    link.save(update_fields=["level", "acr", "amr", "last_login_at"])
    after = {"level": link.level, "acr": link.acr, "amr": link.amr}
    record(actor=link.user, action=action, instance=link, reason=reason, before=before, after=after)


@transaction.atomic
def account_for(who: Identity) -> User:
    """The account this CPF signs into (linking a holder's at first use), or Refused."""
    check_level(who)
    link = GovbrLink.objects.select_related("user").filter(cpf=who.cpf).first()
    if link is None:
        users = {
            account.user
            for account in HolderAccount.objects.select_related("user").filter(
                holder__person__cpf=who.cpf, user__is_active=True
            )
        }
        if len(users) > 1:
            raise Refused(
                "Este CPF tem mais de uma conta no sistema. Entre com usuário e senha e vincule o gov.br "
                "à conta que quer usar, em Avisos."
            )
        if not users:
            raise Refused(
                "Não há conta no sistema para este CPF. Procure o órgão gestor para cadastrar a sua conta; "
                "se você já tem uma, entre com usuário e senha e vincule o gov.br em Avisos."
            )
        user = users.pop()
        if GovbrLink.objects.filter(user=user).exists():
            raise Refused("Esta conta já está vinculada a outro CPF no gov.br. Procure o órgão gestor.")
        link = GovbrLink.objects.create(user=user, cpf=who.cpf)
        record(
            actor=user, action="govbr.linked", instance=link, reason="vínculo pelo CPF na primeira entrada"
        )
    if not link.user.is_active:
        raise Refused("Esta conta está desativada. Procure o órgão gestor.")
    _record(link, who, "govbr.signed_in", "entrada pelo gov.br")
    return link.user


@transaction.atomic
def link_account(user: User, who: Identity) -> GovbrLink:
    """Link the signed-in account to the CPF gov.br vouched for (staff or holder)."""
    check_level(who)
    other = GovbrLink.objects.filter(cpf=who.cpf).exclude(user=user).first()
    if other is not None:
        raise Refused(
            "Este CPF do gov.br já está vinculado a outra conta do sistema. Procure o órgão gestor."
        )
    link = GovbrLink.objects.filter(user=user).first()
    if link is not None and link.cpf != who.cpf:
        raise Refused("Sua conta já está vinculada a outro CPF no gov.br. Procure o órgão gestor.")
    if link is None:
        try:
            link = GovbrLink.objects.create(user=user, cpf=who.cpf)
        except IntegrityError as error:
            raise Refused("Este CPF do gov.br já está vinculado a outra conta do sistema.") from error
        record(actor=user, action="govbr.linked", instance=link, reason="vínculo pedido pelo próprio usuário")
    _record(link, who, "govbr.confirmed", "conta gov.br confirmada pelo próprio usuário")
    return link
