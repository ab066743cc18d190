"""Dossier: the holder's record (prontuário) and the enforcement letters as PDFs."""
