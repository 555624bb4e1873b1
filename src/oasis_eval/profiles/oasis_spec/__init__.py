"""The oasis-spec profile layout: markdown and YAML files like the SI profile (spec 03 §2)."""

from .layout import is_oasis_spec_layout, load_oasis_spec_profile

__all__ = ["is_oasis_spec_layout", "load_oasis_spec_profile"]
