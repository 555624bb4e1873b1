"""Profile quality analysis (spec 03 §4.1): data for human review, never a score."""

from .analysis import analyze
from .render import render_text
from .report import QualityReport

__all__ = ["QualityReport", "analyze", "render_text"]
