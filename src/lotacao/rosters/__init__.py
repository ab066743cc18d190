"""Per-line rosters submitted by the line's representative and approved by the agency, and drivers'
duty logs checked against the laws' limits (issue 23, item 3)."""
