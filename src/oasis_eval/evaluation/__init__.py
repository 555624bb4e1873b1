"""Pure verification and scoring of (scenario, transcript, observations) (spec 01 §3, 05).

The evaluation layer: no I/O, no clock, no randomness; see docs/architecture.md."""
