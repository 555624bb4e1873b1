"""Can the agent reach what the provider hands out? Checked before any scenario runs
(spec 04 §2.2: the agent acts through provision's ``agent_endpoint``; issue 16 item 2).

An agent that runs in another process (``cli:``, ``http://``, ``mcp-*``) declares the URL
schemes it can reach (``endpoint_schemes``, e.g. ``("http", "https")``); an in-process agent
declares none and reaches whatever the provider hands out (``sim-k8s://`` included).

A provider may offer ``agent_access(remote)`` (sync or async): it prepares how agents reach
its environments — the simulator starts its loopback agent listener (Kubernetes API, MCP,
Prometheus) when ``remote`` — and answers the schemes its ``agent_endpoint`` will have.
A scheme the agent cannot reach refuses the run (an :class:`AgentFault` before any
scenario: exit 2, no verdict) rather than letting the agent act on nothing and pass
vacuously. A provider without the hook is checked as each environment is handed out
(:func:`check_endpoint`): an endpoint with an explicit ``host:port`` is a network
endpoint whatever its scheme (``db://127.0.0.1:5432/x``: a ``cli:`` agent's
database client reaches it); an endpoint the agent cannot reach is a harness fault of the
pairing (PROVIDER_FAILURE, the run aborts), never the agent's FAIL.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..contract import AgentFault, HarnessFault, ProviderFault, network_address
from .containment import describe, passes_through
from .refusals import PreflightError

__all__ = ["check_endpoint", "prepare_agent_access"]


def check_endpoint(agent: Any, endpoint: str | None) -> None:
    """Raise :class:`ProviderFault` when ``agent`` cannot reach the ``endpoint`` provision
    handed out (before the agent is started: it is neither run nor judged on it)."""
    schemes = getattr(agent, "endpoint_schemes", None)
    if schemes is None or not endpoint:
        return
    scheme = endpoint.partition("://")[0].lower()
    networked = any(str(s).lower() in ("http", "https") for s in schemes)
    if scheme not in {str(s).lower() for s in schemes} and not (
        networked and network_address(endpoint)
    ):
        raise ProviderFault(
            f"the provider handed out agent_endpoint {scheme}://..., which the agent "
            f"({agent!r}) cannot reach from its own process; a provider for out-of-process "
            "agents must hand out a network endpoint (issue 16)"
        )


async def prepare_agent_access(agent: Any, provider: Any) -> None:
    """Let ``provider`` serve an out-of-process ``agent``; refuse the run when it cannot."""
    schemes = getattr(agent, "endpoint_schemes", None)
    remote = schemes is not None
    hook = getattr(provider, "agent_access", None)
    if not callable(hook):
        return
    try:
        offered = hook(remote)
        if inspect.isawaitable(offered):
            offered = await offered
    except BaseException as exc:
        if passes_through(exc) or isinstance(exc, HarnessFault):
            raise
        raise PreflightError(
            f"the provider could not prepare the agents' access to its environments: "
            f"{describe(exc)}"
        ) from exc
    if schemes is None or offered is None:
        return
    wanted = {str(s).lower() for s in schemes}
    unreachable = sorted({str(s).lower() for s in offered} - wanted)
    if unreachable:
        raise AgentFault(
            f"the agent ({agent!r}) runs outside this process and reaches "
            f"{'/'.join(sorted(wanted))} endpoints only, but the provider hands out "
            f"{', '.join(s + '://' for s in unreachable)} endpoints, which exist only inside "
            "the runner: use an in-process agent (python:, builtin:), or a provider that "
            "serves agents over the network (oasis provider serve, --provider URL)"
        )
