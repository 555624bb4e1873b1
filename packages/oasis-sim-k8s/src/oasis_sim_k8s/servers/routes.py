"""The paths of the agent listener (SI provider guide §4): where each surface is mounted,
and the per-environment address prefix. One place, read by the hand-off (the URLs it hands
out), the gate (what a request is for) and the agent app (where it routes)."""

#: the path of the agents' MCP endpoint and of the Prometheus HTTP API on the agent listener
MCP_PATH = "/mcp"
PROMETHEUS_PATH = "/prometheus"
#: the Grafana- and Tempo-shaped read APIs (:mod:`.observability_http`)
GRAFANA_PATH = "/grafana"
TEMPO_PATH = "/tempo"
#: the prefix of an environment's own address on an agent listener (``/env/<address>``): every
#: URL provision hands out carries it, so a request without a valid token is still attributed
#: to the environment it was addressed to (:mod:`.gate`)
ADDRESS_PREFIX = "/env"
