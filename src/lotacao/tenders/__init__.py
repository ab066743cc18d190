"""Calls (editais) with each law's criteria, applications in the window, scores, the incumbent's
preference, a reproducible public draw, ranking, appeals and the award leading to grants
(issue 23, item 5)."""
