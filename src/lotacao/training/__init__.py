"""Training: a course catalogue, classes, enrolment, attendance and certificates that satisfy the
required-document rules (issue 23, item 7)."""
