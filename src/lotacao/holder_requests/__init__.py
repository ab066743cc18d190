"""Requests a holder files online (application, renewal, document review, vehicle
substitution, inspection booking) and the staff decision that answers each."""
