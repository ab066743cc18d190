"""Sanctions: fines, administrative measures, and the effects of final decisions."""
