"""An agency comes in (issue 20): its jurisdiction, with its law pack, channels and ombudsman, and
its first manager with a one-time password to change at the first sign-in.

`set_up_agency` is the one service behind `manage.py setup_agency` and the operator's screen
(`/implantacao/orgao/`). It is idempotent: the same arguments again change nothing (and say so); a
value given again with another content is changed and audited; the manager's password is reset only
when asked. Everything is validated before anything is written, in one transaction, and audited
(`agency.*` in audit/actions.py). The pack is read only through `lotacao.core.law`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from lotacao.accounts.models import HolderAccount, Role, StaffMembership, User
from lotacao.audit.services import Actor, create_audited, record, update_audited
from lotacao.core import law
from lotacao.core.models import Jurisdiction

REASON = "implantação do órgão gestor"
MANAGER = Role.MANAGER.value

# What the agency's row holds beyond its code, in the order the screen and the command show them.
FIELDS = (
    "name",
    "official_name",
    "state",
    "timezone",
    "population",
    "address",
    "phone",
    "email",
    "website",
    "hours",
    "ombudsman_phone",
    "ombudsman_email",
    "ombudsman_url",
)
UFS = frozenset(
    "AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO".split()  # noqa: SIM905
)
# A one-time password people can read aloud and type: no 0/o, 1/l/i.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


@dataclass
class AgencyResult:
    jurisdiction: Jurisdiction
    manager: User
    jurisdiction_created: bool = False
    jurisdiction_changes: list[str] = field(default_factory=list)  # field labels that changed
    manager_created: bool = False
    manager_changes: list[str] = field(default_factory=list)
    password: str | None = None  # the one-time password, shown once

    @property
    def changed(self) -> bool:
        return bool(
            self.jurisdiction_created
            or self.jurisdiction_changes
            or self.manager_created
            or self.manager_changes
            or self.password
        )

    def as_json(self) -> dict[str, Any]:
        j = self.jurisdiction
        return {
            "alterou": self.changed,
            "jurisdicao": {
                "codigo": j.code,
                "nome": j.name,
                "orgao": j.official_name,
                "uf": j.state,
                "criada": self.jurisdiction_created,
                "alteracoes": self.jurisdiction_changes,
            },
            "gestor": {
                "usuario": self.manager.username,
                "email": self.manager.email,
                "criado": self.manager_created,
                "alteracoes": self.manager_changes,
                "senha_provisoria": self.password,
            },
        }


def packs() -> list[tuple[str, str]]:
    """(pack id, what a person reads) for every pack this installation has."""
    out = []
    for code in law.pack_ids():
        pack = law.pack_for(code)
        out.append((code, f"{pack.name} ({pack.state}) — {pack.law}"))
    return out


def one_time_password() -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(3))


def _label(name: str) -> str:
    found = Jurisdiction._meta.get_field(name)
    return str(getattr(found, "verbose_name", name))


def _check_pack(pack_id: str) -> None:
    if pack_id not in law.pack_ids():
        available = "; ".join(
            f"{code} ({law.pack_for(code).name}, {law.pack_for(code).state})" for code in law.pack_ids()
        )
        raise ValidationError(
            {
                "jurisdiction": f"Não há lei (pacote) “{pack_id}” nesta instalação. "
                f"Pacotes disponíveis: {available}."
            }
        )


def _check_manager(username: str, email: str, pack_id: str) -> User | None:
    errors: dict[str, str] = {}
    try:
        UnicodeUsernameValidator()(username)
        if not username or len(username) > 150:
            raise ValidationError("")
    except ValidationError:
        errors["manager"] = (
            f"Nome de usuário inválido: “{username}”. Use até 150 letras, números e . @ + - _ (sem espaços)."
        )
    try:
        validate_email(email)
    except ValidationError:
        errors["email"] = f"E-mail do gestor inválido: “{email}”."
    if errors:
        raise ValidationError(errors)
    user = User.objects.filter(username=username).first()
    if user is None:
        return None
    if user.is_superuser:
        refusal = f"O usuário “{username}” é um operador da instalação: escolha outro nome para o gestor."
    elif HolderAccount.objects.filter(user=user).exists():
        refusal = f"O usuário “{username}” é a conta de um permissionário: escolha outro nome para o gestor."
    else:
        elsewhere = sorted(
            {
                str(name)
                for code, name in StaffMembership.objects.filter(user=user)
                .exclude(jurisdiction_id=pack_id)
                .values_list("jurisdiction_id", "jurisdiction__name")
            }
        )
        if elsewhere:
            refusal = (
                f"O usuário “{username}” já trabalha em outro órgão gestor ({', '.join(elsewhere)}): "
                "escolha outro nome para o gestor."
            )
        elif not StaffMembership.objects.filter(user=user, jurisdiction_id=pack_id).exists():
            refusal = f"O usuário “{username}” já existe e não pertence a este órgão: escolha outro nome."
        else:
            return user
    raise ValidationError({"manager": refusal})


def _jurisdiction_values(
    pack_id: str, given: dict[str, Any], existing: Jurisdiction | None
) -> dict[str, Any]:
    """The row's values: the pack's defaults for a new agency, then what was given."""
    unknown = set(given) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown agency fields: {sorted(unknown)}")
    values = {name: getattr(existing, name) for name in FIELDS} if existing is not None else {}
    if existing is None:
        pack = law.pack_for(pack_id)
        values.update(name=pack.name, official_name=pack.agency, state=pack.state, timezone=pack.timezone)
    values.update({k: v for k, v in given.items() if v is not None})
    state = str(values.get("state") or "").upper()
    if state not in UFS:
        raise ValidationError(
            {"state": f"UF inválida: “{values.get('state')}”. Use a sigla do estado, como PE."}
        )
    values["state"] = state
    return values


def _clean(instance: Jurisdiction, *, unique: bool = True) -> None:
    try:
        instance.full_clean(validate_unique=unique)
    except ValidationError as error:
        raise ValidationError(
            {
                # the agency's e-mail apart from the manager's ("email" is the manager's)
                ("agency_email" if name == "email" else name): [
                    f"{_label(name).capitalize() if name in FIELDS else name}: {m}" for m in messages
                ]
                for name, messages in error.message_dict.items()
            }
        ) from error


def _split(full_name: str) -> tuple[str, str]:
    first, _, last = " ".join(full_name.split()).partition(" ")
    return first[:150], last[:150]


def set_up_agency(
    *,
    actor: Actor,
    pack_id: str,
    manager: str,
    email: str,
    manager_name: str = "",
    agency: dict[str, Any] | None = None,
    reset_password: bool = False,
    reason: str = REASON,
) -> AgencyResult:
    """Create (or bring up to date) the jurisdiction `pack_id` and its manager `manager`.

    `agency` holds only the values given (None or absent: keep what exists; for a new agency the
    pack gives the name, the agency, the state and the time zone). Refusals are ValidationErrors
    with Portuguese messages, raised before anything is written."""
    pack_id = (pack_id or "").strip()
    manager = (manager or "").strip()
    email = (email or "").strip()
    _check_pack(pack_id)
    existing_user = _check_manager(manager, email, pack_id)
    existing = Jurisdiction.unscoped.filter(pk=pack_id).first()
    values = _jurisdiction_values(pack_id, agency or {}, existing)
    with transaction.atomic():
        if existing is None:
            jurisdiction = Jurisdiction(code=pack_id, **values)
            _clean(jurisdiction)
            create_audited(actor=actor, instance=jurisdiction, reason=reason, action="agency.created")
            result_changes: list[str] = []
        else:
            jurisdiction = existing
            changes = {k: v for k, v in values.items() if getattr(existing, k) != v}
            if changes:
                probe = Jurisdiction(code=pack_id, **values)
                _clean(probe, unique=False)
                update_audited(
                    actor=actor,
                    instance=jurisdiction,
                    changes=changes,
                    reason=reason,
                    action="agency.updated",
                )
            result_changes = [_label(name) for name in changes]
        result = AgencyResult(
            jurisdiction=jurisdiction,
            manager=existing_user or User(username=manager),
            jurisdiction_created=existing is None,
            jurisdiction_changes=result_changes,
        )
        first, last = _split(manager_name)
        if existing_user is None:
            password = one_time_password()
            user = User(username=manager, email=email, first_name=first, last_name=last)
            user.set_password(password)
            user.must_change_password = True
            user.save()
            record(
                actor=actor,
                action="agency.manager_created",
                instance=user,
                reason=reason,
                after={"username": manager, "email": email, "first_name": first, "last_name": last},
            )
            result.manager, result.manager_created, result.password = user, True, password
        else:
            user = existing_user
            result.manager = user
            wanted = {"email": email}
            if manager_name.strip():
                wanted.update(first_name=first, last_name=last)
            before = {k: getattr(user, k) for k in wanted if getattr(user, k) != wanted[k]}
            if before:
                for k in before:
                    setattr(user, k, wanted[k])
                user.save(update_fields=list(before))
                record(
                    actor=actor,
                    action="user.updated",
                    instance=user,
                    reason=reason,
                    before=before,
                    after={k: wanted[k] for k in before},
                )
                result.manager_changes += ["e-mail" if k == "email" else "nome" for k in before]
                result.manager_changes = sorted(set(result.manager_changes))
            if reset_password:
                password = one_time_password()
                user.set_password(password)
                user.must_change_password = True
                user.save(update_fields=["password", "must_change_password"])
                record(actor=actor, action="agency.manager_password_reset", instance=user, reason=reason)
                result.password = password
        membership = StaffMembership.objects.filter(
            user=user, jurisdiction=jurisdiction, role=MANAGER
        ).first()
        if membership is None:
            membership = StaffMembership.objects.create(user=user, jurisdiction=jurisdiction, role=MANAGER)
            record(
                actor=actor,
                action="agency.manager_granted",
                instance=membership,
                reason=reason,
                after={"user": user.username, "jurisdiction": jurisdiction.code, "role": MANAGER},
            )
            if not result.manager_created:
                result.manager_changes.append("papel de gestor")
        elif not membership.active:
            membership.active = True
            membership.save(update_fields=["active"])
            record(
                actor=actor,
                action="agency.manager_granted",
                instance=membership,
                reason=reason,
                before={"active": False},
                after={"active": True},
            )
            result.manager_changes.append("papel de gestor reativado")
    return result


def summary(result: AgencyResult, *, screen: bool = False) -> list[str]:
    """What happened, in Portuguese lines. The command names the manager by user name and prints
    the one-time password; a screen names the manager by name and shows the user name and the
    password in fields of their own (`screen=True`)."""
    j, user = result.jurisdiction, result.manager
    who = str(user) if screen else f"“{user.username}”"
    lines = []
    if result.jurisdiction_created:
        lines.append(f"Órgão gestor implantado: {j.name} ({j.state}) — {j.official_name}.")
    elif result.jurisdiction_changes:
        lines.append(f"{j.name} ({j.state}): alterado — {', '.join(result.jurisdiction_changes)}.")
    else:
        lines.append(f"{j.name} ({j.state}) já estava implantada com estes dados: nada alterado.")
    if result.manager_created:
        lines.append(f"Gestor {who} cadastrado ({user.email}).")
    elif result.manager_changes:
        lines.append(f"Gestor {who}: alterado — {', '.join(result.manager_changes)}.")
    else:
        lines.append(f"{who} já é gestor deste órgão: nada alterado.")
    if result.password and not screen:
        lines.append(
            f"Senha provisória de {who}: {result.password} — mostrada só agora; "
            "o gestor deve trocá-la no primeiro acesso."
        )
    return lines
