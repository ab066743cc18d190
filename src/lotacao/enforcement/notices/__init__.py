"""Notices: drawing up an infraction notice, notifying it, and its states."""
