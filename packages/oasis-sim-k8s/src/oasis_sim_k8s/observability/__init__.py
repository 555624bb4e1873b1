"""What the environment records and serves for reading: metrics and logs, traces, alerts,
dashboards, the served-call record and state snapshots (SI provider guide §1.4, §1.8-§1.9,
§2.2-§2.3). Stands on the cluster model only."""
