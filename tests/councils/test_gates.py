import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from lotacao.councils import catalogue, gates
from lotacao.councils.testing import council_for, resolution_for

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 2, 10)


@pytest.fixture
def recife(db):
    from lotacao.core.models import Jurisdiction

    Jurisdiction.objects.create(code="recife", name="Recife", official_name="CTTU", state="PE")
    Jurisdiction.objects.create(code="esteio", name="Esteio", official_name="SMOVT", state="RS")


def test_every_gate_names_a_council_of_its_law():
    for code, table in gates.GATES.items():
        for key, g in table.items():
            assert g.key == key
            assert catalogue.spec(code, g.council) is not None, (code, key)
            assert g.citation.startswith(("art.", "Anexo"))


def test_laws_without_council_have_no_gate():
    assert gates.GATES["marica"] == {}
    assert gates.GATES["pernambuco"] == {}
    assert gates.require("marica", "line.create", DAY, None) is None
    assert gates.require("cabo", "line.create", DAY, None) is None


def test_missing_resolution_refused_with_article(recife):
    with pytest.raises(ValidationError) as err:
        gates.require("recife", "line.create", DAY, None, otherwise="A linha continua rascunho.")
    text = " ".join(err.value.messages)
    assert "CMTT/Recife" in text and "art. 3º, § 1º" in text and "continua rascunho" in text


def test_valid_resolution_is_cited(recife):
    resolution = resolution_for("recife", "line.create", DAY)
    assert gates.require("recife", "line.create", DAY, resolution) == (
        "Resolução nº 1/2026 do CMTT/Recife, de 10/02/2026"
    )


def test_resolution_checks(recife):
    later = resolution_for("recife", "line.create", DAY + dt.timedelta(days=1))
    with pytest.raises(ValidationError, match="posterior"):
        gates.require("recife", "line.create", DAY, later)
    other = resolution_for("esteio", "fare.change", DAY)
    with pytest.raises(ValidationError, match="outra jurisdição"):
        gates.require("recife", "line.create", DAY, other)
    renew = resolution_for("recife", "permit.renew", DAY)
    with pytest.raises(ValidationError, match="prorrogação"):
        gates.require("recife", "line.create", DAY, renew)
    revoked = resolution_for("recife", "line.create", DAY, revoked_on=DAY)
    with pytest.raises(ValidationError, match="revogada"):
        gates.require("recife", "line.create", DAY, revoked)
    against = resolution_for("recife", "line.create", DAY, favorable=False)
    with pytest.raises(ValidationError, match="não foi favorável"):
        gates.require("recife", "line.create", DAY, against)
    defence = resolution_for("recife", "line.create", DAY, council=council_for("recife", "cdtc"))
    with pytest.raises(ValidationError, match="outro colegiado"):
        gates.require("recife", "line.create", DAY, defence)


def test_hearing_accepts_a_contrary_opinion(recife):
    contrary = resolution_for("esteio", "fare.change", DAY, favorable=False)
    assert gates.require("esteio", "fare.change", DAY, contrary)
