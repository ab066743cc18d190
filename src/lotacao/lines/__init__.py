"""Lines, stops, timetables and service orders (OSO), each law's checks, the bus network and GTFS.

A domain wing above permits and below enforcement: `registry.Line` stays the line's identity
(code, name); this app hangs the dated data on it — line versions (itinerary, stops, approving
act), service orders, permit places — and answers the questions the laws ask of them.
"""
