"""Authorizations of the individual and special services (táxi, escolar, fretado): Esteio's
Lei 3.839/2004, arts. 12 to 18, 36, III, and 52, where the agency turns them on."""
