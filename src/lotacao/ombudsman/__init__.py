"""Complaints and other manifestations under Lei 13.460/2017 and each law: intake, the
ombudsman's queue with its 30-day clock, answers, statistics and the yearly report."""
