"""The open data catalogue: the nightly run writes every dataset's CSV; the DCAT JSON-LD parses as
RDF (rdflib) with the classes and properties a CKAN DCAT harvester reads; every CSV it lists
downloads and holds no CPF and no name of a person of the register; a CSV that would carry one is
refused and the old file stays."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from io import StringIO
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.utils import timezone
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCAT, DCTERMS, RDF

from lotacao.core import jobs
from lotacao.opendata import catalogue, publish
from lotacao.opendata.models import Distribution
from lotacao.ops.nightly import BY_NAME
from lotacao.registry.models import Person

CPF = re.compile(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}")
FOAF = Namespace("http://xmlns.com/foaf/0.1/")


@pytest.fixture
def demo(db: Any, settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    call_command("load_demo", stdout=StringIO())


def test_the_nightly_run_publishes_a_harvestable_catalogue_without_personal_data(
    demo: Any, client: Any
) -> None:
    today = timezone.localdate()
    assert not Distribution.objects.exists()
    run = jobs.run(BY_NAME["open_data"], today)
    assert run.status == "succeeded", run
    assert Distribution.objects.count() == 4 * 5 + 3  # 5 datasets of each city, 3 of Pernambuco

    response = client.get("/dados/catalogo.jsonld")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/ld+json")
    graph = Graph().parse(data=response.content.decode(), format="json-ld")
    catalogs = list(graph.subjects(RDF.type, DCAT.Catalog))
    assert len(catalogs) == 1
    datasets = list(graph.objects(catalogs[0], DCAT.dataset))
    assert {str(graph.value(d, DCTERMS.identifier)) for d in datasets} >= {
        "recife-veiculos-e-permissoes",
        "recife-linhas-e-paradas",
        "recife-tarifas",
        "pernambuco-fretamento",
        "esteio-fiscalizacao-mensal",
    }
    names = [n for n in Person.objects.values_list("full_name", flat=True) if n]
    cpfs = list(Person.objects.values_list("cpf", flat=True))
    assert names and cpfs
    downloaded = 0
    for dataset in datasets:
        assert (dataset, RDF.type, DCAT.Dataset) in graph
        for prop in (DCTERMS.title, DCTERMS.description):
            assert isinstance(graph.value(dataset, prop), Literal)
        assert isinstance(graph.value(dataset, DCTERMS.license), URIRef)
        assert isinstance(graph.value(dataset, DCTERMS.accrualPeriodicity), URIRef)
        publisher = graph.value(dataset, DCTERMS.publisher)
        assert graph.value(publisher, FOAF.name) is not None
        for dist in graph.objects(dataset, DCAT.distribution):
            if str(graph.value(dist, DCAT.mediaType)) != "text/csv":
                continue
            url = graph.value(dist, DCAT.downloadURL)
            assert isinstance(url, URIRef)
            modified = graph.value(dist, DCTERMS.modified)
            assert modified is not None and timezone.localtime(modified.toPython()).date() == today
            got = client.get(urlsplit(str(url)).path)
            assert got.status_code == 200, url
            text = b"".join(got.streaming_content).decode("utf-8")
            assert not CPF.search(text), url
            assert not any(cpf in text for cpf in cpfs), url
            assert not any(name in text for name in names), url
            header = next(csv.reader(io.StringIO(text)), [])
            assert not {"cpf", "nome", "permissionario_cpf"} & set(header)
            downloaded += 1
    assert downloaded == Distribution.objects.count()

    page = client.get("/dados/").content.decode()
    assert "Permissões e veículos autorizados" in page and "/dados/recife/tarifas.csv" in page

    # The permits CSV names legal persons only; every live permit is there with its plate.
    rows = list(csv.DictReader(io.StringIO(_csv(client, "/dados/recife/veiculos-e-permissoes.csv"))))
    assert rows and all(r["placa"] for r in rows)
    assert all(r["permissionario_nome"] == "" for r in rows if r["permissionario_tipo"] == "pessoa física")
    fares = list(csv.DictReader(io.StringIO(_csv(client, "/dados/marica/tarifas.csv"))))
    assert fares and all(r["lugares_reservados"] == "2" for r in fares)


def _csv(client: Any, path: str) -> str:
    return b"".join(client.get(path).streaming_content).decode("utf-8")


def test_a_dataset_that_would_carry_a_cpf_is_refused_and_yesterdays_file_stays(
    demo: Any, monkeypatch: Any
) -> None:
    today = timezone.localdate()
    publish.publish_all(today)
    before = Distribution.objects.get(jurisdiction_id="recife", dataset="linhas-e-paradas")
    person = Person.objects.filter(jurisdiction_id="recife").first()
    leaky = catalogue.Dataset(
        "linhas-e-paradas", "x", "x", (), catalogue.DAILY, lambda code, on: iter([{"a": person.full_name}])
    )
    monkeypatch.setattr(catalogue, "DATASETS", [leaky])
    result = publish.publish_all(today + dt.timedelta(days=1))
    assert any("nome de uma pessoa" in r for r in result["recusados"])
    assert Distribution.objects.get(pk=before.pk).sha256 == before.sha256
    with pytest.raises(publish.PersonalData):
        publish.scan("recife", "x,123.456.789-09\n")


def test_the_complaint_statistics_are_published_without_anyone_in_them(demo: Any, client: Any) -> None:
    from lotacao.ombudsman.models import Complaint

    today = timezone.localdate()
    publish.publish_all(today)
    assert Complaint.objects.filter(jurisdiction_id="recife").exists()  # the demo's complaints
    body = _csv(client, "/dados/recife/reclamacoes-mensal.csv")
    rows = list(csv.DictReader(body.splitlines()))
    assert rows and "recebidas" in rows[0]
    received = sum(int(r["recebidas"]) for r in rows)
    assert received == Complaint.objects.filter(jurisdiction_id="recife").count()
    for complaint in Complaint.objects.filter(jurisdiction_id="recife"):
        assert complaint.protocol not in body and complaint.description[:30] not in body


def test_a_csv_never_generated_is_a_portuguese_404(db: Any, client: Any) -> None:
    response = client.get("/dados/recife/tarifas.csv")
    assert response.status_code == 404
