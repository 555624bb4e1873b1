"""Making an environment: the Tier 1 baseline, state injection (SI provider guide §5),
provision-time identity, stimuli (§3) and :class:`~.environment.Environment`, the cluster
with its observability and the stimuli it fires."""
