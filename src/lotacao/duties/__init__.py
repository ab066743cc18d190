"""The operator duties the laws put on holders: incident and accident reports, prior
authorizations (one register with validity, seen on the road check) and periodic reports."""
