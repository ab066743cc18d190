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


def test_every_chartering_work_item_kind_has_a_portuguese_label(pe: Any) -> None:
    from lotacao.chartering import queue
    from lotacao.workqueue.models import KIND_LABELS

    pe.company(on=pe.today - dt.timedelta(days=340))  # its CRC expires within 30 days
    kinds = {item.kind for item in queue.items(pe.today, 30)}
    assert "chartering.renewal_30" in kinds
    for kind in ("renewal_60", "renewal_30", "application", "sanction", "authorization", "tracker_silent"):
        assert f"chartering.{kind}" in KIND_LABELS
