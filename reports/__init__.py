"""HTML reports: one self-contained file rendered with jinja2 (autoescaped), and the bench hook."""

from .bench import bench_render
from .render import render_report

__all__ = ["render_report", "bench_render"]
