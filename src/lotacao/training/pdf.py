"""The certificate's PDF (WeasyPrint, through lotacao.core.pdf.render): a document meant to be
kept, so PDF/A-3b and PDF/UA-1 (`archival=True`), like the payment slips and the seals."""

from __future__ import annotations

from django.template.loader import render_to_string

from lotacao.core.pdf import render
from lotacao.training.models import Certificate


def certificate_html(certificate: Certificate) -> str:
    enrolment = certificate.enrolment
    klass = enrolment.course_class
    return render_to_string(
        "training/certificate_pdf.html",
        {
            "certificate": certificate,
            "enrolment": enrolment,
            "klass": klass,
            "course": klass.course,
            "person": enrolment.person,
            "jurisdiction": klass.jurisdiction,
        },
    )


def certificate_pdf(certificate: Certificate) -> bytes:
    return render(certificate_html(certificate), archival=True)
