"""Councils and commissions and their acts: seats, members and alternates, mandates, sessions,
attendance, numbered resolutions and opinions; the gates where a law makes a decision depend on a
council's resolution (issue 23, item 1)."""
