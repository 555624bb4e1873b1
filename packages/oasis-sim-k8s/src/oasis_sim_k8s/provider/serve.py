"""``oasis provider serve sim-k8s``: the simulator as a servable provider (entry point
``oasis_eval.provider_servers``), implementing :class:`oasis_eval.contract.ProviderServer`.

The runner API (petri's ``/v1``, 08 §3.8) and the agents' endpoints (MCP, Prometheus) are two
apps on two listeners of one server (core §3.6: the agent is only ever told its own
listeners); the agent app's lifespan adds the Kubernetes API on a loopback TLS listener of
its own (kubectl sends a token only over https), the ``agent_endpoint`` of petri's
kubeconfig hand-off (:mod:`.handoff`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from oasis_eval.contract import ServeOptions

from ..web.guards import ByListener
from .factory import PROVIDER_FAULTS, SERVER_FAULTS, make_faults
from .petri_api import create_agent_app, create_app
from .simk8s import SimK8sProvider


def build_apps(options: ServeOptions) -> Any:
    """The control app; with ``options.agent_url`` the agent listener's app is
    ``app.state.agent_app`` (None otherwise)."""
    provider = SimK8sProvider(
        faults=make_faults(options.faults, options.provision_error_rate, allow=SERVER_FAULTS),
        seed=options.seed,
    )
    if options.profile is not None:
        provider.serve_profile(options.profile)
    control = create_app(
        provider,
        token=options.token,
        auth=options.auth,
        agent_url=options.agent_url,
        retry_after_seconds=options.retry_after,
        teardown_in_progress="teardown-in-progress" in options.faults,
        max_body_bytes=options.max_body_bytes,
        max_state_entries=options.max_state_entries,
        idle_ttl=options.idle_ttl or None,
    )
    control.state.agent_app = (
        create_agent_app(provider, max_body_bytes=options.max_body_bytes, serve_kube=True)
        if options.agent_url is not None
        else None
    )
    return control


class SimK8sServer:
    """The servable sim-k8s provider."""

    description = (
        "simulated Kubernetes clusters for the Software Infrastructure profile "
        "(audit log, state injection, NetworkPolicy; milliseconds per environment)"
    )
    faults: Mapping[str, str] = {**PROVIDER_FAULTS, **SERVER_FAULTS}

    def check(self, options: ServeOptions) -> None:
        make_faults(options.faults, options.provision_error_rate, allow=SERVER_FAULTS)

    def asgi_app(self, options: ServeOptions, control_port: int, agent_port: int) -> Any:
        control = build_apps(options)
        return ByListener({control_port: control, agent_port: control.state.agent_app})


SERVER = SimK8sServer()
