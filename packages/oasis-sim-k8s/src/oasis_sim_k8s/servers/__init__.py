"""The agent-facing servers: the one listener an agent reaches (Kubernetes API, MCP,
Prometheus, Grafana, Tempo) behind its gate, the hand-off, and in-process tool endpoints
(core §3.6; SI provider guide §4)."""
