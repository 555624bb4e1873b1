"""Running an evaluation (spec 04 §3): preflight, the orchestrator, capture, the run record.

The engine layer, above evaluation; see docs/architecture.md."""
