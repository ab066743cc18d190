"""The open data catalogue at /dados/ (DCAT JSON-LD) and its CSV distributions."""
