"""The day's reminders: deadlines approaching, documents expiring, renewal windows, slips
due or overdue, put in the outbox by the nightly run."""
