"""HTML reports: one self-contained file rendered with jinja2 (autoescaped)."""

from .render import render_report

__all__ = ["render_report"]
