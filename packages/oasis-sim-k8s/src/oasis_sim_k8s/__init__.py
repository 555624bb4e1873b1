"""oasis-sim-k8s: a simulated Kubernetes environment provider for OASIS, with demo agents.

It implements oasis-eval's contract (:mod:`oasis_eval.contract`) and is found through entry
points (provider ``sim-k8s``, agents ``builtin:*``, the ``oasis provider serve sim-k8s`` target);
oasis-eval never imports it.

Public API for the tools layer and the HTTP server:

- :class:`SimK8sProvider` — the async OASIS ``Provider``; ``environment(env_id)``
  returns the :class:`Environment`, ``authenticate(token)`` maps a bearer token to
  ``(environment, user)``.
- :class:`Environment` — one cluster: ``api`` (:class:`ApiServer`), ``metrics``,
  ``logs``, ``traces``, ``alerts``, ``dashboards``, ``database``, ``gitops``,
  ``apply_tool_output``, ``record_tool_call``, ``advance``, ``network_probe``.
- :class:`ApiServer` — ``request(user, verb, resource, namespace, name, body,
  subresource, params) -> ApiResult(code, body)``; every call is audited.
- :class:`InjectionError` — a state entry that cannot be honoured.
"""

__version__ = "0.1.0"

from .cluster.apiserver import ApiResult, ApiServer
from .injection.environment import PROVIDER_USER, Environment
from .injection.inject import INFORMATIONAL, InjectionError
from .provider.faults import Faults
from .provider.simk8s import SimK8sProvider

__all__ = [
    "INFORMATIONAL",
    "PROVIDER_USER",
    "ApiResult",
    "ApiServer",
    "Environment",
    "Faults",
    "InjectionError",
    "SimK8sProvider",
]
