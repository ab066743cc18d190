"""The catalogue as DCAT JSON-LD (DCAT-AP 2 / the dados.gov.br profile, as CKAN's ckanext-dcat
harvests it): one `dcat:Catalog` whose `dcat:dataset`s are each dataset of each jurisdiction,
published by that jurisdiction's agency (`dct:publisher`, a `foaf:Organization`), with title,
description, keywords, licence, update frequency (the EU frequency vocabulary), spatial coverage
and a `dcat:distribution` per CSV: `dcat:downloadURL`, `dcat:mediaType` text/csv, `dct:format`,
`dct:modified` (when the nightly run made it) and `dcat:byteSize`. The GTFS feed of a jurisdiction
with lines is one more distribution of its lines dataset.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.conf import settings

from lotacao.core.models import Jurisdiction
from lotacao.lines import law as lines_law
from lotacao.opendata.catalogue import datasets_for
from lotacao.opendata.models import Distribution

CONTEXT = {
    "dcat": "http://www.w3.org/ns/dcat#",
    "dct": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "vcard": "http://www.w3.org/2006/vcard/ns#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}
CC_BY = "http://creativecommons.org/licenses/by/4.0/"


def licence() -> str:
    return str(getattr(settings, "LOTACAO_OPEN_DATA_LICENSE", "") or CC_BY)


def _literal(value: str, kind: str) -> dict[str, str]:
    return {"@value": value, "@type": kind}


def catalogue(absolute: Callable[[str], str], on: dt.date, code: str | None = None) -> dict[str, Any]:
    """The catalogue; `absolute` turns a path into an absolute URL."""
    home = absolute("/dados/")
    stored = {(d.jurisdiction_id, d.dataset): d for d in Distribution.unscoped.all()}
    jurisdictions = Jurisdiction.unscoped.order_by("code")
    if code:
        jurisdictions = jurisdictions.filter(code=code)
    datasets: list[dict[str, Any]] = []
    for jurisdiction in jurisdictions:
        publisher = {
            "@id": f"{home}#{jurisdiction.code}",
            "@type": "foaf:Organization",
            "foaf:name": jurisdiction.official_name,
        }
        for dataset in datasets_for(jurisdiction.code, on):
            distributions = []
            found = stored.get((jurisdiction.code, dataset.slug))
            if found is not None:
                url = absolute(f"/dados/{jurisdiction.code}/{dataset.slug}.csv")
                distributions.append(
                    {
                        "@id": url,
                        "@type": "dcat:Distribution",
                        "dct:title": f"{dataset.title} — {jurisdiction.name} (CSV)",
                        "dcat:downloadURL": {"@id": url},
                        "dcat:accessURL": {"@id": url},
                        "dcat:mediaType": "text/csv",
                        "dct:format": "CSV",
                        "dct:license": {"@id": licence()},
                        "dct:modified": _literal(found.modified.isoformat(), "xsd:dateTime"),
                        "dcat:byteSize": _literal(str(found.size), "xsd:decimal"),
                    }
                )
            if dataset.slug == "linhas-e-paradas" and lines_law.has_lines(jurisdiction.code, on):
                url = absolute(f"/api/public/gtfs/{jurisdiction.code}")
                distributions.append(
                    {
                        "@id": url,
                        "@type": "dcat:Distribution",
                        "dct:title": f"GTFS — {jurisdiction.name}",
                        "dcat:downloadURL": {"@id": url},
                        "dcat:accessURL": {"@id": url},
                        "dcat:mediaType": "application/zip",
                        "dct:format": "GTFS",
                        "dct:license": {"@id": licence()},
                    }
                )
            item: dict[str, Any] = {
                "@id": f"{home}#{jurisdiction.code}-{dataset.slug}",
                "@type": "dcat:Dataset",
                "dct:identifier": f"{jurisdiction.code}-{dataset.slug}",
                "dct:title": f"{dataset.title} — {jurisdiction.name}",
                "dct:description": dataset.description,
                "dct:license": {"@id": licence()},
                "dct:publisher": publisher,
                "dct:accrualPeriodicity": {"@id": dataset.periodicity},
                "dct:language": "pt-BR",
                "dct:spatial": f"{jurisdiction.name} ({jurisdiction.state})",
                "dcat:keyword": list(dataset.keywords),
                "dcat:landingPage": {"@id": home},
                "dcat:distribution": distributions,
            }
            if found is not None:
                item["dct:modified"] = _literal(found.modified.isoformat(), "xsd:dateTime")
            datasets.append(item)
    return {
        "@context": CONTEXT,
        "@id": absolute("/dados/catalogo.jsonld"),
        "@type": "dcat:Catalog",
        "dct:title": "Dados abertos do transporte por lotação e do fretamento",
        "dct:description": "Permissões e veículos autorizados, linhas e paradas, tarifas, o cadastro do "
        "fretamento e as estatísticas da fiscalização e da ouvidoria, por órgão gestor, gerados todas "
        "as noites. Sem CPF nem dado pessoal.",
        "dct:language": "pt-BR",
        "dct:license": {"@id": licence()},
        "dct:publisher": {
            "@type": "foaf:Organization",
            "foaf:name": str(getattr(settings, "LOTACAO_OPEN_DATA_PUBLISHER", "") or "Órgãos gestores"),
        },
        "foaf:homepage": {"@id": home},
        "dcat:dataset": datasets,
    }
