"""The datasets of the open data catalogue, one declared entry each.

A dataset is a `Dataset`: its slug (the CSV's name), title, description, keywords, update
frequency, the jurisdictions it applies to and a `rows(code, on)` function giving dicts (the first
row's keys are the CSV's columns). The complaint statistics come from the ombudsman's own counts
(`lotacao.ombudsman.stats.monthly_rows`), imported like every other source: a missing one stops
the start-up instead of leaving a dataset out.

Nothing personal leaves here: permits and vehicles carry the plate, category and line, and the
holder's name only for a legal person (with its CNPJ); a natural person's name and CPF never. Every
CSV is scanned for CPF patterns and the names of the people in the register before it is stored
(`publish.py`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count
from django.db.models.functions import TruncMonth

from lotacao.chartering import rules as chartering_rules
from lotacao.chartering.selectors import public_companies
from lotacao.enforcement.models import InfractionNotice
from lotacao.lines import fares as lines_fares
from lotacao.lines import law as lines_law
from lotacao.lines.models import Stop
from lotacao.lines.selectors import version_in_force
from lotacao.ombudsman import stats as ombudsman_stats
from lotacao.permits.models import Permit
from lotacao.registry.models import Line

Rows = Iterable[dict[str, Any]]
DAILY = "http://publications.europa.eu/resource/authority/frequency/DAILY"
MONTHLY = "http://publications.europa.eu/resource/authority/frequency/MONTHLY"


@dataclass(frozen=True)
class Dataset:
    slug: str
    title: str
    description: str
    keywords: tuple[str, ...]
    periodicity: str
    rows: Callable[[str, dt.date], Rows]
    applies: Callable[[str, dt.date], bool] = field(default=lambda code, on: True)

    def source(self) -> Callable[[str, dt.date], Rows]:
        return self.rows

    def available(self, code: str, on: dt.date) -> bool:
        return self.applies(code, on)


def complaints_monthly(code: str, on: dt.date) -> Iterator[dict[str, Any]]:
    """The ombudsman's monthly counts (lotacao.ombudsman.stats): counts only, no person."""
    header, rows = ombudsman_stats.monthly_rows(code, on)
    for row in rows:
        yield dict(zip(header, row, strict=True))


def _has_lines(code: str, on: dt.date) -> bool:
    return lines_law.has_lines(code, on)


def _date(day: dt.date | None) -> str:
    return day.strftime("%d/%m/%Y") if day else ""


def _money(value: Any) -> str:
    return "" if value is None else f"{value:.2f}".replace(".", ",")


def permits_and_vehicles(code: str, on: dt.date) -> Iterator[dict[str, Any]]:
    """The live permits with their vehicles: no CPF, and no holder's name for a natural person."""
    rows = (
        Permit.unscoped.filter(jurisdiction_id=code, status__in=Permit.LIVE)
        .select_related("vehicle", "line", "holder__company")
        .order_by("number", "id")
    )
    for permit in rows:
        vehicle, company = permit.vehicle, permit.holder.company if permit.holder_id else None
        yield {
            "permissao": permit.number,
            "situacao": permit.get_status_display(),
            "especie": permit.get_kind_display(),
            "outorgada_em": _date(permit.granted_on),
            "valida_ate": _date(permit.valid_until),
            "linha": permit.line.code if permit.line else "",
            "permissionario_tipo": "pessoa jurídica" if company else "pessoa física",
            "permissionario_nome": (company.trade_name or company.legal_name) if company else "",
            "permissionario_cnpj": company.cnpj_display if company else "",
            "placa": vehicle.plate if vehicle else "",
            "categoria": vehicle.get_category_display() if vehicle else "",
            "lugares": vehicle.seats if vehicle else "",
            "ano_de_fabricacao": vehicle.manufacture_year if vehicle else "",
        }


def lines_and_stops(code: str, on: dt.date) -> Iterator[dict[str, Any]]:
    for line in Line.unscoped.filter(jurisdiction_id=code, active=True).order_by("code"):
        version = version_in_force(line, on)
        if version is None:
            continue
        for stop in Stop.unscoped.filter(version=version).order_by("sequence"):
            yield {
                "linha": line.code,
                "nome_da_linha": line.name,
                "origem": version.origin,
                "destino": version.destination,
                "versao": version.number,
                "em_vigor_desde": _date(version.valid_from),
                "ordem": stop.sequence,
                "parada": stop.name,
                "tipo": stop.get_kind_display(),
                "latitude": f"{stop.lat:.6f}",
                "longitude": f"{stop.lon:.6f}",
                "acessibilidade": stop.get_wheelchair_display(),
            }


