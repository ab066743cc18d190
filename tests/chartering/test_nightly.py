"""The nightly run holds chartering's CRC clocks and the purge of passenger lists (supervised jobs)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from lotacao.chartering.models import CrcApplication
from lotacao.core import jobs
from lotacao.core.models import JobRun
from lotacao.ops import nightly


def test_the_chartering_jobs_run_before_the_work_queue() -> None:
    names = [job.name for job in nightly.JOBS]
    assert names.index("chartering_clocks") < names.index("build_work_queue")
    assert names.index("purge_passenger_lists") < names.index("build_work_queue")


def test_the_clock_job_archives_and_records_its_counts(pe: Any) -> None:
    from lotacao.chartering import crc

    company = pe.company(issue=False)
    application = CrcApplication.objects.get(company=company)
    crc.notify_deficiency(
        actor=None, application=application, missing="Contrato social", reason="t", on=dt.date(2025, 6, 2)
    )
    run = jobs.run(nightly.BY_NAME["chartering_clocks"], dt.date(2025, 7, 15))
    assert run.status == JobRun.Status.SUCCEEDED and run.counts["arquivados"] == 1
    run = jobs.run(nightly.BY_NAME["purge_passenger_lists"], dt.date(2025, 7, 15))
    assert run.status == JobRun.Status.SUCCEEDED and run.counts == {"viagens": 0, "passageiros": 0}
