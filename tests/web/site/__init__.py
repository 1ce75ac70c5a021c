"""Tests of the site as a whole: middleware, metrics, checks, statements, structure, pages."""
