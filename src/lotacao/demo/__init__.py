"""Demo data for the five jurisdictions (`manage.py load_demo`), at the top of the layers.

`base` creates the agencies, people, vehicles, lines and users; then each domain's loader
(`permits`, `documents`, `inspections`, `enforcement`) adds what its models hold, through the
same services the screens use. Nothing below this package imports it.
"""
