"""On PostgreSQL, 50 parallel grants against the last free places create exactly as many permits as places."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connections

from lotacao.permits import services
from lotacao.permits.models import Permit
from tests.permits.conftest import DAY

pytestmark = pytest.mark.postgres  # needs PostgreSQL row locks


@pytest.mark.django_db(transaction=True)
def test_fifty_parallel_grants_fill_exactly_the_free_places(make: Any) -> None:
    j = make.jurisdiction("cabo", population=6000)  # two full blocks: at most 6 vehicles
    for _ in range(4):
        make.permit(j)  # 2 places left
    jobs = []
    for _ in range(50):
        holder = make.holder(j)
        application = services.apply_for_permit(actor=None, holder=holder, reason="req", applied_on=DAY)
        jobs.append((application, make.line(j), make.vehicle(j, holder)))
    barrier = threading.Barrier(len(jobs))
    outcomes: list[str] = []
    lock = threading.Lock()

    def grant(application: Permit, line: Any, vehicle: Any) -> None:
        try:
            barrier.wait()
            services.grant_permit(
                actor=None, permit=application, line=line, vehicle=vehicle, reason="outorga", on=DAY
            )
            result = "granted"
        except ValidationError as error:
            result = "refused: " + error.messages[0]
        except Exception as error:
            result = f"error: {error!r}"
        finally:
            connections.close_all()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=grant, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("granted") == 2, [o for o in outcomes if not o.startswith("refused: Cota")][:5]
    assert all(o == "granted" or o.startswith("refused: Cota de veículos atingida") for o in outcomes)
    assert Permit.unscoped.filter(jurisdiction=j, status="active").count() == 6
    numbers = list(Permit.unscoped.filter(jurisdiction=j, status="active").values_list("number", flat=True))
    assert len(set(numbers)) == 6
