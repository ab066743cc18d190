"""Pernambuco's intermunicipal chartering (Lei 16.205/2017 as amended in 2020): the CRC register,
fleets, trips and passenger lists, GPS tracking and the CRC's sanctions.

A domain wing above inspections and documents and below enforcement: what differs per law is read
from the pack (`chartering.rules`); a jurisdiction whose pack has no `chartering.modalities` has no
chartering.
"""