def fares(code: str, on: dt.date) -> Iterator[dict[str, Any]]:
    acts = lines_fares.fare_acts_on(code, on)
    base = lines_fares.benefits(code, on)
    for line in Line.unscoped.filter(jurisdiction_id=code, active=True).order_by("code"):
        if version_in_force(line, on) is None:
            continue
        info = lines_fares.fare_info(line, on, acts.get(line.pk), base=base)
        yield {
            "linha": line.code,
            "nome_da_linha": line.name,
            "tarifa_reais": _money(info.amount),
            "tarifa_com_desconto_reais": _money(info.reduced_amount),
            "ato": info.act,
            "em_vigor_desde": _date(info.valid_from),
            "gratuidades_e_beneficios": "; ".join(f"{b.who}: {b.rule}" for b in info.benefits)
            or "não informados",
            "fundamento_dos_beneficios": info.benefits_cite,
            "lugares_reservados": "" if info.seats is None else info.seats,
        }


def chartering(code: str, on: dt.date) -> Iterator[dict[str, Any]]:
    for row in public_companies(on, code):
        yield {
            "cnpj": row["cnpj"],
            "empresa": row["name"],
            "crc": row["crc_number"],
            "situacao_do_crc": row["crc_status"],
            "modalidades": "; ".join(row["modality_names"]),
            "crc_valido_ate": _date(dt.date.fromisoformat(row["valid_until"])),
        }


def enforcement_monthly(code: str, on: dt.date) -> Iterator[dict[str, Any]]:
    """Notices drawn up per month and infraction (annulled ones apart): counts, no person."""
    rows = (
        InfractionNotice.unscoped.filter(jurisdiction_id=code, drawn_up_at__date__lte=on)
        .annotate(month=TruncMonth("drawn_up_at"))
        .values("month", "infraction_code", "infraction_group", "status")
        .annotate(n=Count("id"))
        .order_by("month", "infraction_code", "status")
    )
    totals: dict[tuple[str, str, str], dict[str, int]] = {}
    for row in rows:
        month = row["month"]
        key = (f"{month:%Y-%m}" if month else "", row["infraction_code"], row["infraction_group"])
        item = totals.setdefault(key, {"autos": 0, "anulados": 0})
        if row["status"] == InfractionNotice.Status.ANNULLED:
            item["anulados"] += row["n"]
        else:
            item["autos"] += row["n"]
    for (month, infraction, group), item in sorted(totals.items()):
        yield {
            "mes": month,
            "enquadramento": infraction,
            "grupo": group,
            "autos_lavrados": item["autos"],
            "autos_anulados": item["anulados"],
        }


DATASETS: list[Dataset] = [
    Dataset(
        "veiculos-e-permissoes",
        "Permissões e veículos autorizados",
        "As permissões em vigor (ativas ou suspensas) com a linha, a placa, a categoria, os lugares "
        "e o ano do veículo. O nome do permissionário só aparece quando é pessoa jurídica; nunca há "
        "CPF nem outro dado pessoal.",
        ("permissões", "veículos", "transporte complementar", "lotação"),
        DAILY,
        permits_and_vehicles,
        _has_lines,
    ),
    Dataset(
        "linhas-e-paradas",
        "Linhas e paradas",
        "As linhas com itinerário aprovado em vigor e as suas paradas e terminais, em ordem, com "
        "coordenadas (WGS 84) e a acessibilidade onde registrada. Os horários estão no GTFS.",
        ("linhas", "paradas", "itinerários", "mobilidade"),
        DAILY,
        lines_and_stops,
        _has_lines,
    ),
    Dataset(
        "tarifas",
        "Tarifas, gratuidades e benefícios",
        "A tarifa em vigor de cada linha, com o ato que a fixou, a tarifa com desconto quando houver, "
        "as gratuidades e benefícios assegurados pela lei (ou informados pelo órgão) e os lugares "
        "reservados.",
        ("tarifas", "gratuidades", "passageiros"),
        DAILY,
        fares,
        _has_lines,
    ),
    Dataset(
        "fretamento",
        "Cadastro do fretamento",
        "As empresas de fretamento com Certificado de Registro Cadastral (CRC): CNPJ, nome, número "
        "e situação do CRC, modalidades e validade.",
        ("fretamento", "CRC", "empresas"),
        DAILY,
        chartering,
        lambda code, on: chartering_rules.regulates_chartering(code),
    ),
    Dataset(
        "fiscalizacao-mensal",
        "Fiscalização: autos de infração por mês",
        "Quantos autos de infração foram lavrados (e quantos anulados) em cada mês, por "
        "enquadramento e grupo da lei. Sem número de auto, placa ou pessoa.",
        ("fiscalização", "infrações", "estatísticas"),
        MONTHLY,
        enforcement_monthly,
    ),
    Dataset(
        "reclamacoes-mensal",
        "Ouvidoria: manifestações por mês",
        "Quantas manifestações (reclamações, denúncias, sugestões, elogios e solicitações) a "
        "ouvidoria recebeu e respondeu em cada mês, sem dado de quem as fez (Lei 13.460/2017).",
        ("ouvidoria", "reclamações", "estatísticas"),
        MONTHLY,
        complaints_monthly,
    ),
]
BY_SLUG = {d.slug: d for d in DATASETS}


def datasets_for(code: str, on: dt.date) -> list[Dataset]:
    return [d for d in DATASETS if d.available(code, on)]
