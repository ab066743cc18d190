"""The menu each person sees: built from one table, shaped by role, bounded by the permission checks.

Each item names the staff roles it is *for* (the inspector's menu has no work queue, judging,
companies or lines; the clerk's and the commission's have no "Lavrar auto de infração"). Those
roles are always taken *within* the roles the screen itself lets in — the role sets of each app's
`permissions` module, the same ones its views check — so an item never links to a page that
refuses its reader (`tests/browser/test_roles_and_look.py` opens every link of every role's menu
and checks that each screen the role may not open is absent). Which regime an item belongs to
(permits, chartering) is read from the packs (`web.regimes`), never from a jurisdiction's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils import timezone

from lotacao.authorizations import permissions as authorization_permissions
from lotacao.authorizations.rules import applies as authorizations_apply
from lotacao.billing import permissions as billing_permissions
from lotacao.chartering import permissions as chartering_permissions
from lotacao.chartering.rules import regulates_chartering
from lotacao.core.vehicle_verdict import has_permits
from lotacao.councils import permissions as councils_permissions
from lotacao.delegation import permissions as delegation_permissions
from lotacao.delegation.rules import applies as delegation_applies
from lotacao.documents import permissions as document_permissions
from lotacao.duties import permissions as duties_permissions
from lotacao.enforcement import permissions as enforcement_permissions
from lotacao.enforcement.sanctions import views_effects
from lotacao.inspections import permissions as inspection_permissions
from lotacao.lines import views as line_views
from lotacao.ombudsman import permissions as ombudsman_permissions
from lotacao.web import views_people

STAFF = ("gestor", "atendente", "fiscal", "comissao", "ouvidor")


def within(wanted: tuple[str, ...], allowed: tuple[str, ...]) -> tuple[str, ...]:
    """The roles an item is for, never beyond those the screen admits."""
    return tuple(role for role in wanted if role in allowed)


@dataclass(frozen=True)
class Item:
    label: str
    url_name: str
    roles: tuple[str, ...]
    group: str
    regime: str | None = None  # "permits", "chartering", "delegation", "authorizations": where it applies
    primary: bool = False  # the role's main action: a button on the home page too


# The office's lists are open to every staff member of the jurisdiction (the tenant managers scope
# the rows); the menu offers them to the roles whose work they are.
OFFICE = within(("gestor", "atendente"), document_permissions.VIEW_ROLES)

STAFF_ITEMS: tuple[Item, ...] = (
    Item(
        "Lavrar auto de infração",
        "enforcement:notice_create",
        within(("fiscal", "gestor"), enforcement_permissions.NOTICE_ROLES),
        "Fiscalização",
        primary=True,
    ),
    Item(
        "Fiscalizar fretamento",
        "chartering:road",
        within(("fiscal", "gestor"), chartering_permissions.ROAD_ROLES),
        "Fiscalização",
        regime="chartering",
    ),
    Item(
        "Autos de infração",
        "enforcement:notices",
        enforcement_permissions.PROCESS_VIEW_ROLES,
        "Fiscalização",
    ),
    Item(
        "Vistorias",
        "inspections:agenda",
        inspection_permissions.INSPECTION_ROLES,
        "Fiscalização",
    ),
    Item("Fila de trabalho", "workqueue:queue", OFFICE, "Atendimento", primary=True),
    Item("Requerimentos online", "holder_requests:list", OFFICE, "Atendimento", regime="permits"),
    Item("Horários de vistoria", "holder_requests:slots", OFFICE, "Atendimento", regime="permits"),
    Item("Permissões", "permits:list", OFFICE, "Atendimento", regime="permits"),
    Item("Permissionários", "registry:holders", OFFICE, "Atendimento", regime="permits"),
    Item("Pessoas", "registry:persons", OFFICE, "Atendimento", regime="permits"),
    Item("Pessoas jurídicas", "people:companies", within(OFFICE, views_people.WRITE_ROLES), "Atendimento"),
    Item("Veículos", "registry:vehicles", ("gestor", "atendente", "fiscal"), "Atendimento"),
    Item("Linhas", "lines:list", within(OFFICE, line_views.ROLES), "Atendimento", regime="permits"),
    Item(
        "Pedidos de mudança de linha",
        "lines:requests",
        within(OFFICE, line_views.ROLES),
        "Atendimento",
        regime="permits",
    ),
    Item("Editais e seleção", "tenders:home", ("gestor", "atendente"), "Gestão", regime="permits"),
    Item(
        "Empresas de fretamento",
        "chartering:companies",
        within(OFFICE, chartering_permissions.VIEW_ROLES),
        "Atendimento",
        regime="chartering",
    ),
    Item(
        "Viagens de fretamento",
        "chartering:trips",
        within(("gestor", "fiscal"), chartering_permissions.LIST_ROLES),
        "Atendimento",
        regime="chartering",
    ),
    Item(
        "Julgamento",
        "enforcement:bodies",
        enforcement_permissions.JUDGING_ROLES,
        "Julgamento",
        primary=True,
    ),
    Item("Efeitos das decisões", "enforcement:effects", views_effects.VIEW_ROLES, "Julgamento"),
    Item(
        "Deveres do operador",
        "duties:home",
        within(("gestor", "atendente"), duties_permissions.VIEW_ROLES),
        "Atendimento",
        regime="permits",
    ),
    Item("Cobranças", "billing:charges", billing_permissions.OFFICE, "Cobrança"),
    Item("Multas", "enforcement:fines", enforcement_permissions.PROCESS_VIEW_ROLES, "Fiscalização"),
    Item("Faturamento", "billing:runs", billing_permissions.OFFICE, "Cobrança"),
    Item("Fundos e arrecadação", "billing:funds", billing_permissions.OFFICE, "Cobrança"),
    Item(
        "Manifestações",
        "ombudsman:queue",
        ombudsman_permissions.QUEUE_ROLES,
        "Ouvidoria",
        primary=True,
    ),
    Item(
        "Registrar manifestação",
        "ombudsman:intake",
        within(("ouvidor", "atendente", "gestor"), ombudsman_permissions.INTAKE_ROLES),
        "Ouvidoria",
    ),
    Item(
        "Delegação do serviço",
        "delegation:list",
        within(("gestor", "atendente"), delegation_permissions.VIEW_ROLES),
        "Gestão",
        regime="delegation",
    ),
    Item(
        "Autorizações de táxi, escolar e fretado",
        "authorizations:list",
        within(("gestor", "atendente"), authorization_permissions.VIEW_ROLES),
        "Gestão",
        regime="authorizations",
    ),
    Item("Valores da lei", "law:values", ("gestor",), "Gestão"),
    Item("Importar o cadastro existente", "onboarding:register", ("gestor",), "Gestão"),
    Item(
        "Escalas e jornadas",
        "rosters:list",
        ("gestor", "atendente", "fiscal"),
        "Atendimento",
        regime="permits",
    ),
    Item("Cursos", "training:courses", ("gestor", "atendente"), "Atendimento", regime="permits"),
    Item("Conselhos e comissões", "councils:list", within(OFFICE, councils_permissions.VIEW_ROLES), "Gestão"),
)

ALL_NAMES = {item.url_name for item in STAFF_ITEMS}

GROUPS = ("Fiscalização", "Atendimento", "Julgamento", "Cobrança", "Ouvidoria", "Gestão")


@dataclass(frozen=True)
class Link:
    label: str
    url: str
    primary: bool = False


def _regimes(code: str) -> set[str]:
    found = set()
    if has_permits(code):
        found.add("permits")
    if regulates_chartering(code):
        found.add("chartering")
    if delegation_applies(code, timezone.localdate()):
        found.add("delegation")
    if authorizations_apply(code, timezone.localdate()):  # the law has them and the agency turned them on
        found.add("authorizations")
    return found


def staff_items(access: Any, codes: list[str] | None = None) -> list[Item]:
    """The items a staff member (or the operator) may use, in the table's order. `codes` narrows
    to some jurisdictions (a home page panel); by default every jurisdiction of the user."""
    if access.operator:
        from lotacao.core.models import Jurisdiction

        held: dict[str, set[str]] = {
            code: set(STAFF)
            for code in Jurisdiction.unscoped.filter(active=True).values_list("code", flat=True)
        }
    else:
        held = access.roles
    if codes is not None:
        held = {code: roles for code, roles in held.items() if code in codes}
    regimes = {code: _regimes(code) for code in held}
    shown = []
    for item in STAFF_ITEMS:
        for code, roles in held.items():
            if roles & set(item.roles) and (item.regime is None or item.regime in regimes[code]):
                shown.append(item)
                break
    return shown


def holder_links(access: Any, chartering: bool) -> list[Link]:
    """A holder's (or a chartering company's) own pages: theirs only, through the tenant scope."""
    holder = access.holder_id
    links = [Link("Início", reverse("portal:home"))]
    if not chartering:
        links.append(Link("Minhas permissões", reverse("permits:list")))
    links += [
        Link("Meus autos", reverse("enforcement:notices")),
        Link("Minhas multas", reverse("enforcement:fines")),
        Link("Meu prontuário", reverse("enforcement:dossier", args=[holder])),
        Link("Minhas cobranças", reverse("billing:ledger", args=[holder])),
    ]
    if not chartering:
        links.append(Link("Declarar demanda", reverse("billing:declarations")))
        links.append(Link("Meus requerimentos", reverse("holder_requests:list")))
        links.append(Link("Deveres do operador", reverse("duties:home")))
    return links


def menu(request: Any) -> dict[str, Any]:
    """Context processor: `menu_groups` [(group, [Link])] for staff, `menu_links` for a holder."""
    access = getattr(request, "access", None)
    if access is None or not getattr(request, "user", None) or not request.user.is_authenticated:
        return {"menu_groups": [], "menu_links": []}
    if access.is_holder:
        code = access.holder_jurisdiction or ""
        return {"menu_groups": [], "menu_links": holder_links(access, not has_permits(code))}
    if not (access.is_staff_member or access.operator):
        return {"menu_groups": [], "menu_links": []}
    items = staff_items(access)
    groups = []
    for group in GROUPS:
        links = [Link(i.label, reverse(i.url_name), i.primary) for i in items if i.group == group]
        if links:
            groups.append((group, links))
    if access.operator:
        groups.append(
            (
                "Operação",
                [
                    Link("Implantar órgão gestor", reverse("onboarding:agency")),
                    Link("Administração", reverse("admin:index")),
                ],
            )
        )
    return {"menu_groups": groups, "menu_links": []}
